import Foundation

/// Reads the subjectAltName extension straight from a certificate's DER, for when OpenSSL's text
/// (through CURLINFO_CERTINFO) is no list: a name it will not print (a dNSName holding a NUL byte,
/// say) makes it dump the raw extension, "0$..name..other", as one unreadable string.
///
/// Names are shown byte for byte: printable ASCII as is, `\` as `\\`, NUL as `\0` and any other
/// byte as `\xNN`, so "good.test\0.evil.test" reads as what it is.
enum SubjectAltNameDecoder {
    /// The names in curl's form ("name" for dNSName, "IP:..." for iPAddress, "email:", "URI:"), or nil
    /// when the PEM holds no readable certificate or no subjectAltName.
    static func names(pem: String) -> [String]? {
        der(pem: pem).flatMap(names(der:))
    }

    /// The DER bytes of a PEM certificate, or nil when its base64 does not decode.
    /// Read as bytes, not as `Character`s: it runs for every handshake with an EC key (its size is
    /// in the DER), and splitting the text into lines of Characters cost more than the decoding.
    static func der(pem: String) -> [UInt8]? {
        let text = Array(pem.utf8)
        var body: [UInt8] = []
        body.reserveCapacity(text.count)
        var start = 0
        while start < text.count {
            var end = start
            while end < text.count, !(0x0A...0x0D).contains(text[end]) { end += 1 }
            // A line that starts with "-----" (BEGIN, END) is not base64.
            let line = text[start..<end]
            if !line.starts(with: Self.armour) { body.append(contentsOf: line) }
            start = end + 1
        }
        return Data(base64Encoded: Data(body)).map { [UInt8]($0) }
    }

    private static let armour = Array("-----".utf8)

    static func names(der: [UInt8]) -> [String]? {
        // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { ..., [3] EXPLICIT Extensions } ... }
        guard let certificate = element(der, at: 0), certificate.tag == 0x30,
              let tbs = element(der, at: certificate.content.lowerBound), tbs.tag == 0x30 else { return nil }
        for field in children(der, tbs.content) where field.tag == 0xA3 {
            guard let extensions = element(der, at: field.content.lowerBound), extensions.tag == 0x30 else { return nil }
            for item in children(der, extensions.content) where item.tag == 0x30 {
                let parts = children(der, item.content)
                // id-ce-subjectAltName, 2.5.29.17
                guard let oid = parts.first, oid.tag == 0x06, Array(der[oid.content]) == [0x55, 0x1D, 0x11],
                      let value = parts.last, value.tag == 0x04,
                      let names = element(der, at: value.content.lowerBound), names.tag == 0x30 else { continue }
                return children(der, names.content).map { describe(tag: $0.tag, bytes: Array(der[$0.content])) }
            }
        }
        return nil
    }

    private static func describe(tag: UInt8, bytes: [UInt8]) -> String {
        switch tag {
        case 0x82: return escaped(bytes)
        case 0x81: return "email:" + escaped(bytes)
        case 0x86: return "URI:" + escaped(bytes)
        case 0x87 where bytes.count == 4: return "IP:" + bytes.map(String.init).joined(separator: ".")
        case 0x87 where bytes.count == 16:
            return "IP:" + stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
                .joined(separator: ":")
        default: return "name of type [\(tag & 0x1F)]: " + escaped(bytes)
        }
    }

    /// Printable ASCII kept, `\` doubled, NUL as `\0`, every other byte as `\xNN`.
    static func escaped(_ bytes: [UInt8]) -> String {
        var text = ""
        for byte in bytes {
            switch byte {
            case 0: text += "\\0"
            case 0x5C: text += "\\\\"
            case 0x20...0x7E: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return text
    }

    struct Element {
        let tag: UInt8
        let content: Range<Int>
    }

    /// The TLV at `offset` (definite lengths up to 4 bytes), or nil when it runs past the end.
    static func element(_ der: [UInt8], at offset: Int) -> Element? {
        guard offset + 2 <= der.count else { return nil }
        let tag = der[offset]
        var length = Int(der[offset + 1]), start = offset + 2
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard count >= 1, count <= 4, start + count <= der.count else { return nil }
            length = der[start..<start + count].reduce(0) { $0 << 8 | Int($1) }
            start += count
        }
        guard start + length <= der.count else { return nil }
        return Element(tag: tag, content: start..<start + length)
    }

    static func children(_ der: [UInt8], _ range: Range<Int>) -> [Element] {
        var result: [Element] = [], offset = range.lowerBound
        while offset < range.upperBound, let child = element(der, at: offset), child.content.upperBound <= range.upperBound {
            result.append(child)
            offset = child.content.upperBound
        }
        return result
    }
}
