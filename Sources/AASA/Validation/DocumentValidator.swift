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
    /// The subject of the signer's certificate, when the file was signed and carries it.
    public var signer: String?
    /// Why the JSON did not parse, when it did not.
    public var parseError: JSONParseError?

    /// The root object, when there is one.
    public var root: JSONObject? { document?.root }

    /// `findings` with the line and column of what each names (positions in the JSON checked, so in
    /// the signed content for a signed file): see `FindingPlacement`.
    public var placedFindings: [Finding] {
        FindingPlacement.place(findings, in: json, parseError: parseError)
    }
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

    /// The document's root object, as `validate` would read it, without running the checks: for
    /// comparing copies (CDN, crawler) where only the content matters (a signed copy equals the plain one).
    public static func root(of document: ServedDocument) -> JSONObject? {
        if case .unreadableCMS = document.envelope { return nil }
        return (try? JSONParser.parse(document.json))?.root.objectValue
    }

    /// Validates bytes that are meant to be JSON as they are (no envelope): tests, generated documents.
    public static func validate(json bytes: [UInt8]) -> DocumentValidation {
        validate(ServedDocument(json: bytes))
    }

    /// Validates a document: plain JSON, or the JSON unwrapped from a CMS-signed file (see `Envelope`).
    public static func validate(_ document: ServedDocument) -> DocumentValidation {
        // The limit is on the file as served, so a signed file is measured before it was unwrapped.
        var findings = FileSizeCheck.findings(byteCount: document.fileSize)
        var wasSigned = false
        var signer: String?
        switch document.envelope {
        case .none:
            break
        case .cmsSigned(let signedBy):
            wasSigned = true
            signer = signedBy
            let by = signedBy.map { " (signer: \($0))" } ?? ""
            findings.append(JSONCheck.signed.finding("The file is CMS-signed\(by); the JSON inside (\(Counted.noun(document.json.count, "byte"))) was checked."))
        case .unreadableCMS(let reason):
            return DocumentValidation(findings: findings + [JSONCheck.signedUnreadable.finding("The file looks CMS-signed, but \(reason).")],
                                      json: nil, document: nil, wasSigned: true, signer: nil)
        }
        let parsed: JSONDocument
        do {
            parsed = try JSONParser.parse(document.json)
        } catch {
            return DocumentValidation(findings: findings + [JSONCheck.finding(for: error)], json: nil, document: nil,
                                      wasSigned: wasSigned, signer: signer, parseError: error)
        }
        findings += JSONCheck.findings(for: parsed)
        let aasa = AASADocument(json: parsed)
        if let aasa { findings += SchemaRegistry.findings(in: aasa) }
        return DocumentValidation(findings: findings, json: parsed, document: aasa, wasSigned: wasSigned, signer: signer)
    }
}
