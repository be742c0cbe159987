import Audit
import CCMS
import Foundation

/// The SHA-256 of a `--cacert` file, so a report names the CA it trusted without holding it.
enum CAFileDigest {
    /// Larger than any CA bundle (the system's is under 1 MB): a bigger file gets no digest
    /// rather than being read whole.
    static let maximumBytes = 16 << 20

    /// Lower-case hex of the SHA-256 of the bytes at `path`; nil when it is not a regular file that
    /// can be read, or is larger than `maximumBytes`.
    static func sha256(ofFileAt path: String) -> String? {
        // Judged before it is opened: a FIFO would wait for a writer.
        guard FileKind.problemReading(path) == nil, let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let bytes = try? handle.read(upToCount: maximumBytes + 1) ?? Data(), bytes.count <= maximumBytes else { return nil }
        return BodyDigest.hex(SHA256Digest.of(bytes))
    }
}

/// SHA-256 through OpenSSL (the CCMS shim).
enum SHA256Digest {
    /// The SHA-256 of `bytes` (OpenSSL).
    static func of(_ bytes: Data) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                if let out = output.baseAddress {
                    // An empty file has no base address; OpenSSL takes any pointer for 0 bytes.
                    let base = input.bindMemory(to: UInt8.self).baseAddress ?? UnsafePointer(out)
                    ccms_sha256(base, input.count, out)
                }
            }
        }
        return digest
    }
}
