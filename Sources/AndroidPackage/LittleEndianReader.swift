/// Little-endian integers and slices read from a byte buffer, every read checked against its end:
/// binary XML and the APK Signing Block are little-endian, and every length in them comes from the file.
struct LittleEndianReader {
    let bytes: [UInt8]
    /// Where the next read starts.
    var position: Int
    /// Where reading must stop (exclusive): a chunk's end, not necessarily the buffer's.
    let end: Int

    init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.position = start
        self.end = min(end ?? bytes.count, bytes.count)
    }

    var remaining: Int { max(0, end - position) }

    /// Whether `count` bytes at `offset` lie before `end` (no overflow).
    func contains(_ offset: Int, _ count: Int) -> Bool {
        offset >= 0 && count >= 0 && offset <= end && count <= end - offset
    }

    func u8(at offset: Int) -> UInt8? { contains(offset, 1) ? bytes[offset] : nil }

    func u16(at offset: Int) -> UInt16? {
        guard contains(offset, 2) else { return nil }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    func u32(at offset: Int) -> UInt32? {
        guard contains(offset, 4) else { return nil }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[offset + index]) << (8 * index) }
        return value
    }

    func u64(at offset: Int) -> UInt64? {
        guard contains(offset, 8) else { return nil }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << (8 * index) }
        return value
    }

    mutating func readU32() -> UInt32? {
        guard let value = u32(at: position) else { return nil }
        position += 4
        return value
    }

    mutating func readU64() -> UInt64? {
        guard let value = u64(at: position) else { return nil }
        position += 8
        return value
    }

    /// A reader over the next `count` bytes (its own end), moving past them; nil when they are not all there.
    mutating func slice(_ count: Int) -> LittleEndianReader? {
        guard contains(position, count) else { return nil }
        let part = LittleEndianReader(bytes, from: position, to: position + count)
        position += count
        return part
    }

    /// A reader over the next u32-length-prefixed bytes, moving past them (the APK Signing Block's framing).
    mutating func lengthPrefixed() -> LittleEndianReader? {
        let start = position
        guard let length = readU32(), let count = Int(exactly: length), let part = slice(count) else {
            position = start
            return nil
        }
        return part
    }

    /// The bytes between the position and the end.
    var rest: [UInt8] { Array(bytes[position..<max(position, end)]) }
}
