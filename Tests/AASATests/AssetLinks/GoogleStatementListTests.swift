import AASA
import Testing

/// Google's `statements:list` answer read from bytes: good answers, error codes, and hostile JSON.
@Suite struct GoogleStatementListTests {
    static let release = "D2:EA:8B:A3:B0:4B:5C:C0:6A:4B:48:E5:AD:5F:C2:9B:22:4D:63:67:A4:A5:26:1D:22:27:71:49:48:38:A7:0C"
    static let relation = "delegate_permission/common.handle_all_urls"

    static func statement(_ package: String, _ fingerprint: String, relation: String = relation) -> String {
        #"{"source":{"web":{"site":"https://example.com."}},"relation":"\#(relation)","target":{"androidApp":{"packageName":"\#(package)","certificate":{"sha256Fingerprint":"\#(fingerprint)"}}}}"#
    }

    @Test(arguments: [
        // (body, grants as "package fingerprint", other statements, error codes, maxAge, seconds)
        (#"{"statements":[\#(statement("com.exemplo.app", release))],"maxAge":"86400s","debugString":"********************* Errors *********************\nNone!"}"#,
         ["com.exemplo.app \(release)"], 0, [String](), "86400s" as String?, 86400 as Int?),
        // A lower-case fingerprint without colons is the same key; a repeat is listed once.
        (#"{"statements":[\#(statement("com.exemplo.app", release.lowercased().replacingOccurrences(of: ":", with: ""))),\#(statement("com.exemplo.app", release))],"maxAge":"3599.5s"}"#,
         ["com.exemplo.app \(release)"], 0, [], "3599.5s", 3599),
        // Another relation and a web target are counted, not compared.
        (#"{"statements":[\#(statement("com.exemplo.app", release, relation: "delegate_permission/common.get_login_creds")),{"relation":"\#(relation)","target":{"web":{"site":"https://example.com."}}}]}"#,
         [], 2, [], nil, nil),
        (#"{"maxAge":"600s","errorCode":["ERROR_CODE_FETCH_ERROR","ERROR_CODE_WRONG_CONTENT_TYPE"],"debugString":"Content type was text/html"}"#,
         [], 0, ["ERROR_CODE_FETCH_ERROR", "ERROR_CODE_WRONG_CONTENT_TYPE"], "600s", 600),
        // Wrong types are left out, never trusted: statements an object, error codes not strings, maxAge a number.
        (#"{"statements":{"0":1},"errorCode":[7,null,"ERROR_CODE_REDIRECT"],"maxAge":86400}"#, [], 0, ["ERROR_CODE_REDIRECT"], nil, nil),
        (#"{"statements":[1,"x",null,[],{"target":{"androidApp":{"packageName":7}}}]}"#, [], 5, [], nil, nil),
        // A Duration with too many digits for an Int, or not a Duration.
        (#"{"maxAge":"99999999999999999999999s"}"#, [], 0, [], "99999999999999999999999s", nil),
        (#"{"maxAge":"-5s"}"#, [], 0, [], "-5s", nil),
        (#"{"maxAge":"1e3s"}"#, [], 0, [], "1e3s", nil),
        (#"{}"#, [], 0, [], nil, nil),
    ] as [(String, [String], Int, [String], String?, Int?)])
    func readsAnAnswer(_ body: String, _ grants: [String], _ others: Int, _ codes: [String], _ maxAge: String?, _ seconds: Int?) throws {
        let list = try GoogleStatementList.read(Array(body.utf8))
        #expect(list.grants.map { "\($0.packageName) \($0.sha256)" } == grants)
        #expect(list.otherStatements == others)
        #expect(list.errorCodes == codes)
        #expect(list.maxAge == maxAge)
        #expect(list.maxAgeSeconds == seconds)
    }

    @Test(arguments: [
        ("<html>Service unavailable</html>", false),
        ("", false),
        (String(repeating: "[", count: 100_000), false),
        (#"{"statements":[] "#, false),
        (#"[{"statements":[]}]"#, true),
        (#""statements""#, true),
    ])
    func refusesWhatIsNotAnAnswer(_ body: String, _ isJSON: Bool) {
        #expect(throws: GoogleStatementList.ReadError.self) { try GoogleStatementList.read(Array(body.utf8)) }
        if isJSON {
            #expect(throws: GoogleStatementList.ReadError.notObject) { try GoogleStatementList.read(Array(body.utf8)) }
        }
    }

    @Test func everyErrorCodeOfTheReferenceHasAMeaning() {
        let codes = ["UNSPECIFIED", "INVALID_QUERY", "FETCH_ERROR", "FAILED_SSL_VALIDATION", "REDIRECT", "TOO_LARGE",
                     "MALFORMED_HTTP_RESPONSE", "WRONG_CONTENT_TYPE", "MALFORMED_CONTENT", "SECURE_ASSET_INCLUDES_INSECURE",
                     "FETCH_BUDGET_EXHAUSTED"]
        for code in codes { #expect(GoogleStatementList.meaning(ofErrorCode: "ERROR_CODE_" + code) != nil, "\(code)") }
        #expect(GoogleStatementList.meaning(ofErrorCode: "ERROR_CODE_NEW") == nil)
    }
}
