import Foundation

/// Reads an app's entitlements from the file or folder a user names with `--entitlements`.
///
/// What the file is comes from its content (and, for a folder, from being a folder), not from its
/// name: an `.entitlements` file and an `.xcent` are both property lists.
public enum EntitlementsFile {
    /// The largest property list read whole (an entitlements file is a few KB).
    public static let propertyListLimit = 4 << 20

    /// The entitlements at `path`.
    public static func read(at path: String) throws(EntitlementsReadError) -> AppEntitlements {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw EntitlementsReadError(source: path, reason: "no such file or folder")
        }
        if isDirectory.boolValue {
            throw EntitlementsReadError(source: path, reason: "is a folder, not an entitlements file")
        }
        let head = try readHead(of: path, count: 64)
        if let kind = EntitlementsPropertyList.kind(of: head) {
            let data = try readWhole(path, limit: propertyListLimit)
            return try EntitlementsPropertyList.entitlements(from: data, source: path, kind: kind)
        }
        throw EntitlementsReadError(source: path, reason: "is not a property list (an .entitlements or .xcent file)")
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

    /// The whole file, refusing one larger than `limit` bytes (read at most `limit + 1`, whatever the file claims).
    static func readWhole(_ path: String, limit: Int) throws(EntitlementsReadError) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw EntitlementsReadError(source: path, reason: "cannot be opened for reading")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            throw EntitlementsReadError(source: path, reason: "cannot be read (\(error.localizedDescription))")
        }
        guard data.count <= limit else {
            throw EntitlementsReadError(source: path, reason: "is larger than \(limit / (1 << 20)) MB, too large for a property list")
        }
        return data
    }
}
