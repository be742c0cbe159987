import CCurl
@testable import Fetching
import Foundation
import Testing
import TestSupport

/// Every option the tool sets is checked: one libcurl refuses is a typed error naming it, and the
/// transfer it was for fails with that error, before any request is sent.
@Suite struct CurlOptionTests {
    @Test func aRefusedOptionIsATypedErrorNamingIt() throws {
        let easy = try #require(curl_easy_init())
        defer { curl_easy_cleanup(easy) }
        let options = CurlEasyOptions(easy: easy)
        // 999 is no CURL_SSLVERSION_ value: libcurl answers CURLE_BAD_FUNCTION_ARGUMENT.
        #expect(throws: CurlOptionError(option: "CURLOPT_SSLVERSION", code: 43, text: "A libcurl function was given a bad argument")) {
            try options.set(CURLOPT_SSLVERSION, 999)
        }
        #expect(throws: CurlOptionError.self) { try options.set(CURLOPT_LOW_SPEED_LIMIT, -1) }
        // The same options with values libcurl takes.
        try options.set(CURLOPT_SSLVERSION, 0)
        try options.set(CURLOPT_LOW_SPEED_LIMIT, 100)
        try options.set(CURLOPT_USERAGENT, "aasa-audit-tests")
        try options.clear(CURLOPT_CAPATH)
    }

    @Test(arguments: [
        CURLOPT_URL, CURLOPT_ERRORBUFFER, CURLOPT_NOSIGNAL, CURLOPT_FOLLOWLOCATION, CURLOPT_PROTOCOLS_STR, CURLOPT_USERAGENT,
        CURLOPT_ACCEPT_ENCODING, CURLOPT_HTTPHEADER, CURLOPT_CONNECTTIMEOUT_MS, CURLOPT_TIMEOUT_MS, CURLOPT_LOW_SPEED_LIMIT,
        CURLOPT_LOW_SPEED_TIME, CURLOPT_CERTINFO, CURLOPT_CAINFO, CURLOPT_CAPATH, CURLOPT_CONNECT_TO, CURLOPT_RESOLVE,
        CURLOPT_SSL_VERIFYPEER, CURLOPT_SSL_VERIFYHOST, CURLOPT_NOBODY, CURLOPT_WRITEFUNCTION, CURLOPT_WRITEDATA,
        CURLOPT_HEADERFUNCTION, CURLOPT_HEADERDATA, CURLOPT_OPENSOCKETFUNCTION, CURLOPT_OPENSOCKETDATA,
        CURLOPT_PREREQFUNCTION, CURLOPT_PREREQDATA,
    ].map { $0.rawValue })
    func everyOptionTheToolSetsHasItsDocumentedName(raw: UInt32) {
        let name = CurlOptionError.name(of: CURLoption(rawValue: raw))
        #expect(name.hasPrefix("CURLOPT_") && !name.contains(" "), "\(name)")
    }

    @Test func theNamesAreLibcurlsOwn() {
        #expect(CurlOptionError.name(of: CURLOPT_CONNECTTIMEOUT_MS) == "CURLOPT_CONNECTTIMEOUT_MS")
        #expect(CurlOptionError.name(of: CURLOPT_PROTOCOLS_STR) == "CURLOPT_PROTOCOLS_STR")
        #expect(CurlOptionError.name(of: CURLoption(rawValue: 999_999)) == "CURLoption 999999")
        let multi = CurlOptionError(multiOption: "CURLMOPT_MAXCONNECTS", code: CURLM_UNKNOWN_OPTION)
        #expect(multi.code == Int(CURLM_UNKNOWN_OPTION.rawValue) && !multi.text.isEmpty)
        #expect(FetchSetupError.option(multi).description.hasPrefix("libcurl refused the option CURLMOPT_MAXCONNECTS: "))
    }

    /// A value of `FetchOptions` libcurl refuses, named by the option it is set with. (libcurl 7.88
    /// takes negative timeouts; it refuses negative low-speed values and strings over 8,000,000 bytes.)
    enum RefusedValue: String, CaseIterable, Sendable {
        case lowSpeedLimit = "CURLOPT_LOW_SPEED_LIMIT"
        case lowSpeedTime = "CURLOPT_LOW_SPEED_TIME"
        case userAgent = "CURLOPT_USERAGENT"

        func apply(to options: inout FetchOptions) {
            switch self {
            case .lowSpeedLimit: options.lowSpeedLimit = -1
            case .lowSpeedTime: options.lowSpeedTime = -1
            case .userAgent: options.userAgent = String(repeating: "a", count: 8_000_001)
            }
        }
    }

    @Test(arguments: RefusedValue.allCases)
    func aTransferWithARefusedOptionFailsNamingItAndSendsNothing(refused: RefusedValue) throws {
        let option = refused.rawValue
        let server = try RawHTTPServer { _, _ in .respond(Data("HTTP/1.1 204 No Content\r\n\r\n".utf8)) }
        var options = FetchOptions(userAgent: "aasa-audit-tests", totalTimeout: 3)
        refused.apply(to: &options)
        let loop = try TransferLoop(options: options)
        var result: FetchResponse?
        loop.submit(FetchRequest(url: "http://127.0.0.1:\(server.port)/file")) { result = $0 }
        loop.run(until: nil)
        let response = try #require(result)
        let error = try #require(response.error)
        #expect(error.curlCode == 43 && error.kind == .other, "\(error)")
        #expect(error.message == "libcurl refused the option \(option): A libcurl function was given a bad argument (code 43); no request was sent")
        #expect(response.status == nil && response.url == "http://127.0.0.1:\(server.port)/file")
        #expect(server.requestedPaths.isEmpty)
    }

    @Test func aSiteWhoseTransfersAreRefusedIsReportedNotCrashed() throws {
        var options = FetchOptions(userAgent: "aasa-audit-tests", totalTimeout: 3)
        options.lowSpeedTime = -1
        let site = try #require(try SiteFetcher(options: options).fetch(domains: ["a.test"]).first)
        for location in [site.wellKnown, site.root] {
            #expect(location.response.error?.message.hasPrefix("libcurl refused the option CURLOPT_LOW_SPEED_TIME") == true)
        }
    }

    @Test(arguments: [(2.5, 2500), (-1, -1000), (Double.nan, 0), (Double.infinity, 1_000_000_000_000), (-Double.infinity, -1_000_000_000_000)])
    func secondsBecomeMillisecondsWithoutTrapping(seconds: Double, milliseconds: Int) {
        #expect(Transfer.milliseconds(seconds) == milliseconds)
    }
}
