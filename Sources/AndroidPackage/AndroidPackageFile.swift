import Foundation

/// What an APK claims for App Links: its manifest's package and intent filters, the hosts Android
/// verifies for it, and the certificates it is signed with.
public struct AndroidApp: Sendable, Equatable, Codable {
    /// The path given.
    public var file: String
    public var manifest: AndroidManifest
    /// The hosts Android asks its verifier to check, by Android's rules for the app's target API level.
    public var appLinkHosts: AppLinkHosts
    public var signing: APKSigning

    /// The application id, as `assetlinks.json` names it.
    public var packageName: String { manifest.packageName }
}

/// Reads an APK: `AndroidManifest.xml` through libzip (never extracted), the APK Signing Block from
/// the file's end, and the v1 signature when there is no v2 or v3 signer.
public enum AndroidPackageFile {
    /// The app in the APK at `path`.
    public static func read(at path: String, limits: APKReadLimits = .standard) throws(APKReadError) -> AndroidApp {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw APKReadError(source: path, code: .unreadable, reason: "cannot be read (\(String(cString: strerror(errno))))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw APKReadError(source: path, code: .unreadable, reason: "is not a regular file, as an APK is")
        }
        let bytes = try FileAPKBytes(path: path)
        guard let head = try? bytes.read("its first bytes", at: 0, count: 4), head == [0x50, 0x4b, 0x03, 0x04] else {
            throw APKReadError(source: path, code: .notAnArchive, reason: "does not start like a zip archive (PK\\x03\\x04), as an APK does")
        }
        let archive = try APKArchive(path: path)
        let manifestName = "AndroidManifest.xml"
        let manifestSource = archive.source(of: manifestName)
        let nodes = try BinaryXML.nodes(in: try archive.read(manifestName, limit: limits.manifestBytes, what: "a manifest"), source: manifestSource, limits: limits)
        let manifest = try AndroidManifest.read(nodes, source: manifestSource)
        let signing = try signing(of: bytes, archive: archive, limits: limits)
        return AndroidApp(file: path, manifest: manifest, appLinkHosts: AppLinkHosts(manifest, limits: limits), signing: signing)
    }

    /// How the APK is signed: the newest scheme present decides, as Android's ApkSignatureVerifier
    /// tries v3, then v2, then v1.
    static func signing(of bytes: APKBytes, archive: APKArchive, limits: APKReadLimits) throws(APKReadError) -> APKSigning {
        let block = try APKSigningBlock.signers(in: bytes, limits: limits) ?? [:]
        let jar = try JARSignature.signers(in: archive, limits: limits)
        var schemes = Array(block.keys)
        if !jar.isEmpty { schemes.append(.v1) }
        schemes.sort()
        if let signers = block[.v3] { return APKSigning(schemes: schemes, scheme: .v3, signers: signers) }
        if let signers = block[.v2] { return APKSigning(schemes: schemes, scheme: .v2, signers: signers) }
        guard !jar.isEmpty else {
            throw APKReadError(source: archive.path, code: .unsigned, reason: "is not signed: it has no APK Signing Block with a v2 or v3 signer and no v1 signature in META-INF/, so no device installs it")
        }
        return APKSigning(schemes: schemes, scheme: .v1, signers: jar)
    }
}
