import Foundation

/// Reads an app's entitlements from the file or folder a user names with `--entitlements`.
///
/// What the file is comes from its content (and, for a folder, from being a folder), not from its
/// name: an `.entitlements` file and an `.xcent` are both property lists; a Mach-O executable starts
/// with its magic number, an `.ipa` with a zip's. A folder is read as a built `.app`.
public enum EntitlementsFile {
    /// The largest property list read whole (an entitlements file is a few KB).
    public static let propertyListLimit = EntitlementsReadLimits.standard.propertyListBytes

    /// The entitlements at `path`: a property list (XML or binary), a Mach-O executable (thin or
    /// universal), a built `.app` folder (iOS or macOS layout) or an `.ipa`.
    public static func read(at path: String) throws(EntitlementsReadError) -> AppEntitlements {
        try read(at: path, limits: .standard)
    }

    /// The entitlements at `path`, read within `limits`; an `.ipa` stops being read once `stopped`
    /// says so (asked every few thousand members and between pieces of a member).
    public static func read(at path: String, limits: EntitlementsReadLimits,
                            stopped: @escaping @Sendable () -> Bool = { false }) throws(EntitlementsReadError) -> AppEntitlements {
        switch PathKind(path) {
        case .folder: return try AppBundleReader.entitlements(of: AppFolder(path: path), kind: .appBundle, limits: limits)
        case .unusable(let reason): throw EntitlementsReadError(source: path, reason: reason)
        case .regularFile: break
        }
        let head = try readHead(of: path, count: 64)
        if head.isEmpty {
            throw EntitlementsReadError(source: path, reason: "is empty (0 bytes): an entitlements file is a property list")
        }
        if let kind = EntitlementsPropertyList.kind(of: head) {
            let data = try readWhole(path, limit: limits.propertyListBytes, source: path, what: "a property list")
            return try EntitlementsPropertyList.entitlements(from: data, source: path, kind: kind, limits: limits)
        }
        let bytes = [UInt8](head)
        if MachOSignatureReader.looksLikeMachO(bytes, limits: limits) {
            switch try MachOSignatureReader.entitlements(in: FileByteSource(path: path), limits: limits) {
            case .propertyList(let data):
                return try EntitlementsPropertyList.entitlements(from: data, source: path, kind: .machO, limits: limits)
            case .unsigned:
                throw EntitlementsReadError(source: path, reason: "is a Mach-O executable that is not signed (no LC_CODE_SIGNATURE load command): it carries no entitlements")
            case .noEntitlementsBlob:
                throw EntitlementsReadError(source: path, reason: "is a Mach-O executable signed without an entitlements blob (a simulator build keeps them in its .app's archived-expanded-entitlements.xcent: name the .app)")
            }
        }
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            let archive = try ZipArchive(path: path, stopped: stopped)
            return try AppBundleReader.entitlements(of: ArchivedApp(archive: archive), kind: .ipa, limits: limits)
        }
        if bytes.first == 0x30 {
            throw EntitlementsReadError(source: path, reason: "looks like a DER (CMS-signed) file such as a provisioning profile, not entitlements: name the .app or .ipa that holds it")
        }
        throw EntitlementsReadError(source: path, reason: "is not a property list (.entitlements, .xcent), a Mach-O executable, a .app folder or an .ipa")
    }

    /// The first `count` bytes of the file (fewer when it is shorter).
    static func readHead(of path: String, count: Int) throws(EntitlementsReadError) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw EntitlementsReadError(source: path, reason: "cannot be opened for reading")
        }
        defer { try? handle.close() }
        do {
            return try handle.read(upToCount: count) ?? Data()
        } catch {
            throw EntitlementsReadError(source: path, reason: "cannot be read (\(error.localizedDescription))")
        }
    }

    /// The whole file, refusing one larger than `limit` bytes (read at most `limit + 1`, whatever the
    /// file claims); `source` is what errors call it, `what` what it should be.
    static func readWhole(_ path: String, limit: Int, source: String, what: String) throws(EntitlementsReadError) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw EntitlementsReadError(source: source, reason: "cannot be opened for reading")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            throw EntitlementsReadError(source: source, reason: "cannot be read (\(error.localizedDescription))")
        }
        guard data.count <= limit else {
            throw EntitlementsReadError(source: source, reason: "is larger than \(limit) bytes, too large for \(what)")
        }
        return data
    }
}
