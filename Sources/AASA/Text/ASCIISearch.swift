/// Whether an ASCII word occurs in a text, compared on the UTF-8 bytes.
///
/// The per-domain checks look for short words in short texts ("sha1" in a signature algorithm,
/// "$(" in a path pattern, ":" in an address). The library's searches cost far more than such a
/// search needs: `String.contains(_:)` with Foundation goes through `NSString` (about 0.5 µs a
/// call here) and `utf8.firstRange(of:)` through a generic searcher (about 4 µs); this plain scan
/// takes about 25 ns. ASCII bytes never occur inside a multi-byte UTF-8 sequence, so a match on
/// the bytes is a match of the characters.
public enum ASCIISearch {
    /// True when `word` (ASCII) occurs in `text`; `ignoringCase`: ASCII letters match either case.
    public static func contains(_ word: StaticString, in text: some StringProtocol, ignoringCase: Bool = false) -> Bool {
        let found = text.utf8.withContiguousStorageIfAvailable { scan(word, in: $0, ignoringCase: ignoringCase) }
        return found ?? Array(text.utf8).withUnsafeBufferPointer { scan(word, in: $0, ignoringCase: ignoringCase) }
    }

    private static func scan(_ word: StaticString, in text: UnsafeBufferPointer<UInt8>, ignoringCase: Bool) -> Bool {
        let count = word.utf8CodeUnitCount
        guard count > 0 else { return true }
        guard count <= text.count else { return false }
        let needle = UnsafeBufferPointer(start: word.utf8Start, count: count)
        func fold(_ byte: UInt8) -> UInt8 {
            ignoringCase && byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
        }
        let first = fold(needle[0])
        for start in 0...(text.count - count) where fold(text[start]) == first {
            var offset = 1
            while offset < count, fold(text[start + offset]) == fold(needle[offset]) { offset += 1 }
            if offset == count { return true }
        }
        return false
    }
}
