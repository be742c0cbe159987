import Foundation

/// An AASA file named on the command line (`validate FILE`, `match --file FILE`), or "-" for
/// standard input, read whole: the validator bounds its own work, so a file of any size is read.
public enum LocalFile {
    /// Why the file was not read.
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        case standardInputFailed
        case directory
        case unreadable

        public var description: String {
            switch self {
            case .standardInputFailed: return "standard input failed"
            case .directory: return "it is a directory"
            case .unreadable: return "no such file, or not readable"
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
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .unreadable }
        guard !isDirectory.boolValue else { throw .directory }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable }
        return data
    }
}
