import Foundation

/// Real APKs made at test time with Debian's `aapt` (the manifest compiled to binary XML against a
/// stub framework package that declares the `android:` attributes with AOSP's public ids) and signed
/// by `apksigner` (v1, v2, v3, as asked) with a key and certificate made by `openssl`.
public enum AndroidAppFixture {
    /// One `<intent-filter>` of an activity.
    public struct Filter: Sendable {
        public var autoVerify: Bool?
        public var actions: [String]
        public var categories: [String]
        /// One `<data>` element per pair; a nil half is left out of that element.
        public var data: [(scheme: String?, host: String?)]

        public init(autoVerify: Bool? = true, actions: [String] = ["android.intent.action.VIEW"],
                    categories: [String] = ["android.intent.category.DEFAULT", "android.intent.category.BROWSABLE"],
                    data: [(scheme: String?, host: String?)]) {
            self.autoVerify = autoVerify
            self.actions = actions
            self.categories = categories
            self.data = data
        }

        /// The usual App Links filter: autoVerify, VIEW, DEFAULT, BROWSABLE, https, these hosts.
        public static func appLinks(_ hosts: [String], scheme: String = "https") -> Filter {
            Filter(data: hosts.map { (scheme, $0) })
        }
    }

    /// A signing key: its PKCS #8 key and PEM certificate files, and the certificate's SHA-256 as openssl computes it.
    public struct Signer: Sendable {
        public var key: URL
        public var certificate: URL
        /// Upper-case hex pairs joined by colons, as `assetlinks.json` writes it.
        public var sha256: String
    }

    /// Which signature schemes apksigner writes.
    public struct Schemes: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let v1 = Schemes(rawValue: 1)
        public static let v2 = Schemes(rawValue: 2)
        public static let v3 = Schemes(rawValue: 4)
    }

    /// Whether `aapt`, `apksigner` and `openssl` are installed (`scripts/install-deps.sh --test`).
    public static var toolsAvailable: Bool {
        ["aapt", "apksigner", "openssl"].allSatisfy { ShellCommand.which($0) != nil }
    }

    /// The manifest's XML text.
    public static func manifest(package: String, minSdk: Int? = 24, targetSdk: Int? = 34, activity: String = ".MainActivity",
                                filters: [Filter], alias: [Filter] = []) -> String {
        func filterXML(_ filter: Filter) -> String {
            var text = "      <intent-filter\(filter.autoVerify.map { " android:autoVerify=\"\($0)\"" } ?? "")>\n"
            for action in filter.actions { text += "        <action android:name=\"\(action)\" />\n" }
            for category in filter.categories { text += "        <category android:name=\"\(category)\" />\n" }
            for (scheme, host) in filter.data {
                text += "        <data\(scheme.map { " android:scheme=\"\($0)\"" } ?? "")\(host.map { " android:host=\"\($0)\"" } ?? "") />\n"
            }
            return text + "      </intent-filter>\n"
        }
        var sdk = ""
        if minSdk != nil || targetSdk != nil {
            sdk = "  <uses-sdk\(minSdk.map { " android:minSdkVersion=\"\($0)\"" } ?? "")\(targetSdk.map { " android:targetSdkVersion=\"\($0)\"" } ?? "") />\n"
        }
        var text = "<manifest xmlns:android=\"http://schemas.android.com/apk/res/android\" package=\"\(package)\">\n\(sdk)  <application>\n"
        text += "    <activity android:name=\"\(activity)\">\n" + filters.map(filterXML).joined() + "    </activity>\n"
        if !alias.isEmpty {
            text += "    <activity-alias android:name=\".Alias\">\n" + alias.map(filterXML).joined() + "    </activity-alias>\n"
        }
        return text + "  </application>\n</manifest>\n"
    }

    /// A new signing key and self-signed certificate in `folder`.
    public static func signer(in folder: URL, name: String = "signer", subject: String = "/CN=Test Android Signer") throws -> Signer {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pem = folder.appendingPathComponent("\(name).key.pem"), key = folder.appendingPathComponent("\(name).pk8")
        let certificate = folder.appendingPathComponent("\(name).cert.pem")
        let openssl = try tool("openssl")
        try ShellCommand.run(openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", pem.path, "-out", certificate.path,
                                       "-days", "365", "-subj", subject])
        try ShellCommand.run(openssl, ["pkcs8", "-topk8", "-inform", "PEM", "-outform", "DER", "-in", pem.path, "-out", key.path, "-nocrypt"])
        let printed = try ShellCommand.run(openssl, ["x509", "-in", certificate.path, "-noout", "-fingerprint", "-sha256"]).stdout
        guard let equals = printed.firstIndex(of: "=") else { throw FixtureError("openssl printed no fingerprint: \(printed)") }
        return Signer(key: key, certificate: certificate, sha256: printed[printed.index(after: equals)...].trimmingCharacters(in: .whitespacesAndNewlines).uppercased())
    }

    /// An unsigned APK holding the compiled `manifest`, at `folder/name`.
    public static func unsignedAPK(in folder: URL, name: String = "app.apk", manifest: String) throws -> URL {
        let framework = try frameworkStub(in: folder)
        let source = folder.appendingPathComponent("\(name).manifest")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        let manifestFile = source.appendingPathComponent("AndroidManifest.xml")
        try manifest.write(to: manifestFile, atomically: true, encoding: .utf8)
        let apk = folder.appendingPathComponent(name)
        try ShellCommand.run(try tool("aapt"), ["package", "-f", "-M", manifestFile.path, "-I", framework.path, "-F", apk.path])
        return apk
    }

    /// A signed APK: `manifest` compiled, then signed by each of `signers` with `schemes`.
    public static func apk(in folder: URL, name: String = "app.apk", manifest: String, signers: [Signer], schemes: Schemes) throws -> URL {
        let apk = try unsignedAPK(in: folder, name: name, manifest: manifest)
        var arguments = ["sign", "--min-sdk-version", "24",
                         "--v1-signing-enabled", "\(schemes.contains(.v1))", "--v2-signing-enabled", "\(schemes.contains(.v2))",
                         "--v3-signing-enabled", "\(schemes.contains(.v3))"]
        for (index, signer) in signers.enumerated() {
            if index > 0 { arguments.append("--next-signer") }
            arguments += ["--key", signer.key.path, "--cert", signer.certificate.path]
        }
        try ShellCommand.run(try tool("apksigner"), arguments + [apk.path])
        return apk
    }

    /// A framework package declaring the few `android:` attributes the manifests use, with the ids
    /// of AOSP's public.xml, built once per folder (`aapt package -x` assigns package id 0x01).
    static func frameworkStub(in folder: URL) throws -> URL {
        let apk = folder.appendingPathComponent("framework-stub.apk")
        if FileManager.default.fileExists(atPath: apk.path) { return apk }
        let source = folder.appendingPathComponent("framework-stub")
        let values = source.appendingPathComponent("res/values")
        try FileManager.default.createDirectory(at: values, withIntermediateDirectories: true)
        let attributes: [(String, String, String)] = [
            ("name", "string", "0x01010003"), ("scheme", "string", "0x01010027"), ("host", "string", "0x01010028"),
            ("minSdkVersion", "integer|string", "0x0101020c"), ("targetSdkVersion", "integer|string", "0x01010270"),
            ("autoVerify", "boolean", "0x010104ee"),
        ]
        try "<manifest xmlns:android=\"http://schemas.android.com/apk/res/android\" package=\"android\" />\n"
            .write(to: source.appendingPathComponent("AndroidManifest.xml"), atomically: true, encoding: .utf8)
        try ("<resources>\n" + attributes.map { "  <attr name=\"\($0.0)\" format=\"\($0.1)\" />\n" }.joined() + "</resources>\n")
            .write(to: values.appendingPathComponent("attrs.xml"), atomically: true, encoding: .utf8)
        try ("<resources>\n" + attributes.map { "  <public type=\"attr\" name=\"\($0.0)\" id=\"\($0.2)\" />\n" }.joined() + "</resources>\n")
            .write(to: values.appendingPathComponent("public.xml"), atomically: true, encoding: .utf8)
        try ShellCommand.run(try tool("aapt"), ["package", "-f", "-x", "-M", source.appendingPathComponent("AndroidManifest.xml").path,
                                                "-S", source.appendingPathComponent("res").path, "-F", apk.path])
        return apk
    }

    static func tool(_ name: String) throws -> String {
        guard let path = ShellCommand.which(name) else { throw FixtureError("\(name) is not installed (scripts/install-deps.sh --test installs it)") }
        return path
    }

    struct FixtureError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
