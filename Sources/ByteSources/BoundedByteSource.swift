import Foundation

/// Bytes that can be read at an offset without holding them all: a file on disk, a buffer, a member
/// of a zip. The Mach-O reader (`Entitlements`) and the APK Signing Block reader (`AndroidPackage`)
/// read through one, so a file of hundreds of MB is never loaded whole; each reads with its own
/// error type (`Failure`).
public protocol BoundedByteSource<Failure>: AnyObject {
    associatedtype Failure: Error
    /// What the bytes are, for errors (`App.ipa: Payload/App.app/App`).
    var name: String { get }
    /// How many bytes there are.
    var size: UInt64 { get }
    /// Exactly `count` bytes at `offset`; an error naming `what` when they are not all there.
    func read(_ what: String, at offset: UInt64, count: Int) throws(Failure) -> [UInt8]
}

/// The error type of a reader of `MemoryBytes` and `FileBytes`: made from what went wrong, so each
/// reader keeps its own error (and its own code for each kind of failure).
public protocol ByteReadFailure: Error {
    /// `source` could not be read as `reason` says ("cannot be opened for reading", "cannot be read at byte 8 (…)").
    static func unreadable(source: String, reason: String) -> Self
    /// `source` ends before what was asked for (`reason` says what, where and how long the file is).
    static func truncated(source: String, reason: String) -> Self
}

extension BoundedByteSource {
    /// Whether `count` bytes at `offset` lie within the source (no overflow).
    public func contains(_ offset: UInt64, _ count: Int) -> Bool {
        count >= 0 && offset <= size && UInt64(count) <= size - offset
    }

    /// Why a read of `what` that runs past the end failed: where it was, and how long the file is.
    public func pastTheEndReason(_ what: String, at offset: UInt64, count: Int) -> String {
        "ends before \(what) (\(count) bytes at byte \(offset); the file has \(size) bytes)"
    }
}

extension BoundedByteSource where Failure: ByteReadFailure {
    /// The error for a read of `what` that runs past the end.
    public func pastTheEnd(_ what: String, at offset: UInt64, count: Int) -> Failure {
        Failure.truncated(source: name, reason: pastTheEndReason(what, at: offset, count: count))
    }
}

/// A buffer in memory as a byte source (tests, fuzzing, a small member read whole).
public final class MemoryBytes<Failure: ByteReadFailure>: BoundedByteSource {
    /// What the bytes are, for errors.
    public let name: String
    /// The bytes.
    public let bytes: [UInt8]
    /// How many bytes there are.
    public var size: UInt64 { UInt64(bytes.count) }

    /// Wraps `bytes`, called `name` in errors.
    public init(_ bytes: [UInt8], name: String) {
        self.bytes = bytes
        self.name = name
    }

    /// Exactly `count` bytes at `offset`, or an error naming `what`.
    public func read(_ what: String, at offset: UInt64, count: Int) throws(Failure) -> [UInt8] {
        guard contains(offset, count) else { throw pastTheEnd(what, at: offset, count: count) }
        let start = Int(offset)
        return Array(bytes[start..<start + count])
    }
}

/// A file on disk as a byte source: each read is a seek and one bounded read.
public final class FileBytes<Failure: ByteReadFailure>: BoundedByteSource {
    /// What the file is called in errors.
    public let name: String
    /// The file's size when it was opened.
    public let size: UInt64
    private let handle: FileHandle

    /// Opens `path` for reading; `name` is what errors call it (the path by default).
    public init(path: String, name: String? = nil) throws(Failure) {
        let name = name ?? path
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw Failure.unreadable(source: name, reason: "cannot be opened for reading")
        }
        do {
            size = try handle.seekToEnd()
        } catch {
            try? handle.close()
            throw Failure.unreadable(source: name, reason: "cannot be read (\(error.localizedDescription))")
        }
        self.handle = handle
        self.name = name
    }

    deinit { try? handle.close() }

    /// Exactly `count` bytes at `offset` (a seek and one bounded read), or an error naming `what`.
    public func read(_ what: String, at offset: UInt64, count: Int) throws(Failure) -> [UInt8] {
        guard contains(offset, count) else { throw pastTheEnd(what, at: offset, count: count) }
        let data: Data
        do {
            try handle.seek(toOffset: offset)
            data = try handle.read(upToCount: count) ?? Data()
        } catch {
            throw Failure.unreadable(source: name, reason: "cannot be read at byte \(offset) (\(error.localizedDescription))")
        }
        // The file may have shrunk since it was measured.
        guard data.count == count else { throw pastTheEnd(what, at: offset, count: count) }
        return Array(data)
    }
}
