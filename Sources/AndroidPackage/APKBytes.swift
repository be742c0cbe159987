import Foundation

/// An APK's bytes read at an offset without holding them all: the APK Signing Block sits just before
/// the zip's central directory, found from the end of the file.
public protocol APKBytes: AnyObject {
    /// What the bytes are, for errors (the path given).
    var name: String { get }
    /// How many bytes there are.
    var size: UInt64 { get }
    /// Exactly `count` bytes at `offset`; an error naming `what` when they are not all there.
    func read(_ what: String, at offset: UInt64, count: Int) throws(APKReadError) -> [UInt8]
}

extension APKBytes {
    /// Whether `count` bytes at `offset` lie within the bytes (no overflow).
    func contains(_ offset: UInt64, _ count: Int) -> Bool {
        count >= 0 && offset <= size && UInt64(count) <= size - offset
    }

    func pastTheEnd(_ what: String, at offset: UInt64, count: Int) -> APKReadError {
        APKReadError(source: name, code: .malformedSigningBlock, reason: "ends before \(what) (\(count) bytes at byte \(offset); the file has \(size) bytes)")
    }
}

/// A buffer as APK bytes (tests, fuzzing).
public final class MemoryAPKBytes: APKBytes {
    public let name: String
    public let bytes: [UInt8]
    public var size: UInt64 { UInt64(bytes.count) }

    public init(_ bytes: [UInt8], name: String) {
        self.bytes = bytes
        self.name = name
    }

    public func read(_ what: String, at offset: UInt64, count: Int) throws(APKReadError) -> [UInt8] {
        guard contains(offset, count) else { throw pastTheEnd(what, at: offset, count: count) }
        return Array(bytes[Int(offset)..<Int(offset) + count])
    }
}

/// A file on disk as APK bytes: each read is a seek and one bounded read.
public final class FileAPKBytes: APKBytes {
    public let name: String
    public let size: UInt64
    private let handle: FileHandle

    /// Opens `path`; `name` is what errors call it (the path by default).
    public init(path: String, name: String? = nil) throws(APKReadError) {
        let name = name ?? path
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw APKReadError(source: name, code: .unreadable, reason: "cannot be opened for reading")
        }
        do {
            size = try handle.seekToEnd()
        } catch {
            try? handle.close()
            throw APKReadError(source: name, code: .unreadable, reason: "cannot be read (\(error.localizedDescription))")
        }
        self.handle = handle
        self.name = name
    }

    deinit { try? handle.close() }

    public func read(_ what: String, at offset: UInt64, count: Int) throws(APKReadError) -> [UInt8] {
        guard contains(offset, count) else { throw pastTheEnd(what, at: offset, count: count) }
        let data: Data
        do {
            try handle.seek(toOffset: offset)
            data = try handle.read(upToCount: count) ?? Data()
        } catch {
            throw APKReadError(source: name, code: .unreadable, reason: "cannot be read at byte \(offset) (\(error.localizedDescription))")
        }
        // The file may have shrunk since it was measured.
        guard data.count == count else { throw pastTheEnd(what, at: offset, count: count) }
        return Array(data)
    }
}
