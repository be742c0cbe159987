/// One BER/DER element (tag, and where its content lies), read without copying.
/// Enough of X.690 to walk a CMS SignedData: definite and indefinite lengths, constructed strings.
struct DERElement {
    /// The identifier octet (class, constructed bit and a low tag number).
    var tag: UInt8
    /// The element's content octets, within the buffer it was read from.
    var content: Range<Int>
    /// The offset just past the element (past the end-of-contents octets for indefinite lengths).
    var end: Int

    var isConstructed: Bool { tag & 0x20 != 0 }

    static let sequence: UInt8 = 0x30
    static let objectIdentifier: UInt8 = 0x06
    static let octetString: UInt8 = 0x04
    static let constructedOctetString: UInt8 = 0x24
    static let contextZero: UInt8 = 0xA0

    /// Nesting deeper than this is refused (no real CMS file comes close), so hostile input cannot
    /// exhaust the stack.
    static let maximumDepth = 32

    /// Where the content of the element at `offset` starts, reading only its tag and length octets
    /// (the content itself may be cut off).
    static func contentStart(_ bytes: [UInt8], at offset: Int) -> Int? {
        guard offset + 1 < bytes.count else { return nil }
        let first = bytes[offset + 1]
        if first & 0x80 == 0 || first == 0x80 { return offset + 2 }
        let count = Int(first & 0x7F)
        return count <= 4 && offset + 2 + count <= bytes.count ? offset + 2 + count : nil
    }

    /// Reads the element starting at `offset`, or nil when the bytes are not well-formed BER.
    static func read(_ bytes: [UInt8], at offset: Int, depth: Int = 0) -> DERElement? {
        guard depth < maximumDepth, offset < bytes.count else { return nil }
        let tag = bytes[offset]
        // High tag numbers (0x1F) never occur in the CMS structures read here.
        guard tag & 0x1F != 0x1F else { return nil }
        var cursor = offset + 1
        guard cursor < bytes.count else { return nil }
        let first = bytes[cursor]
        cursor += 1
        if first == 0x80 {
            // Indefinite length: children until the end-of-contents octets 00 00.
            guard tag & 0x20 != 0 else { return nil }
            let start = cursor
            while true {
                guard cursor + 1 < bytes.count else { return nil }
                if bytes[cursor] == 0 && bytes[cursor + 1] == 0 {
                    return DERElement(tag: tag, content: start..<cursor, end: cursor + 2)
                }
                guard let child = read(bytes, at: cursor, depth: depth + 1) else { return nil }
                cursor = child.end
            }
        }
        var length = 0
        if first & 0x80 == 0 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard count <= 4, cursor + count <= bytes.count else { return nil }
            for byte in bytes[cursor..<(cursor + count)] { length = length << 8 | Int(byte) }
            cursor += count
        }
        guard length <= bytes.count - cursor else { return nil }
        return DERElement(tag: tag, content: cursor..<(cursor + length), end: cursor + length)
    }

    /// The child elements of a constructed element.
    func children(in bytes: [UInt8], depth: Int = 0) -> [DERElement]? {
        var result: [DERElement] = []
        var cursor = content.lowerBound
        while cursor < content.upperBound {
            guard let child = DERElement.read(bytes, at: cursor, depth: depth + 1), child.end <= content.upperBound else { return nil }
            result.append(child)
            cursor = child.end
        }
        return result
    }

    /// The octets of an OCTET STRING, joining the chunks of a constructed (BER) one.
    func octets(in bytes: [UInt8], depth: Int = 0) -> [UInt8]? {
        if tag == DERElement.octetString { return Array(bytes[content]) }
        guard tag == DERElement.constructedOctetString, depth < DERElement.maximumDepth,
              let parts = children(in: bytes, depth: depth) else { return nil }
        var joined: [UInt8] = []
        for part in parts {
            guard let chunk = part.octets(in: bytes, depth: depth + 1) else { return nil }
            joined += chunk
        }
        return joined
    }
}
