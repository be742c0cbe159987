import Audit
import Foundation
import Reporting
#if canImport(Glibc)
import Glibc
#endif

/// Why the results spool could not be written or read back.
public struct SpoolError: Error, CustomStringConvertible {
    /// What went wrong, with the domain or offset it concerns.
    public var reason: String
    public var description: String { "the run's results spool: \(reason)" }
}

/// Where each finished domain's result goes during a run, so the run's memory does not grow with
/// the list: the result is encoded as report.json holds it and appended to a temporary file in
/// the output folder; only its digest (`DomainDigest`) and place in the file stay in memory. The
/// reports are then written by reading the results back one at a time (`SpooledResults`).
///
/// The file never has a name in the folder (`O_TMPFILE`), or, where the file system does not
/// offer that, is created under an unpredictable temporary name (`.report.spool.tmp-…`,
/// exclusively, never through a link) and removed at once, kept open: it never appears beside the
/// reports, and nothing of it is left by a run that ends in any way, a crash or `kill -9` included
/// (the system frees its space when the process ends).
///
/// When the run writes report.html, each domain's HTML section is rendered as it is stored
/// (`HTMLReporter.domainSectionBody`, on the audit's worker while the fetch goes on) and stored
/// beside its JSON, so the page copies it after the fetch instead of reading every domain back and
/// rendering it then (`HTMLSectionStore`).
///
/// A record is the JSON of one `DomainResult` as an element of report.json's `domains` holds it
/// (`JSONReporter.encodeDomainElement`) after its length (4 bytes, little-endian), then, when
/// sections are rendered, the section after its length; reading a record back checks the length,
/// so a file cut short (a full disk, a crash in a write) is named with the domain whose record it
/// cut, never read as a different result.
final class ResultSpool: @unchecked Sendable {
    /// Where one body stored apart is (`DomainResult.bodiesApart`): its text's UTF-8 after its length.
    struct BodySlot: Sendable {
        var offset: Int64
        var length: Int32
        /// True once a stored result refers to it (a merge stores its shards' bodies before their
        /// domains, and `--bodies` may leave a domain's out): only these are written to report.json.
        var referenced: Bool
    }

    private let file: SpoolFile
    /// Results are judged against the run's start before they are stored, as `AuditReport` does.
    private let generatedAt: Date
    /// The form of page each domain's HTML section is rendered for and stored with it (none: no section).
    private let htmlSections: HTMLPageForm?
    /// The bodies each result keeps (`--bodies`), applied as it is stored; nil keeps what it holds (a merge).
    private let bodies: BodiesPolicy?
    /// Each distinct body stored, by its SHA-256: stored once however many locations serve it.
    private var bodySlots: [String: BodySlot] = [:]
    /// Guards everything below; appends come from the audit queue, `seal` from the run.
    private let lock = NSLock()
    /// Where the next record goes: the file's length once `pending` is written.
    private var end: Int64 = 0
    /// Records not written yet, which go to the file together once they pass `pendingLimit` (one
    /// write per 64 KB instead of one per domain: a few of a large file, ten of a small one), before a
    /// body is read back, and at the seal.
    private var pending: [UInt8] = []
    /// What the first of `pending`'s records is ("the result of a.test") and how many there are: a
    /// write that fails is named by them.
    private var pendingRecords: (first: String, count: Int) = ("", 0)
    private static let pendingLimit = 64 * 1024
    /// One of each per domain of the list, by its index: where its result is in the file, its
    /// digest, and whether it is stored yet (until then the others are placeholders). Kept as the
    /// arrays the results are handed over in, so sealing a run whose every domain was stored copies
    /// nothing (a list of optional slots, filtered into new arrays, held both at 100,000 domains).
    private var records: [SpooledResults.Record]
    private var digests: [DomainDigest]
    private var stored: [Bool]
    /// What `records` and `digests` hold for a domain not stored yet (no allocation: empty strings).
    private static let unstoredRecord = SpooledResults.Record(offset: 0, length: 0, sectionLength: nil)
    private static let unstoredDigest = DomainDigest(domain: "", unicodeDomain: nil, verdict: .pass, androidVerdict: nil)
    private var sealed = false
    /// What `seal` handed over (the arrays above are then emptied).
    private var handedOver: (results: SpooledResults, stored: [Bool])?
    /// The first result that could not be stored (a full disk): the run then writes no report.
    private var failure: ReportWriteError?
    /// The folder, for messages.
    private let folderPath: String

    /// The folders the spool created for itself (the output folder and its missing parents),
    /// deepest first: `removeCreatedFolders` takes them away again when the run writes no report.
    private let createdFolders: [String]

    /// A spool for `count` domains in `folder` (created when missing, like the reports' folder).
    /// `htmlSections`: render and store each domain's HTML section for a page of that form (when the
    /// run writes report.html), but none for a passing domain of a compact page, which is a line there.
    /// `anonymous`: false skips `O_TMPFILE` (tests of the fallback).
    init(in folder: URL, count: Int, generatedAt: Date, htmlSections: HTMLPageForm? = nil, bodies: BodiesPolicy? = nil, anonymous: Bool = true,
         temporaryName: (String) -> String = AtomicFile.temporaryName(for:)) throws(ReportWriteError) {
        let existing = try ReportOutput.nearestExistingFolder(of: folder.path)
        var created: [String] = []
        var path = folder.path
        while path != existing && !path.isEmpty && path != "/" && path != "." {
            created.append(path)
            path = (path as NSString).deletingLastPathComponent
        }
        createdFolders = created
        try AtomicFile.createFolder(folder)
        let handle = try FolderHandle(opening: folder)
        // A file that never has a name (O_TMPFILE) where the file system allows; else a name
        // removed at once.
        var descriptor: Int32 = anonymous ? Self.openAnonymous(in: handle) : -1
        if descriptor < 0 {
            var name = ""
            for _ in 0..<StagedFiles.attempts {
                name = temporaryName("report.spool")
                descriptor = openat(handle.descriptor, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                if descriptor >= 0 || errno != EEXIST { break }
            }
            guard descriptor >= 0 else {
                let reason = errno == EEXIST ? "\(StagedFiles.attempts) fresh temporary names were all taken" : AtomicFile.describe(errno)
                throw ReportWriteError(path: folder.path, reason: "cannot create the results spool (\(reason))")
            }
            // Gone from the folder at once; the open descriptor keeps the file.
            unlinkat(handle.descriptor, name, 0)
        }
        file = SpoolFile(descriptor: descriptor)
        folderPath = folder.path
        self.generatedAt = generatedAt
        self.htmlSections = htmlSections
        self.bodies = bodies
        records = Array(repeating: Self.unstoredRecord, count: count)
        digests = Array(repeating: Self.unstoredDigest, count: count)
        stored = Array(repeating: false, count: count)
    }

    /// A file in `folder` that has no name (`O_TMPFILE`, Linux 3.11), or -1 where the file system
    /// or the build does not offer it. Glibc's `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`) is a macro
    /// Swift does not import; its value is that of the architectures built here.
    private static func openAnonymous(in folder: FolderHandle) -> Int32 {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
        let temporaryFile: Int32 = 0o20_000_000 | O_DIRECTORY
        return openat(folder.descriptor, ".", temporaryFile | O_RDWR | O_CLOEXEC, 0o600)
        #else
        return -1
        #endif
    }

    /// Removes the folders this spool created, when they are empty (a run that ends without a
    /// report leaves no output folder behind it, as before the fetch); anything in them is left alone.
    func removeCreatedFolders() {
        for folder in createdFolders where rmdir(folder) != 0 { break }
    }

    /// Stores the result of the domain at `index` of the list. After `seal`, or after a failed
    /// write (kept for `seal` to report), nothing more is stored.
    ///
    /// Its bodies are stored apart, once each (`storeBody`), after `--bodies` left out those it does
    /// not keep; a body it refers to without holding (a merge's shard) must have been stored before.
    func append(_ result: DomainResult, at index: Int) {
        var result = result
        result.judge(at: generatedAt)
        let digest = DomainDigest(result)
        let encoded: Data
        do {
            try result.resolveBodies { try storedBody($0) }
            if let bodies { result.keepBodies(bodies) }
            let apart = result.bodiesApart { storeBody($0, $1, referenced: true, of: digest.domain) }
            encoded = try JSONReporter.encodeDomainElement(apart)
        } catch {
            lock.withLock {
                if failure == nil {
                    failure = ReportWriteError(path: folderPath, reason: "cannot encode the result of \(digest.domain) for the run's results spool (\(error))")
                }
            }
            return
        }
        let section = htmlSections.flatMap { form in
            form.hasSection(result.verdict) ? Data(HTMLReporter.domainSectionBody(result, form: form).utf8) : nil
        }
        lock.withLock {
            guard !sealed, failure == nil, stored.indices.contains(index) else { return }
            let offset = hold(encoded, section, as: "the result of \(digest.domain)")
            records[index] = SpooledResults.Record(offset: offset, length: Int32(encoded.count), sectionLength: section.map { Int32($0.count) })
            digests[index] = digest
            stored[index] = true
        }
    }

    /// Adds a record of `field` and `second`, each after its length (4 bytes, little-endian), to
    /// `pending`, and writes `pending` once it passes `pendingLimit`; `what` names the record in a
    /// message (made only for a batch's first). Where the record is in the file. Under `lock`.
    private func hold(_ field: Data, _ second: Data? = nil, as what: @autoclosure () -> String) -> Int64 {
        if pendingRecords.count == 0 { pendingRecords.first = what() }
        pendingRecords.count += 1
        let offset = end
        func put(_ part: Data) {
            withUnsafeBytes(of: UInt32(part.count).littleEndian) { pending.append(contentsOf: $0) }
            pending.append(contentsOf: part)
            end += 4 + Int64(part.count)
        }
        put(field)
        if let second { put(second) }
        if pending.count >= Self.pendingLimit { writePending() }
        return offset
    }

    /// Writes `pending` at the end of the file; a failure is kept for `seal` (nothing more is stored
    /// after it). Under `lock`.
    private func writePending() {
        guard !pending.isEmpty else { return }
        defer {
            pending.removeAll(keepingCapacity: true)
            pendingRecords = ("", 0)
        }
        guard failure == nil else { return }
        if let code = file.write(pending, at: end - Int64(pending.count)) {
            let after = pendingRecords.count > 1 ? " (and the \(pendingRecords.count - 1) stored after it)" : ""
            failure = ReportWriteError(path: folderPath,
                                       reason: "cannot store \(pendingRecords.first)\(after) in the run's results spool (\(AtomicFile.describe(code)))")
        }
    }

    /// Stores the body `text`, known by its SHA-256 `digest`, unless it is stored already;
    /// `referenced`: a stored result refers to it. A write that fails is kept for `seal`.
    /// `owner` names whose body it is in a message.
    func storeBody(_ digest: String, _ text: String, referenced: Bool = false, of owner: String) {
        lock.withLock {
            if bodySlots[digest] != nil {
                if referenced { bodySlots[digest]?.referenced = true }
                return
            }
            guard !sealed, failure == nil else { return }
            let bytes = Data(text.utf8)
            let offset = hold(bytes, as: "the body of \(owner)")
            bodySlots[digest] = BodySlot(offset: offset, length: Int32(bytes.count), referenced: referenced)
        }
    }

    /// True when the body of SHA-256 `digest` is stored.
    func hasBody(_ digest: String) -> Bool {
        lock.withLock { bodySlots[digest] != nil }
    }

    /// The text of the body stored by `digest`; nil when none is.
    func storedBody(_ digest: String) throws -> String? {
        let found = lock.withLock { () -> Result<BodySlot, ReportWriteError>? in
            guard let slot = bodySlots[digest] else { return nil }
            // It may still be in `pending`.
            writePending()
            return failure.map { .failure($0) } ?? .success(slot)
        }
        guard let found else { return nil }
        return try SpooledResults.body(found.get(), digest: digest, in: file)
    }

    /// Stores `result` after every result stored so far: for a spool made with `count: 0` whose
    /// number of results is known only at the end (`merge` reads its shards' domains one at a time).
    func appendNext(_ result: DomainResult) {
        let index = lock.withLock { () -> Int in
            records.append(Self.unstoredRecord)
            digests.append(Self.unstoredDigest)
            stored.append(false)
            return stored.count - 1
        }
        append(result, at: index)
    }

    /// Stops taking results and gives those stored, in list order: the results, and for each
    /// domain of the list whether it was stored. Throws the first write that failed.
    func seal() throws(ReportWriteError) -> (results: SpooledResults, stored: [Bool]) {
        let sealing = lock.withLock { () -> Result<(results: SpooledResults, stored: [Bool]), ReportWriteError> in
            sealed = true
            writePending()
            if let failure { return .failure(failure) }
            if let handedOver { return .success(handedOver) }
            // A sealed spool takes no more: its index goes to the results alone (at 100,000
            // domains a second copy of it is tens of MB); a second seal gives the same results.
            let bodies = bodySlots.filter(\.value.referenced)
            let form = htmlSections ?? .full
            let spooled: SpooledResults
            if stored.allSatisfy({ $0 }) {
                spooled = SpooledResults(file: file, records: records, digests: digests, sectionForm: form, bodies: bodies)
            } else {
                // A run stopped early: the domains stored, in list order.
                let kept = stored.indices.filter { stored[$0] }
                spooled = SpooledResults(file: file, records: kept.map { records[$0] }, digests: kept.map { digests[$0] }, sectionForm: form, bodies: bodies)
            }
            let results = (results: spooled, stored: stored)
            records = []
            digests = []
            stored = []
            handedOver = results
            return .success(results)
        }
        return try sealing.get()
    }
}

/// The open, already unlinked, spool file; closed when the last holder of it goes.
final class SpoolFile: @unchecked Sendable {
    let descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }
    deinit { close(descriptor) }

    /// Writes `bytes` whole at `offset`; the errno of a failure, nil on success.
    func write(_ bytes: [UInt8], at offset: Int64) -> Int32? {
        bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int32? in
            guard let base = raw.baseAddress else { return nil }
            var done = 0
            while done < raw.count {
                let written = pwrite(descriptor, base + done, raw.count - done, off_t(offset) + off_t(done))
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if written == 0 { return EIO }
                done += written
            }
            return nil
        }
    }

    /// Reads up to `count` bytes at `offset` (fewer at the end of the file); the errno of a failure.
    func read(_ count: Int, at offset: Int64) -> Result<Data, SpoolError> {
        var data = Data(count: count)
        var done = 0
        var failure: Int32?
        data.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) in
            guard let base = raw.baseAddress else { return }
            while done < count {
                let got = pread(descriptor, base + done, count - done, off_t(offset) + off_t(done))
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if got == 0 { return }
                done += got
            }
        }
        if let failure { return .failure(SpoolError(reason: "cannot read it back (\(AtomicFile.describe(failure)))")) }
        data.count = done
        return .success(data)
    }
}

/// The results a spool holds, in list order: what the reports are written from, one at a time.
struct SpooledResults: DomainResults, HTMLSectionStore {
    /// Where a domain's record is in the spool file; its digest is in `digests` (one copy of each).
    struct Record: Sendable {
        var offset: Int64
        var length: Int32
        /// The stored HTML section's length, or -1 for none: one per domain of the run, 16 bytes
        /// where an `Int32?` made it 24.
        private var storedSectionLength: Int32
        var sectionLength: Int32? { storedSectionLength < 0 ? nil : storedSectionLength }

        init(offset: Int64, length: Int32, sectionLength: Int32?) {
            self.offset = offset
            self.length = length
            storedSectionLength = sectionLength ?? -1
        }
    }

    let file: SpoolFile
    let records: [Record]
    let digests: [DomainDigest]
    /// The form of page the stored sections were rendered for.
    let storedSectionForm: HTMLPageForm
    /// The bodies the results refer to, by SHA-256.
    let bodies: [String: ResultSpool.BodySlot]

    /// `records[i]` and `digests[i]` are one domain's, in report order.
    init(file: SpoolFile, records: [Record], digests: [DomainDigest], sectionForm: HTMLPageForm, bodies: [String: ResultSpool.BodySlot]) {
        self.file = file
        self.records = records
        self.digests = digests
        storedSectionForm = sectionForm
        self.bodies = bodies
    }

    /// The same results in another order (`merge` sorts its domains by name once all are stored).
    func sorted(by areInIncreasingOrder: (DomainDigest, DomainDigest) -> Bool) -> SpooledResults {
        let order = digests.indices.sorted { areInIncreasingOrder(digests[$0], digests[$1]) }
        return SpooledResults(file: file, records: order.map { records[$0] }, digests: order.map { digests[$0] }, sectionForm: storedSectionForm,
                              bodies: bodies)
    }

    func forEachStoredBody(_ take: (_ sha256: String, _ text: String) throws -> Void) throws {
        for digest in bodies.keys.sorted() {
            guard let slot = bodies[digest] else { continue }
            try take(digest, try Self.body(slot, digest: digest, in: file))
        }
    }

    /// The text of the body at `slot`, checked against its length.
    static func body(_ slot: ResultSpool.BodySlot, digest: String, in file: SpoolFile) throws -> String {
        let expected = Int(slot.length) + 4
        let record: Data
        switch file.read(expected, at: slot.offset) {
        case .success(let data): record = data
        case .failure(let error): throw SpoolError(reason: "the body \(digest): \(error.reason)")
        }
        guard record.count == expected else {
            throw SpoolError(reason: "it ends inside the body \(digest) (\(record.count) of its \(expected) bytes at offset \(slot.offset)): the file was cut short")
        }
        let length = record.prefix(4).enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        guard length == UInt32(slot.length) else {
            throw SpoolError(reason: "the body \(digest) at offset \(slot.offset) is not the one stored there (length \(length), not \(slot.length))")
        }
        return String(decoding: record.dropFirst(4), as: UTF8.self)
    }

    func storedJSON(at position: Int) throws -> Data? {
        let record = records[position]
        return try field(of: position, named: "result", at: record.offset, length: record.length)
    }

    func storedHTMLSection(at position: Int) throws -> String? {
        let record = records[position]
        guard let sectionLength = record.sectionLength else { return nil }
        let bytes = try field(of: position, named: "HTML section", at: record.offset + 4 + Int64(record.length), length: sectionLength)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes of one length-prefixed field of the record at `position`, checked against its length.
    private func field(of position: Int, named name: String, at offset: Int64, length expected: Int32) throws -> Data {
        let domain = digests[position].domain
        let record: Data
        switch file.read(Int(expected) + 4, at: offset) {
        case .success(let data): record = data
        case .failure(let error): throw SpoolError(reason: "the \(name) of \(domain): \(error.reason)")
        }
        guard record.count == Int(expected) + 4 else {
            throw SpoolError(reason: "it ends inside the \(name) of \(domain) (\(record.count) of its \(Int(expected) + 4) bytes "
                                 + "at offset \(offset)): the file was cut short")
        }
        let length = record.prefix(4).enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        guard length == UInt32(expected) else {
            throw SpoolError(reason: "the record of \(domain) at offset \(offset) is not the one stored there (length \(length), not \(expected))")
        }
        return record.dropFirst(4)
    }

    func result(at position: Int) throws -> DomainResult {
        guard let json = try storedJSON(at: position) else { throw SpoolError(reason: "no record") }
        do {
            var result = try JSONReporter.decodeDomain(json)
            try result.resolveBodies { digest in try bodies[digest].map { try Self.body($0, digest: digest, in: file) } }
            return result
        } catch {
            throw SpoolError(reason: "the result of \(digests[position].domain) cannot be read back: \(error)")
        }
    }
}
