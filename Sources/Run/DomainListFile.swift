import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a `domains.txt` with limits, before any of it is parsed: a file too big to be a domain list,
/// or one holding a NUL byte (so binary, not text), is refused as a whole with a clear error rather
/// than turned into hundreds of thousands of rejected lines.
public enum DomainListFile {
    /// 16 MiB: half a million domains of 30 characters; a million repeats of one short name fit too.
    public static let maximumBytes = 16 << 20

    /// Why the list was not read.
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        /// Missing, not a regular file, or not readable.
        case unreadable(String)
        case tooLarge(String, bytes: Int)
        case binary(String, line: Int)

        public var description: String {
            switch self {
            case .unreadable(let path):
                return "cannot read the domain list \(path)"
            case .tooLarge(let path, let bytes):
                return "the domain list \(path) is \(bytes) bytes; the limit is \(DomainListFile.maximumBytes) bytes (16 MiB): "
                    + "split it into several runs"
            case .binary(let path, let line):
                return "the domain list \(path) holds a NUL byte on line \(line): it is a binary file, not a list of domains"
            }
        }
    }

    /// The bytes of `path`, at most `maximumBytes` of them; reads no more than that even from a
    /// pipe or a file that grows while it is read.
    public static func read(_ path: String) throws(ReadError) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable(path) }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
        } catch {
            throw .unreadable(path)
        }
        if data.count > maximumBytes {
            var info = stat()
            let size = stat(path, &info) == 0 && info.st_size > data.count ? Int(info.st_size) : data.count
            throw .tooLarge(path, bytes: size)
        }
        if let nul = data.firstIndex(of: 0) {
            let line = data[data.startIndex..<nul].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw .binary(path, line: line)
        }
        return data
    }
}
