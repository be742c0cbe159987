import CZip
import Foundation

/// Writes a zip at test time with libzip (through `CZip`), the way an `.ipa` is made: no external program.
public enum ZipArchiveWriter {
    /// One member of an archive to write.
    public struct Entry: Sendable {
        /// Its name in the archive (`Payload/App.app/Info.plist`); a name ending in `/` is a folder.
        public var name: String
        /// Its content (ignored for a folder).
        public var bytes: Data
        /// Stored as it is rather than deflated.
        public var stored: Bool

        /// A member called `name` holding `bytes`.
        public init(_ name: String, _ bytes: Data = Data(), stored: Bool = false) {
            self.name = name
            self.bytes = bytes
            self.stored = stored
        }
    }

    /// Why libzip could not write the archive.
    public struct WriteError: Error, CustomStringConvertible {
        /// What failed, with libzip's message.
        public var description: String
    }

    /// Writes `entries` as a zip at `url` (replacing what is there); a folder listed twice is written once.
    public static func write(_ entries: [Entry], to url: URL) throws {
        var code: Int32 = 0
        guard let archive = czip_create(url.path, &code) else { throw WriteError(description: "libzip cannot create \(url.path) (error \(code))") }
        var folders: Set<String> = []
        for entry in entries {
            let index: Int64
            if entry.name.hasSuffix("/") {
                // Two apps' entries both list Payload/: a folder is added once.
                guard folders.insert(entry.name).inserted else { continue }
                index = czip_add_directory(archive, String(entry.name.dropLast()))
            } else {
                index = entry.bytes.withUnsafeBytes { czip_add_file(archive, entry.name, $0.baseAddress, UInt64($0.count), entry.stored ? 1 : 0) }
            }
            guard index >= 0 else {
                let message = String(cString: czip_archive_error(archive))
                czip_discard(archive)
                throw WriteError(description: "libzip cannot add \(entry.name): \(message)")
            }
        }
        guard czip_commit(archive) == 0 else {
            let message = String(cString: czip_archive_error(archive))
            czip_discard(archive)
            throw WriteError(description: "libzip cannot write \(url.path): \(message)")
        }
    }
}
