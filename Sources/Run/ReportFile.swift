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
        let read = read(path, maxBytes: maxBytes, sizeHint: { data.reserveCapacity($0) }) { data.append(contentsOf: $0) }
        return read.map { data }
    }

    /// Reads the regular file at `path` as `read(_:maxBytes:)` does, handing it to `take` piece by
    /// piece (of at most 1 MB) rather than whole; `sizeHint` is told its size first.
    static func read(_ path: String, maxBytes: Int = maxBytes, sizeHint: (Int) -> Void = { _ in },
                     take: (UnsafeRawBufferPointer) -> Void) -> Result<Void, Refusal> {
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
            buffer.withUnsafeBytes { take(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
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
        } catch let error as DecodingError {
            return .failure(.notAReport(describe(error)))
        } catch {
            return .failure(.notAReport(error.localizedDescription))
        }
    }

    /// Reads the report at `path` as a baseline: one domain at a time, each reduced to what the
    /// comparison needs (`ReportChanges.essentials(of:)`) as soon as it is decoded, so neither the
    /// file nor its evidence is ever held whole. The same report, and the same errors, as `load`
    /// followed by `essentials(of:)`.
    public static func loadEssentials(_ path: String) -> Result<AuditReport, LoadError> {
        var splitter = ReportJSONSplitter()
        var domains: [DomainResult] = []
        var failure: (index: Int, error: Error)?
        let read = read(path) { bytes in
            splitter.feed(bytes) { element in
                guard failure == nil else { return }
                do {
                    domains.append(ReportChanges.essentials(of: try JSONReporter.decodeDomain(element)))
                } catch {
                    failure = (domains.count, error)
                }
            }
        }
        if case .failure(let refusal) = read { return .failure(.unreadable(refusal.reason)) }
        let shell: AuditReport
        do {
            // The shell first: a report of another schema is named as such, not by a domain it cannot read.
            guard splitter.isBalanced else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unbalanced")) }
            shell = try JSONReporter.decode(splitter.shell)
            if let failure { throw failure.error }
            if splitter.stray {
                throw DecodingError.typeMismatch(DomainResult.self, .init(codingPath: [PathKey("domains")], debugDescription: "not an object"))
            }
        } catch let error as JSONReporter.UnsupportedSchemaVersion {
            return .failure(.unsupportedSchema(error.description))
        } catch let error as DecodingError {
            let under: [CodingKey] = failure.map { [PathKey("domains"), PathKey(index: $0.index)] } ?? []
            return .failure(.notAReport(describe(error, under: under)))
        } catch {
            return .failure(.notAReport(error.localizedDescription))
        }
        return .success(ReportChanges.baseline(shell: shell, domains: domains))
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
