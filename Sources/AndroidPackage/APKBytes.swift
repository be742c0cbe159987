import ByteSources

/// An APK's bytes read at an offset without holding them all (`BoundedByteSource`): the APK
/// Signing Block sits just before the zip's central directory, found from the end of the file.
public typealias APKBytes = any BoundedByteSource<APKReadError>
/// A buffer as APK bytes (tests, fuzzing).
public typealias MemoryAPKBytes = MemoryBytes<APKReadError>
/// A file on disk as APK bytes.
public typealias FileAPKBytes = FileBytes<APKReadError>

extension APKReadError: ByteReadFailure {
    public static func unreadable(source: String, reason: String) -> APKReadError { APKReadError(source: source, code: .unreadable, reason: reason) }
    /// Only the signing block's structures are read at offsets: a read past the end is a malformed block.
    public static func truncated(source: String, reason: String) -> APKReadError {
        APKReadError(source: source, code: .malformedSigningBlock, reason: reason)
    }
}
