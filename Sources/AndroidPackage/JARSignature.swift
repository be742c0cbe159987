import CCMS

/// The v1 (JAR) signature: `META-INF/NAME.RSA`, `.DSA` or `.EC`, each a PKCS #7 SignedData envelope
/// (detached) whose SignerInfo names its signer's certificate, carried in the envelope. Opened with
/// OpenSSL's CMS reader, which reads PKCS #7; the signature itself is not verified here.
enum JARSignature {
    /// Whether a member name is a v1 signature block: directly in META-INF/, ending .RSA, .DSA or .EC
    /// (in any case, as Android's StrictJarFile compares them upper-cased).
    static func isSignatureBlock(_ name: String) -> Bool {
        guard name.hasPrefix("META-INF/") else { return false }
        let file = name.dropFirst("META-INF/".count)
        guard !file.isEmpty, !file.contains("/") else { return false }
        let upper = file.uppercased()
        return upper.hasSuffix(".RSA") || upper.hasSuffix(".DSA") || upper.hasSuffix(".EC")
    }

    /// The signers of the signature blocks in `archive`, empty when there are none.
    static func signers(in archive: APKArchive, limits: APKReadLimits) throws(APKReadError) -> [APKSigning.Signer] {
        let blocks = archive.names.filter(isSignatureBlock).sorted()
        guard blocks.count <= limits.jarSignatureFiles else {
            throw APKReadError(source: archive.path, code: .overLimit, reason: "has \(blocks.count) v1 signature files in META-INF/, more than \(limits.jarSignatureFiles)")
        }
        var signers: [APKSigning.Signer] = []
        for name in blocks {
            let bytes = try archive.read(name, limit: limits.jarSignatureBytes, what: "a v1 signature file")
            signers += try Self.signers(inEnvelope: bytes, source: archive.source(of: name))
        }
        return signers
    }

    /// The signers of one PKCS #7 envelope, each with its own certificate.
    static func signers(inEnvelope bytes: [UInt8], source: String) throws(APKReadError) -> [APKSigning.Signer] {
        func fail(_ reason: String) -> APKReadError { APKReadError(source: source, code: .malformedJARSignature, reason: reason) }
        ERR_clear_error()
        defer { ERR_clear_error() }
        guard let cms = bytes.withUnsafeBufferPointer({ ccms_read($0.baseAddress, $0.count) }) else {
            throw fail("is not a PKCS #7 signature, as a v1 signature file is")
        }
        defer { CMS_ContentInfo_free(cms) }
        guard OBJ_obj2nid(CMS_get0_type(cms)) == NID_pkcs7_signed else { throw fail("is PKCS #7 but not SignedData") }
        guard let certificates = ccms_certificates(cms) else { throw fail("carries no certificate") }
        defer { ccms_certificates_free(certificates) }
        var signers: [APKSigning.Signer] = []
        for index in 0..<ccms_signer_info_count(cms) {
            guard let info = ccms_signer_info_at(cms, index) else { continue }
            var own: SigningCertificate?
            for position in 0..<ccms_certificates_count(certificates) {
                guard let certificate = ccms_certificate_at(certificates, position), CMS_SignerInfo_cert_cmp(info, certificate) == 0 else { continue }
                own = SigningCertificate.of(certificate)
                break
            }
            guard let own else { throw fail("has signer \(index + 1) whose certificate is not in the envelope") }
            signers.append(APKSigning.Signer(certificates: [own]))
        }
        guard !signers.isEmpty else { throw fail("has no signer") }
        return signers
    }
}
