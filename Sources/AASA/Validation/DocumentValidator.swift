import Foundation

/// What validating one document found.
public struct DocumentValidation: Sendable {
    /// Every finding: the size first, then the JSON ones, then the schema checks'.
    public var findings: [Finding]
    /// The parsed JSON, when it parsed.
    public var json: JSONDocument?
    /// The document, when the JSON root is an object.
    public var document: AASADocument?
    /// True when the bytes were a CMS-signed file whose content was unwrapped.
    public var wasSigned: Bool

    /// The root object, when there is one.
    public var root: JSONObject? { document?.root }
}

/// Bytes in, findings out: the whole validation of an AASA document. Pure; used by the audit for
/// every served body and by `aasa-audit validate` for local files.
public enum DocumentValidator {
    /// Every rule the validator can report.
    public static var rules: [Rule] { FileSizeCheck.rules + JSONCheck.rules + SchemaRegistry.rules }

    /// True when `data` is strict JSON with an object at the root (a quick look, no schema checks).
    public static func servesObject(_ data: Data) -> Bool {
        (try? JSONParser.parse(data))?.root.objectValue != nil
    }

    /// The document's root object, as `validate` would read it (CMS-signed files unwrapped), without
    /// running the checks: for comparing copies (CDN, crawler) where only the content matters.
    public static func root(of data: Data) -> JSONObject? {
        var bytes = Array(data)
        if SignedFile.looksSigned(bytes) {
            guard let content = try? SignedFile.content(of: bytes) else { return nil }
            bytes = content
        }
        return (try? JSONParser.parse(bytes))?.root.objectValue
    }

    /// Validates a document (plain JSON, or a CMS-signed file holding JSON).
    public static func validate(_ data: Data) -> DocumentValidation {
        validate(Array(data))
    }

    public static func validate(_ bytes: [UInt8]) -> DocumentValidation {
        // The limit is on the file as served, so a signed file is measured before it is unwrapped.
        var findings = FileSizeCheck.findings(byteCount: bytes.count)
        var json = bytes
        var wasSigned = false
        if SignedFile.looksSigned(bytes) {
            do {
                json = try SignedFile.content(of: bytes)
                wasSigned = true
                findings.append(JSONCheck.signed.finding("The file is CMS-signed; the \(json.count) bytes of JSON inside were checked."))
            } catch {
                return DocumentValidation(findings: findings + [JSONCheck.signedUnreadable.finding("The file looks CMS-signed, but \(error.description).")],
                                          json: nil, document: nil, wasSigned: true)
            }
        }
        let parsed: JSONDocument
        do {
            parsed = try JSONParser.parse(json)
        } catch {
            return DocumentValidation(findings: findings + [JSONCheck.finding(for: error)], json: nil, document: nil, wasSigned: wasSigned)
        }
        findings += JSONCheck.findings(for: parsed)
        let document = AASADocument(json: parsed)
        if let document { findings += SchemaRegistry.findings(in: document) }
        return DocumentValidation(findings: findings, json: parsed, document: document, wasSigned: wasSigned)
    }
}
