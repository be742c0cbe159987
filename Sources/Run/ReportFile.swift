import Audit
import Foundation
import Reporting
#if canImport(Glibc)
import Glibc
#endif

/// A report.json given on the command line (`--baseline FILE`, `merge FILE...`): read bounded, then decoded.
///
/// The path is the user's, but the file may be anything: a FIFO (opening it would wait for a
/// writer forever), `/dev/zero` (reading it never ends), or a file of many gigabytes. Only a
/// regular file of at most `maxBytes` is read; it is opened without blocking, so a FIFO or a
/// device is refused at once with a reason.
public enum ReportFile {
    /// The largest report read: far above a report of 100,000 domains of ordinary files, and
    /// small enough that decoding it stays within the memory of a small machine.
    public static let maxBytes = 512 << 20

    /// Why a file was not read.
    public struct Refusal: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// The bytes of the regular file at `path`, or a refusal saying why not.
    public static func read(_ path: String, maxBytes: Int = maxBytes) -> Result<Data, Refusal> {
        var data = Data()
        let read = read(path, maxBytes: maxBytes, sizeHint: { data.reserveCapacity($0) }) { data.append(contentsOf: $0); return true }
        return read.map { data }
    }

    /// Reads the regular file at `path` as `read(_:maxBytes:)` does, handing it to `take` piece by
    /// piece (of at most 1 MB) rather than whole; `sizeHint` is told its size first. Stops early,
    /// without a refusal, when `take` returns false (it has seen enough to refuse the file itself).
    static func read(_ path: String, maxBytes: Int = maxBytes, sizeHint: (Int) -> Void = { _ in },
                     take: (UnsafeRawBufferPointer) -> Bool) -> Result<Void, Refusal> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            return .failure(Refusal(reason: code == ENOENT ? "no such file" : "the file cannot be opened (\(String(cString: strerror(code))))"))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            return .failure(Refusal(reason: "the file cannot be examined (\(String(cString: strerror(errno))))"))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .failure(Refusal(reason: "it is a folder; name its report.json"))
        default: return .failure(Refusal(reason: "it is not a regular file (a pipe, socket or device)"))
        }
        guard Int(info.st_size) <= maxBytes else {
            return .failure(Refusal(reason: "it is \(info.st_size) bytes, more than the \(maxBytes >> 20) MB a report may have"))
        }
        // Read to the end, but never past the limit: the file may grow while it is read.
        sizeHint(Int(info.st_size))
        var total = 0
        let chunk = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, chunk) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(Refusal(reason: "the file cannot be read (\(String(cString: strerror(errno))))"))
            }
            total += count
            if total > maxBytes {
                return .failure(Refusal(reason: "it is more than the \(maxBytes >> 20) MB a report may have"))
            }
            guard buffer.withUnsafeBytes({ take(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }) else { break }
        }
        return .success(())
    }

    /// Why a report file could not be used.
    public enum LoadError: Error, Equatable, CustomStringConvertible {
        /// Not read: missing, not a regular file, too large (see `read`).
        case unreadable(String)
        /// A report.json of a schema this version does not read.
        case unsupportedSchema(String)
        /// Read, but not a report.json; what was wrong and where.
        case notAReport(String)

        /// The reason in words, as the baseline warning says it ("it is not an aasa-audit report.json (...)").
        public var description: String {
            switch self {
            case .unreadable(let reason), .unsupportedSchema(let reason): return reason
            case .notAReport(let detail): return "it is not an aasa-audit report.json (\(detail))"
            }
        }
    }

    /// Reads and decodes the report at `path`, bounded (see `read`).
    public static func load(_ path: String) -> Result<AuditReport, LoadError> {
        let data: Data
        switch read(path) {
        case .success(let bytes): data = bytes
        case .failure(let refusal): return .failure(.unreadable(refusal.reason))
        }
        do {
            return .success(try JSONReporter.decode(data))
        } catch let error as JSONReporter.UnsupportedSchemaVersion {
            return .failure(.unsupportedSchema(error.description))
        } catch let error as StoredBodyMissing {
            return .failure(.notAReport(error.description))
        } catch let error as JSONReporter.BodyTableProblem {
            return .failure(.notAReport(error.description))
        } catch let error as DecodingError {
            return .failure(.notAReport(describe(error)))
        } catch {
            return .failure(.notAReport(error.localizedDescription))
        }
    }

    /// The largest report read one domain at a time (a baseline, the shards of a merge): what bounds
    /// the memory of these is one domain (`maxDomainBytes`), not the file, so a report of a
    /// million domains with whole bodies is read; the limit only stops a file that never ends.
    public static let maxStreamedBytes = 1 << 36
    /// The largest domain of a report read one domain at a time: far above any domain the tool writes
    /// (a few bodies of at most 128 KB, escaped), so memory stays bounded whatever the file holds.
    public static let maxDomainBytes = 64 << 20

    /// Reads the report at `path` as a baseline: one domain at a time, each reduced to what the
    /// comparison needs (`ReportChanges.essentials(of:)`) as soon as it is decoded, so neither the
    /// file nor its evidence is ever held whole. The same report, and the same errors, as `load`
    /// followed by `essentials(of:)`, but for a file of any size up to `maxStreamedBytes`.
    public static func loadEssentials(_ path: String) -> Result<AuditReport, LoadError> {
        var domains: [DomainResult] = []
        return streamed(path, keepingDomains: true) { element in
            domains.append(ReportChanges.essentials(of: try JSONReporter.decodeDomain(element)))
        }.map { shell in ReportChanges.baseline(shell: shell, domains: domains) }
    }

    /// Reads the report at `path` as the run's baseline: its shell (no domains) and what is compared
    /// of each domain (`BaselineDomain`), kept as each is decoded; one domain in memory at a time
    /// besides those, for a file of any size up to `maxStreamedBytes`.
    public static func loadBaseline(_ path: String) -> Result<(AuditReport, [BaselineDomain]), LoadError> {
        var domains: [BaselineDomain] = []
        return streamed(path, keepingDomains: true) { element in
            domains.append(BaselineDomain(try JSONReporter.decodeDomain(element)))
        }.map { shell in (shell, domains) }
    }

    /// The report at `path` without its domains (its `domains` is empty; `summary` as the file has
    /// it), read one piece at a time, the domains skipped: a shard's facts, checked before its
    /// domains are read (`merge`).
    public static func loadShell(_ path: String) -> Result<AuditReport, LoadError> {
        streamed(path, keepingDomains: false) { _ in }
    }

    /// Hands each domain of the report at `path` to `take`, decoded, in file order, with its days
    /// left counted from `generatedAt` (the report's own start, from `loadShell`), as `load` gives
    /// them; one at a time, so a report of any length is read in the memory of one domain.
    /// The bodies the report stores apart (its `bodies`, which comes before `domains`) go to
    /// `takeBody`, by SHA-256, each checked against its key; a domain's locations refer to them by
    /// `bodySHA256` (`LocationResult.bodyIsStoredApart`). A report written before bodies were
    /// stored apart has none, and its domains hold their bodies.
    public static func forEachDomain(_ path: String, generatedAt: Date,
                                     takeBody: (_ sha256: String, _ text: String) throws -> Void = { _, _ in },
                                     take: (DomainResult) throws -> Void) -> Result<Void, LoadError> {
        let decoder = JSONDecoder()
        return streamed(path, keepingDomains: true, takeBody: { key, value in
            let digest = try decoder.decode(String.self, from: key)
            let text = try decoder.decode(String.self, from: value)
            try JSONReporter.BodyTableProblem.check(key: digest, text: text)
            try takeBody(digest, text)
        }) { element in
            var domain = try JSONReporter.decodeDomain(element)
            domain.countDaysLeft(from: generatedAt)
            try take(domain)
        }.map { _ in () }
    }

    /// Reads the report at `path` one piece at a time: each element of its `domains` to `take` (when
    /// `keepingDomains`), then the rest decoded. The first error of `take` is reported at its
    /// domain's place; a report of another schema is named as such, not by a domain it cannot read.
    /// The entries of `bodies` go to `takeBody` (key and value as JSON strings), which comes first in the file.
    private static func streamed(_ path: String, keepingDomains: Bool, takeBody: (Data, Data) throws -> Void = { _, _ in },
                                 take: (Data) throws -> Void) -> Result<AuditReport, LoadError> {
        var splitter = ReportJSONSplitter(keepingElements: keepingDomains, maxElementBytes: maxDomainBytes)
        var failure: (index: Int, error: Error)?
        var bodyFailure: Error?
        var index = 0
        let read = read(path, maxBytes: maxStreamedBytes) { bytes in
            splitter.feed(bytes, take: { element in
                defer { index += 1 }
                guard failure == nil, bodyFailure == nil else { return }
                do {
                    try take(element)
                } catch {
                    failure = (index, error)
                }
            }, takeBody: { key, value in
                guard bodyFailure == nil else { return }
                do {
                    try takeBody(key, value)
                } catch {
                    bodyFailure = error
                }
            })
            return !splitter.isRefused
        }
        if case .failure(let refusal) = read { return .failure(.unreadable(refusal.reason)) }
        if splitter.invalid { return .failure(.notAReport("not valid JSON")) }
        if let oversized = splitter.firstOversized {
            return .failure(.notAReport("domains[\(oversized)] is more than the \(maxDomainBytes >> 20) MB a domain may have"))
        }
        if splitter.oversizedBody {
            return .failure(.notAReport("a body of \"bodies\" is more than the \(maxDomainBytes >> 20) MB a body may have"))
        }
        if splitter.strayBody {
            return .failure(.notAReport("\"bodies\" holds something other than texts by SHA-256"))
        }
        if let bodyFailure {
            if let problem = bodyFailure as? JSONReporter.BodyTableProblem { return .failure(.notAReport(problem.description)) }
            return .failure(.notAReport("\"bodies\" is not valid JSON"))
        }
        if splitter.shellOversized {
            return .failure(.notAReport("what it holds besides its domains is more than the \(maxDomainBytes >> 20) MB a report has"))
        }
        let shell: AuditReport
        do {
            guard splitter.isBalanced else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unbalanced")) }
            shell = try JSONReporter.decode(splitter.shell)
            if let failure { throw failure.error }
            if splitter.stray {
                throw DecodingError.typeMismatch(DomainResult.self, .init(codingPath: [PathKey("domains")], debugDescription: "not an object"))
            }
        } catch let error as JSONReporter.UnsupportedSchemaVersion {
            return .failure(.unsupportedSchema(error.description))
        } catch let error as StoredBodyMissing {
            return .failure(.notAReport(error.description))
        } catch let error as DecodingError {
            let under: [CodingKey] = failure.map { [PathKey("domains"), PathKey(index: $0.index)] } ?? []
            return .failure(.notAReport(describe(error, under: under)))
        } catch {
            return .failure(.notAReport(error.localizedDescription))
        }
        return .success(shell)
    }

    /// A key of a coding path, for errors found in a part of a report decoded on its own.
    struct PathKey: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(_ name: String) { stringValue = name }
        init(index: Int) { stringValue = "\(index)"; intValue = index }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { self.init(index: intValue) }
    }

    /// A DecodingError in one line: what was wrong and where (`missing "tool" at .domains[0]`).
    public static func describe(_ error: DecodingError) -> String {
        describe(error, under: [])
    }

    /// `describe`, for an error in a part of a report decoded on its own at the path `under`.
    static func describe(_ error: DecodingError, under: [CodingKey]) -> String {
        func at(_ path: [CodingKey]) -> String {
            let path = under + path
            return path.isEmpty ? "" : " at " + path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .dataCorrupted(let context):
            // A value out of range, or a date that is not one: said as such, not as broken JSON.
            if let range = context.underlyingError as? ReportValueOutOfRange { return "\(range)\(at(context.codingPath))" }
            if context.debugDescription.localizedCaseInsensitiveContains("date") {
                return "not a date (ISO 8601, as aasa-audit writes)\(at(context.codingPath))"
            }
            return "not valid JSON\(at(context.codingPath))"
        case .keyNotFound(let key, let context): return "missing \"\(key.stringValue)\"\(at(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "unexpected value\(at(context.codingPath))"
        @unknown default: return "\(error)"
        }
    }
}
