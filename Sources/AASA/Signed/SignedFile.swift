/// A CMS (PKCS #7) SignedData file: the format iOS 8 required for apple-app-site-association.
/// Reads the signed content so it can be validated like any other document; the signature
/// itself is not verified (no iOS that reads unsigned files needs it).
public enum SignedFile {
    /// DER of the OID 1.2.840.113549.1.7.2 (pkcs7-signedData).
    static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]

    /// True when `bytes` start like a CMS SignedData structure: a SEQUENCE whose first element is the
    /// signedData OID. Only the first bytes are read, so a cut-off signed file is still recognised.
    public static func looksSigned(_ bytes: [UInt8]) -> Bool {
        guard bytes.first == DERElement.sequence, let start = DERElement.contentStart(bytes, at: 0),
              start + 2 + signedDataOID.count <= bytes.count,
              bytes[start] == DERElement.objectIdentifier, Int(bytes[start + 1]) == signedDataOID.count else {
            return false
        }
        return Array(bytes[(start + 2)..<(start + 2 + signedDataOID.count)]) == signedDataOID
    }

    /// Why the signed content could not be read.
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        case detached

        public var description: String {
            switch self {
            case .malformed(let part): return "the CMS structure is malformed (\(part))"
            case .detached: return "the signature is detached: the file carries no content"
            }
        }
    }

    /// The encapsulated content of a SignedData file (the JSON inside).
    public static func content(of bytes: [UInt8]) throws(ReadError) -> [UInt8] {
        // ContentInfo ::= SEQUENCE { contentType OID, content [0] EXPLICIT SignedData }
        guard let contentInfo = DERElement.read(bytes, at: 0), contentInfo.tag == DERElement.sequence,
              let parts = contentInfo.children(in: bytes), parts.count >= 2,
              parts[0].tag == DERElement.objectIdentifier, Array(bytes[parts[0].content]) == signedDataOID else {
            throw .malformed("ContentInfo")
        }
        guard parts[1].tag == DERElement.contextZero, let explicit = parts[1].children(in: bytes), let signedData = explicit.first,
              signedData.tag == DERElement.sequence, let fields = signedData.children(in: bytes), fields.count >= 3 else {
            throw .malformed("SignedData")
        }
        // SignedData ::= SEQUENCE { version, digestAlgorithms SET, encapContentInfo SEQUENCE { eContentType, [0] EXPLICIT OCTET STRING } ... }
        let encapsulated = fields[2]
        guard encapsulated.tag == DERElement.sequence, let inner = encapsulated.children(in: bytes), !inner.isEmpty,
              inner[0].tag == DERElement.objectIdentifier else {
            throw .malformed("EncapsulatedContentInfo")
        }
        guard inner.count >= 2 else { throw .detached }
        guard inner[1].tag == DERElement.contextZero, let wrapped = inner[1].children(in: bytes), let octetString = wrapped.first,
              let content = octetString.octets(in: bytes) else {
            throw .malformed("eContent")
        }
        return content
    }
}
