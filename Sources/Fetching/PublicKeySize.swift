/// The size of an elliptic-curve key, read from the certificate's DER: OpenSSL's text through
/// CURLINFO_CERTINFO gives an RSA key's bits ("RSA Public Key") but nothing for an EC key.
enum PublicKeySize {
    /// The named curve of the certificate's subjectPublicKeyInfo, in bits (256 for P-256), or nil
    /// when the key is not EC on a curve named here or the DER cannot be read.
    static func ellipticCurveBits(der: [UInt8]) -> Int? {
        typealias DER = SubjectAltNameDecoder
        // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version?, serial, signature, issuer,
        //   validity, subject, subjectPublicKeyInfo SEQUENCE { algorithm SEQUENCE { oid, parameters }, key } ... } }
        guard let certificate = DER.element(der, at: 0), certificate.tag == 0x30,
              let tbs = DER.element(der, at: certificate.content.lowerBound), tbs.tag == 0x30 else { return nil }
        let fields = DER.children(der, tbs.content)
        let index = fields.first?.tag == 0xA0 ? 6 : 5
        guard fields.count > index, fields[index].tag == 0x30,
              let algorithm = DER.children(der, fields[index].content).first, algorithm.tag == 0x30 else { return nil }
        let parts = DER.children(der, algorithm.content)
        // id-ecPublicKey, 1.2.840.10045.2.1, with a namedCurve OID as its parameters.
        guard parts.count == 2, parts[0].tag == 0x06, Array(der[parts[0].content]) == [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01],
              parts[1].tag == 0x06 else { return nil }
        return curves[Array(der[parts[1].content])]
    }

    /// The named curves' OIDs (DER content bytes) and sizes.
    private static let curves: [[UInt8]: Int] = [
        [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]: 256,  // prime256v1 (P-256)
        [0x2B, 0x81, 0x04, 0x00, 0x22]: 384,                    // secp384r1 (P-384)
        [0x2B, 0x81, 0x04, 0x00, 0x23]: 521,                    // secp521r1 (P-521)
        [0x2B, 0x81, 0x04, 0x00, 0x0A]: 256,                    // secp256k1
    ]
}
