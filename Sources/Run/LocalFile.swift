import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An AASA file named on the command line (`validate FILE`, `match --file FILE`), or "-" for
/// standard input, read whole: the validator bounds its own work, so a file of any size is read.
public enum LocalFile {
    /// Why the file was not read.
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        case standardInputFailed
        /// The reason in words: the system's ("No such file or directory", "Permission denied"),
        /// or what the path is instead of a regular file ("it is a folder, not a file").
        case unusable(String)

        public var description: String {
            switch self {
            case .standardInputFailed: return "standard input failed"
            case .unusable(let reason): return reason
            }
        }
    }

    /// The bytes of `path` ("-": standard input, to its end).
    public static func read(_ path: String) throws(ReadError) -> Data {
        if path == "-" {
            // readToEnd() gives nil for an empty input: an empty file, not a failure.
            let data: Data?
            do {
                data = try FileHandle.standardInput.readToEnd()
            } catch {
                throw .standardInputFailed
            }
            return data ?? Data()
        }
        // Judged before it is opened: a FIFO would wait for a writer, a device might never end.
        if let problem = FileKind.problemReading(path) {
            var info = stat()
            let isPipe = stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO
            throw .unusable(isPipe ? problem + " (give its content on standard input as -)" : problem)
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unusable((error as NSError).localizedDescription)
        }
    }
}
