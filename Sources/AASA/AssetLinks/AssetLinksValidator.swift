import Foundation

/// What validating one assetlinks.json document found.
public struct AssetLinksValidation: Sendable {
    /// Every finding: the JSON ones first, then the statement checks', in document order.
    public var findings: [Finding]
    /// The statement list, when the JSON parsed and its root is an array.
    public var document: AssetLinksDocument?
    /// The parsed JSON, when it parsed.
    public var json: JSONDocument?
    /// Why the JSON did not parse, when it did not.
    public var parseError: JSONParseError?

    /// `findings` with the line and column of what each names (see `FindingPlacement`).
    public var placedFindings: [Finding] {
        FindingPlacement.place(findings, in: json, parseError: parseError)
    }
}

/// Bytes in, findings out: the whole validation of an Android Digital Asset Links statement list.
/// Pure; used by the audit for a served `/.well-known/assetlinks.json` and by `aasa-audit validate`.
///
/// The size limit is Android's verifier's (`AssetLinksFile.maximumSize`, from AOSP's StatementService);
/// the documentation states none.
public enum AssetLinksValidator {
    public static let notArray = Rule("assetlinks.not-array", .error,
        meaning: "The JSON root is not an array; a Digital Asset Links statement list is a JSON array of statements, so Android finds no statement in it.",
        fix: "Wrap the statement in [ ]: the file is one JSON array of statements, [{\"relation\": [...], \"target\": {...}}], several separated by commas.")
    public static let empty = Rule("assetlinks.empty", .warning,
        meaning: "The statement list is an empty array: it grants nothing, so no app is verified for this site.",
        fix: "Add a statement with relation delegate_permission/common.handle_all_urls and the app's android_app target.")

    public static let tooLarge = Rule("assetlinks.too-large", .error,
        meaning: "The file is larger than 1 MiB (1,048,576 bytes), the most Android's App Links verifier reads (AOSP StatementService, HTTP_CONTENT_SIZE_LIMIT_IN_BYTES): Android 6 to 11 stop reading past it, Android 12 and later refuse a response whose Content-Length is larger, and either way no statement of the file counts.",
        fix: "Shrink the file: one statement per app, each fingerprint once, or move statements into included lists (each read with the same limit).")

    /// The rules of the document as a whole; the statement checks' follow.
    static let ownRules = [notArray, empty, tooLarge]

    /// Every rule the validator can report: the JSON rules it shares with the AASA validator, then its own.
    public static var rules: [Rule] {
        ownRules + AssetLinksStatementCheck.rules + SHA256Fingerprint.rules + DynamicRulesCheck.rules
    }

    /// The JSON rules that also apply to this file (reported with their `json.` ids).
    public static var sharedJSONRules: [Rule] {
        [JSONCheck.syntax, JSONCheck.invalidUTF8, JSONCheck.byteOrderMark, JSONCheck.duplicateKey]
    }

    /// True when `bytes` parse as strict JSON with an array at the root: the shape of a statement list
    /// (an AASA file is an object), used by `validate` to tell the two apart.
    public static func looksLikeStatementList(_ bytes: [UInt8]) -> Bool {
        (try? JSONParser.parse(bytes))?.root.arrayValue != nil
    }

    /// Whether `validate` should read a file as a statement list rather than an AASA file: it is named
    /// assetlinks.json (whatever it holds, so a broken one gets the statement-list findings), or its
    /// JSON root is an array (an AASA file is an object).
    public static func isStatementList(fileName: String, bytes: [UInt8]) -> Bool {
        let name = fileName.split(separator: "/").last.map(String.init) ?? fileName
        return name.lowercased() == AssetLinksFile.fileName || looksLikeStatementList(bytes)
    }

    /// The finding for a file of `byteCount` bytes, if it is over Android's limit.
    public static func sizeFindings(byteCount: Int) -> [Finding] {
        guard byteCount > AssetLinksFile.maximumSize else { return [] }
        return [tooLarge.finding("The file is \(byteCount) bytes, \(byteCount - AssetLinksFile.maximumSize) over the \(AssetLinksFile.maximumSize) bytes Android's verifier reads, so Android takes no statement from it.", pointer: "")]
    }

    /// Validates the bytes of an assetlinks.json file.
    public static func validate(_ bytes: [UInt8]) -> AssetLinksValidation {
        let size = sizeFindings(byteCount: bytes.count)
        var validation = parse(bytes)
        validation.findings = size + validation.findings
        return validation
    }

    private static func parse(_ bytes: [UInt8]) -> AssetLinksValidation {
        let parsed: JSONDocument
        do {
            parsed = try JSONParser.parse(bytes)
        } catch {
            return AssetLinksValidation(findings: [JSONCheck.finding(for: error)], document: nil, parseError: error)
        }
        // JSONCheck's own root rule is for AASA (an object); the statement list's is `notArray`.
        var findings = JSONCheck.findings(for: parsed).filter { $0.id != JSONCheck.notObject.id }
        guard let document = AssetLinksDocument(json: parsed) else {
            let type = parsed.root.typeName
            var message = "The JSON root is \(type == "object" ? "an object" : "a \(type)"), not an array of statements."
            if let object = parsed.root.objectValue, object["statements"] != nil {
                message += " It has a \"statements\" key: that is the shape of a Digital Asset Links API response, not of the file Android reads."
            } else if let object = parsed.root.objectValue, object["applinks"] != nil || object["webcredentials"] != nil {
                message += " It looks like an apple-app-site-association file."
            } else if let object = parsed.root.objectValue, object["relation"] != nil || object["target"] != nil {
                // The commonest slip: one statement written without its list.
                message += " It is one statement without the list around it."
            }
            findings.append(notArray.finding(message, pointer: ""))
            return AssetLinksValidation(findings: findings, document: nil, json: parsed)
        }
        if document.statements.isEmpty {
            findings.append(empty.finding("The file is [], an empty statement list.", pointer: ""))
        }
        findings += bounded(AssetLinksStatementCheck.findings(in: document))
        return AssetLinksValidation(findings: findings, document: document, json: parsed)
    }

    /// At most this many findings of one rule per document; one more finding says how many were left out.
    static let perRuleLimit = 20

    /// `findings` with each rule's beyond `perRuleLimit` replaced by one count, so a hostile file of
    /// thousands of bad statements gives a report of bounded size.
    static func bounded(_ findings: [Finding]) -> [Finding] {
        var seen: [String: Int] = [:]
        var result: [Finding] = []
        var omitted: [(finding: Finding, count: Int)] = []
        for finding in findings {
            let count = seen[finding.id, default: 0] + 1
            seen[finding.id] = count
            if count <= perRuleLimit {
                result.append(finding)
            } else if let at = omitted.firstIndex(where: { $0.finding.id == finding.id }) {
                omitted[at].count += 1
            } else {
                omitted.append((finding, 1))
            }
        }
        for (finding, count) in omitted {
            var summary = finding
            summary.message = "\(count) more \(finding.id) finding\(count == 1 ? " is" : "s are") not listed."
            summary.pointer = nil
            result.append(summary)
        }
        return result
    }
}
