import Audit
import Fetching
import Foundation
import Testing

/// Every location check, positive and negative, from plain response values.
@Suite struct LocationCheckTests {
    typealias F = CheckFixtures

    @Test func aGoodResponseHasNoErrorsOrWarnings() {
        #expect(F.ids(F.response()) == [])
        // The modern document is validated: its one info says components need iOS 13.
        #expect(F.allIDs(F.response()) == ["schema.components-only"])
    }

    @Test(arguments: [
        (TransferError.Kind.dns, 6, "Could not resolve host: nope.example", "network.dns", "The name could not be resolved."),
        (.refused, 7, "Failed to connect to example.com port 443: Connection refused", "network.refused", "The connection was refused."),
        (.timeout, 28, "Operation timed out after 2000 milliseconds with 0 bytes received", "network.timeout",
         "No complete answer arrived within the time limit."),
        (.reset, 56, "Recv failure: Connection reset by peer", "network.reset", "The connection broke off before a complete answer arrived."),
        (.other, 1, "Protocol \"ftp\" not supported", "network.error", "The transfer failed."),
    ])
    func networkFailures(kind: TransferError.Kind, code: Int, message: String, id: String, sentence: String) throws {
        let location = F.located(F.response(status: nil, body: "", error: F.failure(kind, code, message), tls: nil))
        let findings = RuleRegistry.locationChecks.flatMap { $0.findings(for: location) }
        #expect(findings.map(\.id) == [id])
        // A plain sentence; curl's own code and text are kept, verbatim, as its technical detail.
        #expect(findings.first?.message == sentence)
        #expect(findings.first?.detail == "curl error \(code): \(message)")
    }

    @Test func aDomainOnlyOnNonPublicAddressesIsAFindingUnlessRouted() throws {
        var response = F.response()
        response.addresses = ["10.0.0.5", "fd00::5"]
        let found = NetworkCheck.findings(for: F.located(response))
        #expect(found.map(\.id) == ["network.private-address"])
        #expect(found.first?.message.contains("10.0.0.5 (a private address (RFC 1918)), fd00::5 (a unique-local IPv6 address") == true,
                "\(found.first?.message ?? "")")
        // One public address among them, a name the user routed, a reused connection: nothing.
        response.addresses = ["10.0.0.5", "17.253.144.10"]
        #expect(NetworkCheck.findings(for: F.located(response)).isEmpty)
        response.addresses = ["127.0.0.1"]
        response.routed = true
        #expect(NetworkCheck.findings(for: F.located(response)).isEmpty)
        response.routed = false
        response.addresses = []
        #expect(NetworkCheck.findings(for: F.located(response)).isEmpty)
        // Before the failure it causes.
        var refused = F.response(status: nil, body: "", error: F.failure(.refused, 7, "Connection refused"), tls: nil)
        refused.addresses = ["127.0.0.1"]
        #expect(NetworkCheck.findings(for: F.located(refused)).map(\.id) == ["network.private-address", "network.refused"])
    }

    /// Through a proxy the address connected to is the proxy's (issue 33): never judged as the
    /// site's, even a loopback or 10/8 one; a tunnel the proxy refused is the proxy's answer, said so.
    @Test func throughAProxyTheAddressIsNotJudgedAndARefusedTunnelSaysSo() throws {
        var response = F.response()
        response.addresses = ["10.0.0.5"]
        #expect(NetworkCheck.findings(for: F.located(response)).map(\.id) == ["network.private-address"])
        response.proxy = ProxyUse(proxy: "http://10.0.0.1:3128", source: .environment("https_proxy"), tunnelStatus: 200)
        #expect(NetworkCheck.findings(for: F.located(response)).isEmpty)
        var refused = F.response(status: nil, body: "", error: F.failure(.reset, 56, "CONNECT tunnel failed, response 503"), tls: nil)
        refused.proxy = ProxyUse(proxy: "http://10.0.0.1:3128", source: .option, tunnelStatus: 503)
        let found = NetworkCheck.findings(for: F.located(refused))
        #expect(found.map(\.id) == ["network.proxy"])
        #expect(found.first?.message.contains("The proxy http://10.0.0.1:3128 (--proxy) answered 503") == true, "\(found.first?.message ?? "")")
        #expect(found.first?.detail == "curl error 56: CONNECT tunnel failed, response 503")
        // Any other failure through the proxy names it.
        var timedOut = F.response(status: nil, body: "", error: F.failure(.timeout, 28, "Operation timed out"), tls: nil)
        timedOut.proxy = ProxyUse(proxy: "http://10.0.0.1:3128", source: .option, tunnelStatus: 200)
        #expect(NetworkCheck.findings(for: F.located(timedOut)).first?.message.contains("through the proxy http://10.0.0.1:3128") == true)
    }

    @Test(arguments: [
        ("SSL certificate problem: certificate has expired", "tls.expired"),
        ("SSL certificate problem: certificate is not yet valid", "tls.not-yet-valid"),
        ("SSL: no alternative certificate subject name matches target host name 'example.com'", "tls.hostname-mismatch"),
        ("SSL certificate problem: self-signed certificate", "tls.self-signed"),
        ("SSL certificate problem: self signed certificate in certificate chain", "tls.self-signed"),
        ("SSL certificate problem: unable to get local issuer certificate", "tls.untrusted"),
        ("OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to example.com:443", "tls.handshake-failed"),
    ])
    func certificateVerificationFailures(message: String, id: String) {
        let response = F.response(status: nil, body: "", error: F.failure(.tls, 60, message),
                                  tls: TLSFacts(certificate: F.certificate(daysLeft: -3), certificateFromProbe: true, verificationError: message))
        #expect(F.ids(response) == [id])
        // curl's words are the technical detail, out of the sentence.
        let finding = CertificateCheck.findings(for: F.located(response)).first
        #expect(finding?.detail == "curl error 60: \(message)")
        #expect(finding?.message.contains("curl") == false, "\(finding?.message ?? "")")
    }

    @Test func expiredCertificateMessageSaysWhen() throws {
        let response = F.response(status: nil, body: "", error: F.failure(.tls, 60, "SSL certificate problem: certificate has expired"),
                                  tls: TLSFacts(certificate: F.certificate(daysLeft: -3)))
        let finding = try #require(CertificateCheck.findings(for: F.located(response)).first)
        #expect(finding.message.contains("3 days ago"))
        #expect(finding.message.contains("CN = example.com"))
    }

    @Test(arguments: [(5.5, 30, true), (29.9, 30, true), (30.5, 30, false), (90, 30, false), (5, 0, false), (5, 7, true)])
    func expiringSoon(daysLeft: Double, threshold: Int, warns: Bool) {
        let response = F.response(tls: TLSFacts(version: "TLSv1.3", certificate: F.certificate(daysLeft: daysLeft)))
        let ids = F.ids(response, settings: AuditSettings(expiryWarningDays: threshold))
        #expect(ids == (warns ? ["tls.expiring-soon"] : []))
    }

    /// Past its end on a connection that succeeded (the run's clock passed it): expired, the one
    /// expiry judgement (`CertificateExpiry`), never "expires in -2 days".
    @Test func aCertificatePastItsEndOnAWorkingConnectionIsExpiredNotExpiring() throws {
        let response = F.response(tls: TLSFacts(version: "TLSv1.3", certificate: F.certificate(daysLeft: -1.5)))
        let findings = CertificateCheck.findings(for: F.located(response))
        #expect(findings.map(\.id) == ["tls.expired"])
        #expect(findings.first?.message.contains("1 day ago") == true)
    }

    @Test(arguments: [(5.9, 5), (1.0, 1), (0.2, 0), (-0.01, -1), (-1.5, -1), (-10.0001, -10), (-400, -400)])
    func daysLeftCountsWholeDaysEitherWay(days: Double, expected: Int) {
        #expect(CertificateCheck.daysLeft(until: F.now + days * 86_400, now: F.now) == expected)
    }

    @Test func expiringSoonSaysHowManyDays() throws {
        let response = F.response(tls: TLSFacts(version: "TLSv1.3", certificate: F.certificate(daysLeft: 5.5)))
        let finding = try #require(CertificateCheck.findings(for: F.located(response)).first)
        #expect(finding.message.contains("expires in 5 days"))
        #expect(finding.severity == .warning)
    }

    @Test(arguments: [("TLSv1", true), ("TLSv1.1", true), ("TLSv1.2", false), ("TLSv1.3", false)])
    func oldProtocol(version: String, warns: Bool) {
        let response = F.response(tls: TLSFacts(version: version, certificate: F.certificate(daysLeft: 90)))
        #expect(F.ids(response) == (warns ? ["tls.old-protocol"] : []))
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func redirectsAreErrorsAndNameTheTarget(status: Int) throws {
        let response = F.response(status: status, contentType: "text/html", body: "<html>moved</html>",
                                  headers: [HTTPHeader(name: "Location", value: "https://www.example.com/.well-known/apple-app-site-association")])
        let ids = F.ids(response)
        #expect(ids == ["redirect.present"])
        let finding = try #require(RedirectCheck.findings(for: F.located(response)).first)
        #expect(finding.message.contains("https://www.example.com/.well-known/apple-app-site-association"))
        #expect(finding.message.contains("\(status)"))
    }

    @Test func redirectToARealFileSaysTheFileExistsThere() throws {
        let response = F.response(status: 301, contentType: nil, body: "",
                                  headers: [HTTPHeader(name: "Location", value: "https://www.example.com/x")])
        let hop = F.response(url: "https://www.example.com/x")
        let finding = try #require(RedirectCheck.findings(for: F.located(response, hops: [hop], end: "final response")).first)
        #expect(finding.message.contains("The file exists at https://www.example.com/x"))
    }

    @Test(arguments: [
        (404, "http.not-found"), (410, "http.not-found"), (403, "http.denied"), (401, "http.denied"),
        (400, "http.client-error"), (429, "http.client-error"), (500, "http.server-error"), (503, "http.server-error"),
        (204, "http.unexpected-status"), (100, "http.unexpected-status"),
    ])
    func statusOtherThan200(status: Int, id: String) {
        #expect(F.ids(F.response(status: status, contentType: "text/html", body: "<h1>nope</h1>")) == [id])
    }

    @Test func slowAnswersWarn() {
        #expect(F.ids(F.response(totalMs: 6200)) == ["http.slow"])
        #expect(F.ids(F.response(totalMs: 4900)) == [])
    }

    @Test(arguments: [
        ("application/json", [String]()),
        ("application/json; charset=utf-8", []),
        ("Application/JSON", []),
        ("application/pkcs7-mime", ["content-type.unexpected"]),
        ("text/plain", ["content-type.unexpected"]),
        ("application/octet-stream", ["content-type.unexpected"]),
    ])
    func contentTypes(type: String, ids: [String]) {
        #expect(F.ids(F.response(contentType: type)) == ids)
    }

    /// The media type read on bytes (ASCII headers) and through String (others) alike.
    @Test(arguments: [
        ("Application/JSON; charset=utf-8", "application/json"), ("  application/json  ", "application/json"),
        ("\tTEXT/Plain\t;x", "text/plain"), ("", ""), (" ; charset=x", ""), (";", ""), ("application/json;", "application/json"),
        ("APPLICATION/PKCS7-MIME", "application/pkcs7-mime"), ("Ápplication/json; x", "ápplication/json"),
        ("\u{A0}application/json\u{A0}", "application/json"), ("a b/C", "a b/c"),
    ])
    func mediaTypes(header: String, media: String) {
        #expect(ContentTypeCheck.mediaType(of: header) == media)
    }

    @Test func missingContentTypeWarns() {
        #expect(F.ids(F.response(contentType: nil)) == ["content-type.missing"])
    }

    @Test func sizeAtTheLimitPassesAndOneByteMoreFails() {
        // The validator measures the body too; the audit reports the size once (SizeCheck's finding).
        let padding = { (count: Int) in
            #"{"applinks":{"details":[{"appIDs":["ABQ7KM3X2P.com.a"],"components":[]}]},"x":""# + String(repeating: "a", count: count) + "\"}"
        }
        let overhead = padding(0).utf8.count
        #expect(F.ids(F.response(body: padding(131_072 - overhead))) == [])
        #expect(F.ids(F.response(body: padding(131_073 - overhead))) == ["size.too-large"])
        #expect(DocumentCheck.findings(for: F.located(F.response(body: padding(131_073 - overhead)))).allSatisfy { $0.id != "size.too-large" })
    }

    @Test func truncatedBodyIsTooLargeAndNotParsed() throws {
        let response = F.response(body: String(repeating: "{", count: 1000), truncated: true)
        #expect(F.ids(response) == ["size.too-large"])
        let finding = try #require(SizeCheck.findings(for: F.located(response)).first)
        #expect(finding.message.contains("larger than 1048576 bytes"))
    }

    @Test func emptyBody() {
        #expect(F.ids(F.response(body: "")) == ["size.empty"])
    }

    @Test(arguments: [
        ("<!doctype html><html><head><title>Shop</title></head><body><div id=\"root\"></div></body></html>", "single-page app"),
        ("\n  <html><body>Please sign in</body></html>", "login page"),
        ("<!DOCTYPE html><title>Just a moment...</title>", "bot-challenge page"),
    ])
    func htmlPagesAreNamed(body: String, words: String) throws {
        let response = F.response(contentType: "text/html", body: body)
        #expect(F.ids(response) == ["content-type.unexpected", "http.html-page"])
        let finding = try #require(DocumentCheck.findings(for: F.located(response)).first)
        #expect(finding.message.contains(words))
    }

    @Test func htmlPageEvenWhenLabelledJSON() {
        #expect(F.ids(F.response(body: "<!doctype html><p>hi</p>")) == ["http.html-page"])
    }

    @Test func invalidJSONSaysWhereAndWhy() throws {
        let response = F.response(body: "{\n  \"applinks\": {\"details\": [],},\n}")
        #expect(F.ids(response) == ["json.syntax"])
        let finding = try #require(DocumentCheck.findings(for: F.located(response)).first)
        #expect(finding.message.contains("line 2"))
        #expect(finding.fix?.lowercased().contains("comma") == true)
    }

    @Test func invalidUTF8() {
        #expect(F.ids(F.bodyResponse(Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]))) == ["json.invalid-utf8"])
    }

    @Test func byteOrderMark() {
        #expect(F.ids(F.bodyResponse(Data([0xEF, 0xBB, 0xBF]) + Data(F.goodJSON.utf8))) == ["json.bom"])
    }

    @Test(arguments: ["[]", "\"applinks\"", "42", "null"])
    func rootNotAnObject(body: String) {
        #expect(F.ids(F.response(body: body)) == ["json.not-object"])
    }

    @Test func duplicateKeysWarnWithPointer() throws {
        let response = F.response(body: #"{"webcredentials":{"apps":[]},"webcredentials":{"apps":[]}}"#)
        let findings = DocumentCheck.findings(for: F.located(response))
        #expect(findings.map(\.id) == ["json.duplicate-key"])
        #expect(findings.first?.message.contains("\"webcredentials\"") == true)
    }

    @Test func unreadableCMSBodyIsAnError() {
        // DER SEQUENCE with the pkcs7-signedData OID, cut short.
        let der = Data([0x30, 0x82, 0x05, 0x00, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02, 0xA0, 0x82])
        #expect(F.allIDs(F.bodyResponse(der, contentType: "application/pkcs7-mime")) == ["content-type.signed", "json.signed-unreadable"])
    }

    @Test func nothingIsCheckedPastANetworkFailure() {
        let response = F.response(status: nil, contentType: nil, body: "", error: F.failure(.timeout, 28, "timed out"), tls: nil, totalMs: 9000)
        #expect(F.ids(response) == ["network.timeout"])
    }
}
