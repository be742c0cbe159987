import Foundation

/// A built app made at test time, as a `.app` folder or an `.ipa`: an `Info.plist` (XML or binary)
/// naming the executable, the executable (a `MachOImage`'s bytes, or anything), and optionally a
/// provisioning profile and an `archived-expanded-entitlements.xcent`, in the iOS or macOS layout.
public struct AppBundleFixture {
    /// Where the bundle keeps its files.
    public enum Layout: Sendable {
        /// `Info.plist`, the executable and `embedded.mobileprovision` at the top.
        case iOS
        /// `Contents/Info.plist`, `Contents/MacOS/NAME`, `Contents/embedded.provisionprofile`.
        case macOS
    }

    /// The bundle's name without `.app`, and its executable's (`CFBundleExecutable`).
    public var name: String
    /// iOS or macOS layout.
    public var layout: Layout
    /// The executable's bytes.
    public var executable: Data
    /// The `Info.plist` written as a binary property list rather than XML.
    public var binaryInfoPlist: Bool
    /// `CFBundleExecutable` as written, when it should differ from `name` (nil: `name`).
    public var executableEntry: String?
    /// The provisioning profile's bytes (a CMS-signed property list), when the bundle has one.
    public var profile: Data?
    /// The `archived-expanded-entitlements.xcent`'s bytes, when the bundle has one.
    public var expandedEntitlements: Data?

    /// An app called `name` with `executable`.
    public init(name: String = "App", layout: Layout = .iOS, executable: Data, binaryInfoPlist: Bool = false,
                executableEntry: String? = nil, profile: Data? = nil, expandedEntitlements: Data? = nil) {
        self.name = name
        self.layout = layout
        self.executable = executable
        self.binaryInfoPlist = binaryInfoPlist
        self.executableEntry = executableEntry
        self.profile = profile
        self.expandedEntitlements = expandedEntitlements
    }

    /// The bundle's files: paths relative to `NAME.app/`, and contents.
    public func files() throws -> [(path: String, bytes: Data)] {
        let info: [String: Any] = [
            "CFBundleExecutable": executableEntry ?? name, "CFBundleIdentifier": "com.exemplo.\(name.lowercased())",
            "CFBundlePackageType": "APPL",
        ]
        let infoBytes = try PropertyListSerialization.data(fromPropertyList: info, format: binaryInfoPlist ? .binary : .xml, options: 0)
        let top = layout == .iOS ? "" : "Contents/"
        var files: [(String, Data)] = [(top + "Info.plist", infoBytes), (top + (layout == .iOS ? "" : "MacOS/") + name, executable)]
        if let profile { files.append((top + (layout == .iOS ? "embedded.mobileprovision" : "embedded.provisionprofile"), profile)) }
        if let expandedEntitlements { files.append((top + "archived-expanded-entitlements.xcent", expandedEntitlements)) }
        return files
    }

    /// Writes `NAME.app` in `folder`; returns its URL.
    @discardableResult
    public func writeApp(in folder: URL) throws -> URL {
        let app = folder.appendingPathComponent("\(name).app")
        for (path, bytes) in try files() {
            let url = app.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: url)
        }
        return app
    }

    /// The members of an `.ipa` holding this app under `Payload/NAME.app/`, folders included.
    public func ipaEntries() throws -> [ZipArchiveWriter.Entry] {
        var entries = [ZipArchiveWriter.Entry("Payload/"), ZipArchiveWriter.Entry("Payload/\(name).app/")]
        for (path, bytes) in try files() { entries.append(ZipArchiveWriter.Entry("Payload/\(name).app/\(path)", bytes)) }
        return entries
    }

    /// Writes an `.ipa` at `url` holding this app, and `extra` members after it.
    public func writeIPA(to url: URL, extra: [ZipArchiveWriter.Entry] = []) throws {
        try ZipArchiveWriter.write(ipaEntries() + extra, to: url)
    }

    /// A provisioning profile's property list (XML), to be signed with `TestCertificateAuthority.signCMS`.
    public static func profilePropertyList(name: String = "Test Profile", teamIdentifiers: [String], applicationIdentifier: String,
                                           associatedDomains: [String]? = ["*"], expiration: Date = Date(timeIntervalSince1970: 1_900_000_000)) throws -> String {
        var entitlements: [String: Any] = ["application-identifier": applicationIdentifier, "get-task-allow": true]
        if let associatedDomains { entitlements["com.apple.developer.associated-domains"] = associatedDomains }
        let dictionary: [String: Any] = [
            "Name": name, "TeamIdentifier": teamIdentifiers, "ExpirationDate": expiration, "Entitlements": entitlements,
            "AppIDName": "Test", "UUID": "00000000-0000-0000-0000-000000000000",
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0)
        return String(decoding: data, as: UTF8.self)
    }
}
