import Foundation

/// Binary property lists written byte by byte, for the shared-reference expansion cases: an
/// object stored once and referred to many times is decoded once per reference.
public enum SharedReferencePropertyList {
    /// `{"key": A1}` where each of `levels` arrays holds `count` references to the next one and the
    /// last holds `count` references to one string: `count`^`levels` strings when decoded.
    /// Three levels of 130 make a 477-byte file of 2.2 million strings.
    public static func nested(count: Int, levels: Int = 3, key: String = "CFBundleExecutable", leaf: String = "x") -> Data {
        precondition(count > 0 && count < 65_536 && levels > 0 && levels < 200)
        var objects: [[UInt8]] = []
        // 0: the top dictionary, 1: its key, 2 … levels + 1: the arrays, then the string.
        objects.append([0xD1, 1, 2])
        objects.append(ascii(key))
        for level in 0..<levels {
            // Array `level` is object level + 2; it refers to the next object, the last one to the string.
            objects.append(marker(0xA, count: count) + [UInt8](repeating: UInt8(level + 3), count: count))
        }
        objects.append(ascii(leaf))
        return write(objects, top: 0)
    }

    /// A file whose one array refers to itself (a cycle).
    public static func cycle() -> Data {
        write([[0xD1, 1, 2], ascii("k"), [0xA1, 2]], top: 0)
    }

    /// The objects (each already encoded, references one byte) as a `bplist00` file.
    public static func write(_ objects: [[UInt8]], top: Int) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let tableOffset = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8 & 0xFF), UInt8(offset & 0xFF)] }
        bytes += [0, 0, 0, 0, 0, 0, 2, 1]
        bytes += bigEndian(UInt64(objects.count)) + bigEndian(UInt64(top)) + bigEndian(UInt64(tableOffset))
        return Data(bytes)
    }

    static func ascii(_ text: String) -> [UInt8] { marker(0x5, count: text.utf8.count) + Array(text.utf8) }

    static func marker(_ kind: UInt8, count: Int) -> [UInt8] {
        if count < 15 { return [kind << 4 | UInt8(count)] }
        if count < 256 { return [kind << 4 | 0xF, 0x10, UInt8(count)] }
        return [kind << 4 | 0xF, 0x11, UInt8(count >> 8), UInt8(count & 0xFF)]
    }

    static func bigEndian(_ value: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8(value >> (UInt64($0) * 8) & 0xFF) } }
}
