import Foundation

/// The files of a built `.app`, wherever they are: a folder on disk, or `Payload/NAME.app/` in an `.ipa`.
protocol AppBundleContents {
    /// Whether the bundle holds a file at `relative` (`Info.plist`, `Contents/MacOS/App`).
    func contains(_ relative: String) -> Bool
    /// Why there is no readable file at `relative` (`is not in the bundle`), or nil when there is one.
    func problem(_ relative: String) -> String?
    /// What errors call the file at `relative`.
    func source(of relative: String) -> String
    /// The whole file, at most `limit` bytes.
    func read(_ relative: String, limit: Int, what: String) throws(EntitlementsReadError) -> [UInt8]
    /// The file as a byte source, never read whole.
    func byteSource(_ relative: String, limits: EntitlementsReadLimits) throws(EntitlementsReadError) -> ByteSource
}

/// Reads a built app: its `Info.plist` names the executable, whose code signature holds the
/// entitlements; beside it, the provisioning profile.
///
/// - iOS layout: `Info.plist`, the executable and `embedded.mobileprovision` at the top of the bundle.
/// - macOS layout: `Contents/Info.plist`, `Contents/MacOS/NAME`, `Contents/embedded.provisionprofile`.
///
/// When the executable is unsigned or its signature has no entitlements blob, and the bundle has an
/// `archived-expanded-entitlements.xcent` (what Xcode leaves in a simulator build, whose signature
/// carries none), that file is read instead and `source` says so. A profile that is there but cannot
/// be read becomes `profileProblem`, never hiding the app's own entitlements.
enum AppBundleReader {
    static let expandedEntitlements = "archived-expanded-entitlements.xcent"

    static func entitlements(of bundle: AppBundleContents, kind: EntitlementsFileKind, limits: EntitlementsReadLimits) throws(EntitlementsReadError)
        -> AppEntitlements
    {
        let prefix: String, executableFolder: String, profileName: String
        if bundle.contains("Info.plist") {
            (prefix, executableFolder, profileName) = ("", "", "embedded.mobileprovision")
        } else if bundle.contains("Contents/Info.plist") {
            (prefix, executableFolder, profileName) = ("Contents/", "Contents/MacOS/", "Contents/embedded.provisionprofile")
        } else {
            // One that is there but cannot be read (a pipe, a folder) is named as such, not called missing.
            for name in ["Info.plist", "Contents/Info.plist"] {
                if let problem = bundle.problem(name), problem != "is not in the bundle" {
                    throw EntitlementsReadError(source: bundle.source(of: name), reason: problem)
                }
            }
            throw EntitlementsReadError(source: bundle.source(of: ""), reason: "holds no Info.plist (an iOS app) or Contents/Info.plist (a macOS app)")
        }
        let infoName = prefix + "Info.plist"
        let info = try EntitlementsPropertyList.dictionary(
            from: Data(bundle.read(infoName, limit: limits.propertyListBytes, what: "a property list")), source: bundle.source(of: infoName),
            limits: limits)
        guard let value = info["CFBundleExecutable"] else {
            throw EntitlementsReadError(source: bundle.source(of: infoName), reason: "has no CFBundleExecutable: it names no executable")
        }
        // The name comes from the file: it must name a file in the bundle's own folder, nothing elsewhere.
        guard let name = value as? String, !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else {
            // Quoted (at most 100 characters) so the user sees what the bundle named.
            let shown = (value as? String).map { "\"\($0.prefix(100))\"" + ($0.count > 100 ? "…" : "") } ?? EntitlementsPropertyList.typeName(value)
            throw EntitlementsReadError(source: bundle.source(of: infoName),
                                        reason: "has a CFBundleExecutable (\(shown)) that is not a file name in the bundle's own folder")
        }
        let executable = executableFolder + name
        if let problem = bundle.problem(executable) {
            throw EntitlementsReadError(source: bundle.source(of: executable), reason: "is named by CFBundleExecutable but \(problem)")
        }
        var result: AppEntitlements
        switch try MachOSignatureReader.entitlements(in: bundle.byteSource(executable, limits: limits), limits: limits) {
        case .propertyList(let data):
            result = try EntitlementsPropertyList.entitlements(from: data, source: bundle.source(of: executable), kind: kind, limits: limits)
        case let missing:
            let xcent = prefix + expandedEntitlements
            guard bundle.contains(xcent) else {
                throw EntitlementsReadError(source: bundle.source(of: executable), reason: missing == .unsigned
                    ? "is not signed (no LC_CODE_SIGNATURE load command) and the bundle has no \(expandedEntitlements): the app carries no entitlements to read"
                    : "is signed without an entitlements blob and the bundle has no \(expandedEntitlements): the app carries no entitlements to read")
            }
            let why = missing == .unsigned ? "is not signed, so the entitlements are read from the file Xcode leaves beside it"
                : "has no entitlements blob in its code signature, as in a simulator build"
            let source = "\(bundle.source(of: xcent)) (the executable \(name) \(why))"
            let data = Data(try bundle.read(xcent, limit: limits.propertyListBytes, what: "a property list"))
            result = try EntitlementsPropertyList.entitlements(from: data, source: source, kind: kind, limits: limits)
        }
        if bundle.contains(profileName) {
            do {
                let bytes = try bundle.read(profileName, limit: limits.profileBytes, what: "a provisioning profile")
                result.profile = try ProvisioningProfileReader.profile(from: bytes, source: bundle.source(of: profileName), limits: limits)
            } catch {
                result.profileProblem = error
            }
        }
        return result
    }
}

/// A `.app` folder on disk.
struct AppFolder: AppBundleContents {
    /// The folder's path, as given.
    var path: String

    func url(_ relative: String) -> String { relative.isEmpty ? path : (path.hasSuffix("/") ? path : path + "/") + relative }

    /// Whether a regular file is there. Anything else (a FIFO, a device) counts as absent, and is
    /// never opened; the executable is checked apart, so that its error can say what it is.
    func contains(_ relative: String) -> Bool {
        PathKind(url(relative)) == .regularFile
    }

    /// Why the file at `relative` cannot be read, or nil when it is a regular file inside the bundle.
    func problem(_ relative: String) -> String? {
        switch PathKind(url(relative)) {
        case .regularFile:
            // A link may point anywhere: what it points at is never read (nor shown in an error).
            guard !relative.isEmpty, let target = Self.realPath(url(relative)), let root = Self.realPath(path) else { return nil }
            if target.hasPrefix(root.hasSuffix("/") ? root : root + "/") { return nil }
            return "is a symbolic link to a file outside the bundle, so it is not read (codesign refuses to sign such a bundle)"
        case .folder: return "is a folder, not a file"
        case .unusable(let reason): return reason == PathKind.missing ? "is not in the bundle" : reason
        }
    }

    func source(of relative: String) -> String { relative.isEmpty ? path : "\(path): \(relative)" }

    /// `path` with every symbolic link resolved, or nil.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    func read(_ relative: String, limit: Int, what: String) throws(EntitlementsReadError) -> [UInt8] {
        if let problem = problem(relative) { throw EntitlementsReadError(source: source(of: relative), reason: problem) }
        let data = try EntitlementsFile.readWhole(url(relative), limit: limit, source: source(of: relative), what: what)
        return Array(data)
    }

    func byteSource(_ relative: String, limits: EntitlementsReadLimits) throws(EntitlementsReadError) -> ByteSource {
        if let problem = problem(relative) { throw EntitlementsReadError(source: source(of: relative), reason: problem) }
        return try FileByteSource(path: url(relative), name: source(of: relative))
    }
}

/// `Payload/NAME.app/` inside an `.ipa`.
struct ArchivedApp: AppBundleContents {
    var archive: ZipArchive
    /// `Payload/NAME.app/`.
    var prefix: String

    /// The one app in `archive`'s `Payload/` folder; an error naming what is there when there is not exactly one.
    init(archive: ZipArchive) throws(EntitlementsReadError) {
        // In the archive's order for messages, each with a set beside it: one pass, linear in the members.
        var apps = OrderedNames(), others = OrderedNames(), topLevel = OrderedNames()
        for (position, name) in archive.names.enumerated() {
            if position % 4096 == 0 { try archive.checkStopped() }
            // Only the first two parts matter: never split a long name whole.
            let parts = name.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
            if let first = parts.first { topLevel.insert(String(first)) }
            guard parts.count >= 2, parts[0] == "Payload", !parts[1].isEmpty else { continue }
            let child = String(parts[1])
            // A file directly in Payload/ has no slash after it; a folder's members do.
            let isFolder = parts.count >= 3
            if isFolder && child.hasSuffix(".app") {
                apps.insert(child)
            } else {
                others.insert(isFolder ? child + "/" : child)
            }
        }
        let (appNames, otherNames, topNames) = (apps.names, others.names, topLevel.names)
        guard appNames.count == 1, let app = appNames.first else {
            if appNames.count > 1 {
                throw EntitlementsReadError(source: archive.path, reason: "holds \(appNames.count) apps under Payload/ (\(Self.list(appNames))), not one")
            }
            if topLevel.contains("Payload") {
                throw EntitlementsReadError(source: archive.path,
                                            reason: "holds no Payload/NAME.app/ folder (Payload/ holds \(otherNames.isEmpty ? "nothing" : Self.list(otherNames)))")
            }
            throw EntitlementsReadError(source: archive.path,
                                        reason: "is a zip without a Payload/ folder, so not an .ipa (it holds \(topNames.isEmpty ? "nothing" : Self.list(topNames)))")
        }
        self.archive = archive
        self.prefix = "Payload/\(app)/"
    }

    /// Names in the order first seen, each once.
    struct OrderedNames {
        private(set) var names: [String] = []
        private var seen: Set<String> = []

        mutating func insert(_ name: String) {
            if seen.insert(name).inserted { names.append(name) }
        }

        func contains(_ name: String) -> Bool { seen.contains(name) }
    }

    static func list(_ names: [String]) -> String {
        names.count <= 5 ? names.joined(separator: ", ") : names.prefix(5).joined(separator: ", ") + " and \(names.count - 5) more"
    }

    func contains(_ relative: String) -> Bool { archive.contains(prefix + relative) }

    func problem(_ relative: String) -> String? { contains(relative) ? nil : "is not in the bundle" }

    func source(of relative: String) -> String { archive.source(of: prefix + relative) }

    func read(_ relative: String, limit: Int, what: String) throws(EntitlementsReadError) -> [UInt8] {
        try archive.read(prefix + relative, limit: limit, what: what)
    }

    func byteSource(_ relative: String, limits: EntitlementsReadLimits) throws(EntitlementsReadError) -> ByteSource {
        try archive.byteSource(prefix + relative, limit: limits.archivedExecutableBytes, what: "an executable")
    }
}
