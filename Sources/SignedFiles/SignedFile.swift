import AASA
import CCMS
import Foundation

/// A CMS (PKCS #7) SignedData file: the format iOS 8 required for apple-app-site-association.
/// OpenSSL reads the signed content (and names the signer) before the pure core sees the bytes; the
/// signature itself is not verified (no iOS that reads unsigned files needs it).
public enum SignedFile {
    /// DER of the OID 1.2.840.113549.1.7.2 (pkcs7-signedData).
    static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]

    /// Bytes above which a file is not handed to OpenSSL: 10 MB is far beyond any AASA file, and the
    /// fetch layer's own size limit is much lower.
    static let maximumBytes = 10 * 1024 * 1024

    /// True when `bytes` start like a CMS SignedData structure: a SEQUENCE whose first element is the
    /// signedData OID. Only the first bytes are read, so a cut-off signed file is still recognised.
    public static func looksSigned(_ bytes: [UInt8]) -> Bool {
        // SEQUENCE, then its length: short form, indefinite (0x80, BER), or long form in 1 to 4 bytes.
        guard bytes.count >= 2, bytes[0] == 0x30 else { return false }
        let start: Int
        switch bytes[1] {
        case 0x00...0x80: start = 2
        case 0x81...0x84: start = 2 + Int(bytes[1] & 0x7F)
        default: return false
        }
        let oid = start + 2
        guard oid + signedDataOID.count <= bytes.count, bytes[start] == 0x06, Int(bytes[start + 1]) == signedDataOID.count else {
            return false
        }
        return Array(bytes[oid..<(oid + signedDataOID.count)]) == signedDataOID
    }

    /// Why the signed content could not be read.
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        /// OpenSSL could not read the structure; the text is its reason (or the part that is wrong).
        case malformed(String)
        /// The signature is detached: no content inside.
        case detached

        /// The reason, to follow "The file looks CMS-signed, but ".
        public var description: String {
            switch self {
            case .malformed(let part): return "the CMS structure is malformed (\(part))"
            case .detached: return "the signature is detached: the file carries no content"
            }
        }
    }

    /// What a signed file holds: the encapsulated content and who signed it.
    public struct Content: Sendable, Equatable {
        /// The encapsulated content (the JSON inside).
        public var bytes: [UInt8]
        /// The subject of the signer's certificate (RFC 2253, as `openssl x509 -subject -nameopt RFC2253`
        /// prints it), when the file carries that certificate.
        public var signer: String?
    }

    /// The encapsulated content of a SignedData file, and its signer.
    public static func content(of bytes: [UInt8]) throws(ReadError) -> Content {
        guard bytes.count <= maximumBytes else { throw .malformed("larger than \(maximumBytes) bytes") }
        ERR_clear_error()
        defer { ERR_clear_error() }
        guard let cms = bytes.withUnsafeBufferPointer({ ccms_read($0.baseAddress, $0.count) }) else {
            throw .malformed(openSSLReason() ?? "ContentInfo")
        }
        defer { CMS_ContentInfo_free(cms) }
        guard OBJ_obj2nid(CMS_get0_type(cms)) == NID_pkcs7_signed else { throw .malformed("not SignedData") }
        guard let slot = CMS_get0_content(cms), let octets = slot.pointee else { throw .detached }
        let count = Int(ASN1_STRING_length(octets))
        guard count >= 0, let start = ASN1_STRING_get0_data(octets) else { throw .malformed("eContent") }
        return Content(bytes: Array(UnsafeBufferPointer(start: start, count: count)), signer: signer(of: cms))
    }

    /// Bytes as served or read from disk, as the pure core reads them: a signed file's content with
    /// what unwrapping found, anything else as it is.
    public static func open(_ bytes: [UInt8]) -> ServedDocument {
        guard looksSigned(bytes) else { return ServedDocument(json: bytes) }
        do {
            let content = try content(of: bytes)
            return ServedDocument(json: content.bytes, envelope: .cmsSigned(signer: content.signer), fileSize: bytes.count)
        } catch {
            return ServedDocument(json: [], envelope: .unreadableCMS(reason: error.description), fileSize: bytes.count)
        }
    }

    /// `open` for bytes in a `Data` (a fetched body, a file read from disk).
    public static func open(_ data: Data) -> ServedDocument {
        open(Array(data))
    }

    /// The subject of the certificate that matches the first SignerInfo, from the certificates the
    /// file carries; nil when it carries none or none matches.
    static func signer(of cms: OpaquePointer) -> String? {
        guard ccms_signer_info_count(cms) > 0, let info = ccms_signer_info_at(cms, 0),
              let certificates = ccms_certificates(cms) else { return nil }
        defer { ccms_certificates_free(certificates) }
        for index in 0..<ccms_certificates_count(certificates) {
            guard let certificate = ccms_certificate_at(certificates, index),
                  CMS_SignerInfo_cert_cmp(info, certificate) == 0 else { continue }
            return subject(of: certificate)
        }
        return nil
    }

    /// A certificate's subject in RFC 2253 form, UTF-8 kept as UTF-8.
    static func subject(of certificate: OpaquePointer) -> String? {
        guard let name = X509_get_subject_name(certificate), let memory = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(memory) }
        guard ccms_print_name(memory, name) >= 0 else { return nil }
        var data: UnsafeMutablePointer<CChar>?
        let count = ccms_memory_contents(memory, &data)
        guard count > 0, let data else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(count)), as: UTF8.self)
    }

    /// OpenSSL's reason for the first error on this thread's queue, if any.
    static func openSSLReason() -> String? {
        let code = ERR_get_error()
        guard code != 0, let reason = ERR_reason_error_string(code) else { return nil }
        return String(cString: reason)
    }
}
