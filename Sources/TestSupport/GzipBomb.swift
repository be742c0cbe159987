import Foundation

/// A valid gzip file of a few megabytes that inflates to about a gigabyte of zeros, built directly
/// (one fixed-Huffman deflate block of back-references) in well under a second, instead of
/// compressing a gigabyte at test time.
public enum GzipBomb {
    /// The gzip file for `1 + 258 × matches` zero bytes (each match is 13 bits: ~1030:1).
    public static func make(matches: Int = 4_161_600) -> (gzip: Data, inflatedBytes: UInt64) {
        var bits = BitWriter()
        bits.write(1, count: 1)              // BFINAL: the only block
        bits.write(1, count: 2)              // BTYPE 01: fixed Huffman codes
        bits.writeHuffman(0x30, count: 8)    // literal 0x00
        func match() {
            bits.writeHuffman(0xC5, count: 8) // length 258 (symbol 285)
            bits.writeHuffman(0, count: 5)    // distance 1
        }
        // Eight matches are 104 bits, whole bytes: after the first group every group appends the same
        // 13 bytes and leaves the same partial byte, so those bytes are copied instead of re-encoded.
        let groups = matches / 8
        for _ in 0..<min(groups, 2) * 8 { match() }
        if groups > 2 {
            let period = Array(bits.bytes.suffix(13))
            bits.bytes.reserveCapacity(bits.bytes.count + (groups - 2) * 13 + 16)
            for _ in 2..<groups { bits.bytes.append(contentsOf: period) }
        }
        for _ in 0..<matches % 8 { match() }
        bits.writeHuffman(0, count: 7)       // end of block (symbol 256)
        let inflated = 1 + 258 * UInt64(matches)
        var gzip = Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03])
        gzip.append(contentsOf: bits.finished)
        gzip.append(contentsOf: littleEndian(crc32OfZeros(inflated)))
        gzip.append(contentsOf: littleEndian(UInt32(truncatingIfNeeded: inflated)))
        return (gzip, inflated)
    }

    /// CRC-32 (the gzip one) of `count` zero bytes, by squaring the "one zero bit" operator
    /// (the method of zlib's crc32_combine) instead of running over every byte.
    public static func crc32OfZeros(_ count: UInt64) -> UInt32 {
        func times(_ matrix: [UInt32], _ vector: UInt32) -> UInt32 {
            var sum: UInt32 = 0, vector = vector, index = 0
            while vector != 0 {
                if vector & 1 != 0 { sum ^= matrix[index] }
                vector >>= 1
                index += 1
            }
            return sum
        }
        func square(_ matrix: [UInt32]) -> [UInt32] { matrix.map { times(matrix, $0) } }
        var odd = [UInt32](repeating: 0, count: 32)
        odd[0] = 0xEDB8_8320
        for index in 1..<32 { odd[index] = 1 << UInt32(index - 1) }
        var even = square(odd)   // two zero bits
        odd = square(even)       // four zero bits
        var state: UInt32 = 0xFFFF_FFFF
        var remaining = count
        while remaining != 0 {
            even = square(odd)   // one zero byte, then 4, 16 ...
            if remaining & 1 != 0 { state = times(even, state) }
            remaining >>= 1
            if remaining == 0 { break }
            odd = square(even)
            if remaining & 1 != 0 { state = times(odd, state) }
            remaining >>= 1
        }
        return ~state
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    /// Deflate's bit order: fields least-significant bit first, Huffman codes most-significant first.
    private struct BitWriter {
        var bytes: [UInt8] = []
        var current: UInt8 = 0
        var used = 0

        mutating func write(_ value: UInt32, count: Int) {
            for index in 0..<count { push(value >> UInt32(index) & 1 == 1) }
        }

        mutating func writeHuffman(_ code: UInt32, count: Int) {
            for index in stride(from: count - 1, through: 0, by: -1) { push(code >> UInt32(index) & 1 == 1) }
        }

        mutating func push(_ bit: Bool) {
            if bit { current |= 1 << UInt8(used) }
            used += 1
            if used == 8 {
                bytes.append(current)
                current = 0
                used = 0
            }
        }

        /// The bytes so far, the last partial byte included.
        var finished: [UInt8] { used == 0 ? bytes : bytes + [current] }
    }
}
