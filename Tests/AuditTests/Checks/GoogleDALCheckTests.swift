import AASA
import Audit
import Fetching
import Testing

/// Google's Digital Asset Links answer against the statements the origin serves, from plain values.
@Suite struct GoogleDALCheckTests {
    typealias F = CheckFixtures
    static let url = GoogleDAL.listURL(base: GoogleDAL.defaultBase, domain: "example.com")
    static let release = "D2:EA:8B:A3:B0:4B:5C:C0:6A:4B:48:E5:AD:5F:C2:9B:22:4D:63:67:A4:A5:26:1D:22:27:71:49:48:38:A7:0C"
    static let debug = "FA:C6:17:45:DC:09:03:78:6F:B9:ED:E6:2A:96:2B:39:9F:73:48:F0:BB:6F:89:9B:83:32:66:75:91:03:3B:9C"
    static let app = AndroidGrant(packageName: "com.exemplo.app", fingerprint: release)
    static let debugApp = AndroidGrant(packageName: "com.exemplo.app", fingerprint: debug)

    static func answer(_ grants: [AndroidGrant], errors: [String] = [], maxAge: String = "3600s") -> FetchResponse {
        let statements = grants.map {
            #"{"source":{"web":{"site":"https://example.com."}},"relation":"delegate_permission/common.handle_all_urls","target":{"androidApp":{"packageName":"\#($0.packageName)","certificate":{"sha256Fingerprint":"\#($0.sha256)"}}}}"#
        }
        let codes = errors.map { "\"\($0)\"" }.joined(separator: ",")
        return F.response(body: #"{"statements":[\#(statements.joined(separator: ","))],"errorCode":[\#(codes)],"maxAge":"\#(maxAge)","debugString":"see \u001b[31mred"}"#, url: url)
    }

    @Test(arguments: [
        // (answer, the origin's grants, ids, matchesOrigin, text the last message must contain)
        (answer([app]), [app] as [AndroidGrant]?, ["dal.ok"], true as Bool?, "holds for another 1 h (maxAge 3600s)"),
        (answer([app, debugApp]), [app], ["dal.differs"], false, "Google has com.exemplo.app with \(debug), which the origin's file does not list"),
        (answer([]), [app], ["dal.differs"], false, "the origin lists com.exemplo.app with \(release), which Google's answer does not have"),
        (answer([app]), nil, ["dal.differs"], false, "serves no statement list Android reads"),
        (answer([], errors: ["ERROR_CODE_WRONG_CONTENT_TYPE"]), [app], ["dal.error", "dal.differs"], false, "which Google's answer does not have"),
        (answer([app], errors: ["ERROR_CODE_SOMETHING_NEW"], maxAge: "soon"), [app], ["dal.error"], true, "ERROR_CODE_SOMETHING_NEW"),
        (F.response(status: 503, body: "busy", url: url), [app], ["dal.unreachable"], nil, "answered HTTP 503"),
        (F.response(body: "<html>", url: url), [app], ["dal.unreachable"], nil, "is not JSON"),
        (F.response(body: "[]", url: url), [app], ["dal.unreachable"], nil, "is not a JSON object"),
        (F.response(body: "{}", truncated: true, url: url), [app], ["dal.unreachable"], nil, "larger than the byte limit"),
        (F.response(status: nil, contentType: nil, body: "", error: F.failure(.dns, 6, "Could not resolve host: digitalassetlinks.googleapis.com"), tls: nil, url: url),
         [app], ["dal.unreachable"], nil, "not the site"),
    ] as [(FetchResponse, [AndroidGrant]?, [String], Bool?, String)])
    func comparesGooglesViewWithTheOrigin(_ response: FetchResponse, _ origin: [AndroidGrant]?, _ ids: [String], _ matches: Bool?, _ text: String) throws {
        let (result, findings) = GoogleDALCheck.check(answer: response, domain: "example.com", origin: origin)
        #expect(findings.map(\.id) == ids)
        #expect(result.matchesOrigin == matches)
        #expect(result.url == Self.url)
        let last = try #require(findings.last)
        #expect(last.message.contains(text), "\(last.message)")
        #expect(last.check == GoogleDALCheck.id)
    }

    @Test func errorCodesAreNamedWithTheirMeaningAndMaxAgeIsKept() throws {
        let (result, findings) = GoogleDALCheck.check(answer: Self.answer([], errors: ["ERROR_CODE_FETCH_ERROR", "ERROR_CODE_REDIRECT"], maxAge: "86400s"),
                                                      domain: "example.com", origin: [])
        let error = try #require(findings.first)
        #expect(error.id == "dal.error" && error.severity == .warning)
        #expect(error.message.contains("ERROR_CODE_FETCH_ERROR (Google could not fetch"), "\(error.message)")
        #expect(error.message.contains("ERROR_CODE_REDIRECT (the site answered with a redirect"))
        #expect(error.message.contains("holds for another 24 h (maxAge 86400s)"))
        #expect(result.errorCodes == ["ERROR_CODE_FETCH_ERROR", "ERROR_CODE_REDIRECT"])
        #expect(result.maxAge == "86400s" && result.maxAgeSeconds == 86400)
        #expect(result.grants == [] && result.onlyAtGoogle == nil && result.onlyAtOrigin == nil)
        #expect(findings.count == 1, "the same (empty) statements on both sides differ in nothing")
    }

    /// In the audit: the origin's grants are the file's with those of the lists it includes that were read.
    @Test func theAuditorStoresGooglesViewInTheAndroidPart() throws {
        let assetLinks = #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.exemplo.app","sha256_cert_fingerprints":["\#(Self.release)"]}}]"#
        var site = SiteFetch(domain: "example.com", wellKnown: LocationFetch(response: F.response()), root: LocationFetch(response: F.response()),
                             android: LocationFetch(response: F.response(body: assetLinks, url: "https://example.com/.well-known/assetlinks.json")))
        site.googleDAL = Self.answer([Self.app, Self.debugApp])
        let result = Auditor().audit(site)
        let android = try #require(result.android)
        #expect(android.findings.map(\.id).contains("dal.differs"), "\(android.findings.map(\.id))")
        #expect(android.googleDAL?.onlyAtGoogle == [Self.debugApp])
        #expect(android.verdict == .warn)
        site.googleDAL = nil
        #expect(Auditor().audit(site).android?.googleDAL == nil)
    }
}
