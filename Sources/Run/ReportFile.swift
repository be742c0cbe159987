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
        var data = Data()
        data.reserveCapacity(Int(info.st_size))
        let chunk = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, chunk) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(Refusal(reason: "the file cannot be read (\(String(cString: strerror(errno))))"))
            }
            data.append(contentsOf: buffer[0..<count])
            if data.count > maxBytes {
                return .failure(Refusal(reason: "it is more than the \(maxBytes >> 20) MB a report may have"))
            }
        }
        return .success(data)
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

    /// A DecodingError in one line: what was wrong and where (`missing "tool" at .domains[0]`).
    public static func describe(_ error: DecodingError) -> String {
        func at(_ path: [CodingKey]) -> String {
            path.isEmpty ? "" : " at " + path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .dataCorrupted(let context): return "not valid JSON\(at(context.codingPath))"
        case .keyNotFound(let key, let context): return "missing \"\(key.stringValue)\"\(at(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "unexpected value\(at(context.codingPath))"
        @unknown default: return "\(error)"
        }
    }
}
