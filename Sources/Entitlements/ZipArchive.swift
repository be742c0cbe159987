import ByteSources
import CZip
import Foundation

/// An `.ipa` (a zip) opened read-only with libzip. Members are read into memory with limits or
/// streamed; nothing is ever extracted to disk.
final class ZipArchive {
    /// The path given, for errors.
    let path: String
    private let archive: OpaquePointer
    /// Every member's name and index, in the archive's order (the first of two with one name wins).
    private(set) var names: [String] = []
    private var indexes: [String: UInt64] = [:]
    /// True once the read should end (Ctrl-C, SIGTERM): asked between members and between pieces.
    let stopped: @Sendable () -> Bool

    /// Opens the archive at `path` and reads its central directory.
    init(path: String, stopped: @escaping @Sendable () -> Bool = { false }) throws(EntitlementsReadError) {
        self.path = path
        self.stopped = stopped
        let (opened, code) = try Self.open(path, stopped: stopped)
        guard let archive = opened else {
            throw EntitlementsReadError(source: path, reason: "starts like a zip (an .ipa) but cannot be opened as one (libzip: \(Self.message(code)))")
        }
        self.archive = archive
        let count = czip_entry_count(archive)
        guard count >= 0 else {
            throw EntitlementsReadError(source: path, reason: "cannot be read as a zip (libzip: \(String(cString: czip_archive_error(archive))))")
        }
        // Room for the members up front (a million at most before growing): growing copies every name again.
        names.reserveCapacity(Int(min(count, 1 << 20)))
        indexes.reserveCapacity(Int(min(count, 1 << 20)))
        for index in 0..<UInt64(count) {
            if index % 4096 == 0 { try checkStopped() }
            guard let name = czip_entry_name(archive, index) else { continue }
            let text = String(cString: name)
            names.append(text)
            if indexes[text] == nil { indexes[text] = index }
        }
    }

    deinit { czip_discard(archive) }

    /// libzip's open on a thread of its own, waited for in 50 ms steps that look at `stopped`: libzip
    /// reads the whole central directory first (about a second for 100,000 members) and cannot be
    /// interrupted, so a stop is answered without it; an open given up is discarded when it ends.
    private static func open(_ path: String, stopped: @Sendable () -> Bool) throws(EntitlementsReadError) -> (OpaquePointer?, Int32) {
        /// The open's outcome, handed over under the lock; the archive discarded by whoever comes second to an abandoned open.
        final class Attempt: @unchecked Sendable {
            let lock = NSLock()
            let finished = DispatchSemaphore(value: 0)
            var archive: OpaquePointer?
            var code: Int32 = 0
            var done = false
            var abandoned = false
        }
        let attempt = Attempt()
        DispatchQueue.global().async {
            var code: Int32 = 0
            let archive = czip_open_read(path, &code)
            attempt.lock.withLock {
                if attempt.abandoned {
                    if let archive { czip_discard(archive) }
                } else {
                    (attempt.archive, attempt.code, attempt.done) = (archive, code, true)
                }
            }
            attempt.finished.signal()
        }
        while attempt.finished.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            guard stopped() else { continue }
            let given = attempt.lock.withLock { () -> Bool in
                if attempt.done { return false }
                attempt.abandoned = true
                return true
            }
            if given { throw EntitlementsReadError(source: path, reason: "was not read to its end: stopped by a signal") }
            break
        }
        return attempt.lock.withLock { (attempt.archive, attempt.code) }
    }

    /// Throws when the read was asked to stop.
    func checkStopped() throws(EntitlementsReadError) {
        if stopped() { throw EntitlementsReadError(source: path, reason: "was not read to its end: stopped by a signal") }
    }

    /// Whether a member is called exactly `name`.
    func contains(_ name: String) -> Bool { indexes[name] != nil }

    /// What errors call a member: `App.ipa: Payload/App.app/Info.plist`.
    func source(of name: String) -> String { "\(path): \(name)" }

    /// The whole member `name`, refused when its header declares more than `limit` bytes, when it
    /// inflates to more than it declares (a zip bomb or a lying header), or ends before it.
    func read(_ name: String, limit: Int, what: String) throws(EntitlementsReadError) -> [UInt8] {
        let source = source(of: name)
        let (index, declared) = try entry(name)
        guard declared <= UInt64(limit) else {
            throw EntitlementsReadError(source: source, reason: "is \(declared) bytes as its zip header declares, more than the \(limit) read for \(what)")
        }
        let file = try open(index, source: source)
        defer { czip_close_entry(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            try checkStopped()
            // Never ask for more than one byte past what was declared: that byte is enough to know it lied.
            let wanted = min(chunk.count, Int(declared) + 1 - bytes.count)
            let got = chunk.withUnsafeMutableBytes { czip_read(file, $0.baseAddress!, UInt64(wanted)) }
            guard got >= 0 else {
                throw EntitlementsReadError(source: source, reason: "cannot be decompressed (libzip: \(String(cString: czip_entry_error(file))))")
            }
            if got == 0 { break }
            bytes += chunk[0..<Int(got)]
            guard bytes.count <= Int(declared) else {
                throw EntitlementsReadError(source: source, reason: "inflates to more than the \(declared) bytes its zip header declares")
            }
        }
        guard bytes.count == Int(declared) else {
            throw EntitlementsReadError(source: source, reason: "ends after \(bytes.count) bytes, before the \(declared) its zip header declares")
        }
        return bytes
    }

    /// Member `name` as a byte source, streamed as it is read; refused when its header declares more
    /// than `limit` bytes.
    func byteSource(_ name: String, limit: UInt64, what: String) throws(EntitlementsReadError) -> ByteSource {
        let source = source(of: name)
        let (index, declared) = try entry(name)
        guard declared <= limit else {
            throw EntitlementsReadError(source: source, reason: "is \(declared) bytes as its zip header declares, more than the \(limit) read for \(what)")
        }
        return ZipMemberByteSource(archive: self, index: index, size: declared, name: source)
    }

    private func entry(_ name: String) throws(EntitlementsReadError) -> (index: UInt64, size: UInt64) {
        guard let index = indexes[name] else { throw EntitlementsReadError(source: source(of: name), reason: "is not in the archive") }
        var size: UInt64 = 0
        guard czip_entry_size(archive, index, &size) == 0 else {
            throw EntitlementsReadError(source: source(of: name), reason: "has no size in its zip header (libzip: \(String(cString: czip_archive_error(archive))))")
        }
        return (index, size)
    }

    fileprivate func open(_ index: UInt64, source: String) throws(EntitlementsReadError) -> OpaquePointer {
        guard let file = czip_open_entry(archive, index) else {
            throw EntitlementsReadError(source: source, reason: "cannot be opened (libzip: \(String(cString: czip_archive_error(archive))))")
        }
        return file
    }

    /// libzip's message for an error code.
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        czip_error_message(code, &buffer, buffer.count)
        return String(cString: buffer)
    }
}

/// A zip member read as a stream: a read ahead of the position skips forward (decompressing and
/// dropping); a read behind it reopens the member. The Mach-O reader only reads forward, apart from
/// going back over the header it has just read, which the last small read, kept, answers.
final class ZipMemberByteSource: BoundedByteSource {
    typealias Failure = EntitlementsReadError
    let name: String
    let size: UInt64
    private let archive: ZipArchive
    private let index: UInt64
    private var file: OpaquePointer?
    private var position: UInt64 = 0
    /// How many times the member was opened (decompression started from its beginning).
    private(set) var opens = 0
    /// The last small read, kept: the reader looks at a header's first bytes, then reads the header
    /// again whole, which would otherwise reopen the member to go back a few bytes. Kept only while
    /// it ends where the stream is.
    private var recent: (offset: UInt64, bytes: [UInt8]) = (0, [])

    init(archive: ZipArchive, index: UInt64, size: UInt64, name: String) {
        self.archive = archive
        self.index = index
        self.size = size
        self.name = name
    }

    deinit { if let file { czip_close_entry(file) } }

    func read(_ what: String, at offset: UInt64, count: Int) throws(EntitlementsReadError) -> [UInt8] {
        guard contains(offset, count) else { throw pastTheEnd(what, at: offset, count: count) }
        // Going back into the bytes just read: those come from memory, the rest is read forward.
        if offset < position, offset >= recent.offset, position == recent.offset + UInt64(recent.bytes.count) {
            let kept = Array(recent.bytes[Int(offset - recent.offset)...].prefix(count))
            if kept.count == count { return kept }
            let bytes = kept + (try read(what, at: position, count: count - kept.count))
            if bytes.count <= 4096 { recent = (offset, bytes) }
            return bytes
        }
        if offset < position, let open = file {
            czip_close_entry(open)
            file = nil
        }
        if file == nil {
            file = try archive.open(index, source: name)
            opens += 1
            position = 0
        }
        guard let file else { throw EntitlementsReadError(source: name, reason: "cannot be opened") }
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        while position < offset {
            let wanted = Int(min(UInt64(scratch.count), offset - position))
            try fill(&scratch, count: wanted, from: file, what: what)
        }
        var bytes = [UInt8](repeating: 0, count: count)
        if count > 0 { try fill(&bytes, count: count, from: file, what: what) }
        recent = count <= 4096 ? (offset, bytes) : (0, [])
        return bytes
    }

    /// Reads exactly `count` bytes into the start of `buffer`, advancing the position.
    private func fill(_ buffer: inout [UInt8], count: Int, from file: OpaquePointer, what: String) throws(EntitlementsReadError) {
        var done = 0
        while done < count {
            try archive.checkStopped()
            let got = buffer.withUnsafeMutableBytes { czip_read(file, $0.baseAddress! + done, UInt64(count - done)) }
            guard got >= 0 else {
                throw EntitlementsReadError(source: name, reason: "cannot be decompressed (libzip: \(String(cString: czip_entry_error(file))))")
            }
            guard got > 0 else {
                throw EntitlementsReadError(source: name, reason: "ends after \(position) bytes, before \(what) and the \(size) bytes its zip header declares")
            }
            done += Int(got)
            position += UInt64(got)
        }
    }
}
