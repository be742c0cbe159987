import ByteSources

/// Bytes the Mach-O reader reads at an offset without holding them all (`BoundedByteSource`): a
/// file, a buffer, a zip member (`ZipMemberByteSource`), each failing with an `EntitlementsReadError`.
public typealias ByteSource = any BoundedByteSource<EntitlementsReadError>
/// A buffer in memory as a byte source (tests, fuzzing).
public typealias MemoryByteSource = MemoryBytes<EntitlementsReadError>
/// A file on disk as a byte source.
public typealias FileByteSource = FileBytes<EntitlementsReadError>

extension EntitlementsReadError: ByteReadFailure {
    public static func unreadable(source: String, reason: String) -> EntitlementsReadError { EntitlementsReadError(source: source, reason: reason) }
    public static func truncated(source: String, reason: String) -> EntitlementsReadError { EntitlementsReadError(source: source, reason: reason) }
}
