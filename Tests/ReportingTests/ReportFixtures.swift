import Audit
import Foundation

/// A fixed, realistic report for the reporter tests and snapshots. Dates are fixed and whole
/// seconds (the JSON date format has no fractions) so that snapshots are stable and round trips exact.
enum ReportFixtures {
    static let wellKnown = "/.well-known/apple-app-site-association"
    static let root = "/apple-app-site-association"

    static let hostileScript = "<script>alert(1)</script>"
    static let hostileAttribute = "\"onload="
    static let hostileEscape = "\u{1B}[31m"
    static let hostileImage = "<img src=x onerror=alert(2)>"

    /// 2026-11-29T19:00:00Z: when the fixture run started.
    static let generatedAt = date("2026-11-29T19:00:00Z")

    static func date(_ iso: String) -> Date {
        ISO8601DateFormatter().date(from: iso)!
    }

    static let tool = ToolInfo(name: "aasa-audit", version: "0.1.0")

    static let validAASA = """
    {
      "applinks": {
        "details": [
          {
            "appIDs": ["ABQ7KM3X2P.com.exemplo.app"],
            "components": [{ "/": "/orders/*" }]
          }
        ]
      }
    }

    """

    static func json(_ bytes: Int) -> [HeaderField] {
        [
            HeaderField(name: "Content-Type", value: "application/json"),
            HeaderField(name: "Content-Length", value: "\(bytes)"),
            HeaderField(name: "Cache-Control", value: "max-age=3600"),
            HeaderField(name: "Age", value: "120"),
            HeaderField(name: "Server", value: "nginx"),
        ]
    }

    static func goodTLS(for host: String, sans: [String]? = nil) -> TLSConnection {
        TLSConnection(
            version: "TLSv1.3",
            certificate: ServerCertificate(
                subject: "CN=\(host)", issuer: "C=US, O=Let's Encrypt, CN=R11",
                subjectAltNames: sans ?? [host, "www.\(host)"],
                notBefore: date("2026-09-30T19:00:00Z"), notAfter: date("2027-01-28T19:00:00Z")))
    }

    static func notFound(_ host: String) -> LocationResult {
        LocationResult(
            path: root, url: "https://\(host)\(root)", verdict: .fail, httpStatus: 404, contentType: "text/html",
            headers: [HeaderField(name: "Content-Type", value: "text/html"), HeaderField(name: "Content-Length", value: "153")],
            bytes: BodySize(transferred: 153, decoded: 153, limit: 131_072), redirect: nil, tls: goodTLS(for: host),
            timings: TransferTimings(dnsMs: 0, connectMs: 0, tlsMs: 0, firstByteMs: 21.5, totalMs: 22, reusedConnection: true),
            error: nil, body: "<html><body><h1>404 Not Found</h1></body></html>\n",
            findings: [Finding(id: "http.not-found", severity: .error,
                               message: "The server answered HTTP 404 instead of 200.",
                               fix: "Serve the file at this path with status 200.")])
    }

    /// Passes: .well-known serves a valid file; the root location is a 404, which does not matter.
    static let passing = DomainResult(
        domain: "good.example", verdict: .pass, usedLocation: wellKnown, findings: [],
        locations: [
            LocationResult(
                path: wellKnown, url: "https://good.example\(wellKnown)", verdict: .pass, httpStatus: 200,
                contentType: "application/json", headers: json(182),
                bytes: BodySize(transferred: 182, decoded: 182, limit: 131_072), redirect: nil,
                tls: goodTLS(for: "good.example"),
                timings: TransferTimings(dnsMs: 4.2, connectMs: 18.5, tlsMs: 45.25, firstByteMs: 80.5, totalMs: 81),
                error: nil, body: validAASA, findings: []),
            notFound("good.example"),
        ],
        cdn: CDNResult(url: "https://app-site-association.cdn-apple.com/a/v1/good.example", httpStatus: 200,
                       appleOriginFormat: "json", cacheControl: "max-age=21600", age: "5400", matchesOrigin: true),
        crawler: CrawlerResult(userAgent: "AASA-Bot/1.0.0", path: wellKnown, httpStatus: 200, toolHTTPStatus: 200, sameBody: true))

    /// Warns: .well-known is a 404, Apple falls back to the root location.
    static let fallback = DomainResult(
        domain: "fallback.example", verdict: .warn, usedLocation: root,
        findings: [Finding(id: "http.root-only", severity: .warning,
                           message: "Only the root location serves the file; Apple uses it as a fallback, but /.well-known/apple-app-site-association is the documented place.",
                           fix: "Serve the same file at /.well-known/apple-app-site-association."),
                   Finding(id: "cdn.stale", severity: .warning,
                           message: "Apple's CDN serves a different copy of the file for fallback.example than your server does: app IDs on your server but not on the CDN: ABQ7KM3X2P.com.exemplo.app.",
                           fix: "Wait for the CDN to refresh.")],
        locations: [
            {
                var l = notFound("fallback.example")
                l.path = wellKnown
                l.url = "https://fallback.example\(wellKnown)"
                l.timings.reusedConnection = false
                return l
            }(),
            LocationResult(
                path: root, url: "https://fallback.example\(root)", verdict: .pass, httpStatus: 200,
                contentType: "application/json",
                headers: [HeaderField(name: "Content-Type", value: "application/json"),
                          HeaderField(name: "Content-Encoding", value: "gzip")],
                bytes: BodySize(transferred: 120, decoded: 182, limit: 131_072), redirect: nil,
                tls: goodTLS(for: "fallback.example"),
                timings: TransferTimings(firstByteMs: 30, totalMs: 31, reusedConnection: true),
                error: nil, body: validAASA, findings: []),
        ],
        cdn: CDNResult(url: "https://app-site-association.cdn-apple.com/a/v1/fallback.example", httpStatus: 200,
                       appleOriginFormat: "json", cacheControl: "max-age=21600", age: "7200", matchesOrigin: false,
                       differences: ["app IDs on your server but not on the CDN: ABQ7KM3X2P.com.exemplo.app"]),
        crawler: CrawlerResult(userAgent: "AASA-Bot/1.0.0", path: root, httpStatus: 200, toolHTTPStatus: 200, sameBody: true))

    static func expiredLocation(_ path: String) -> LocationResult {
        LocationResult(
            path: path, url: "https://expired.example\(path)", verdict: .fail, httpStatus: nil, contentType: nil,
            headers: [], bytes: BodySize(limit: 131_072), redirect: nil,
            tls: TLSConnection(
                version: "TLSv1.2",
                certificate: ServerCertificate(
                    subject: "CN=expired.example, O=\(hostileScript)",
                    issuer: "CN=Example CA \(hostileEscape)red",
                    subjectAltNames: ["expired.example"],
                    notBefore: date("2026-08-22T19:00:00Z"), notAfter: date("2026-11-20T19:00:00Z")),
                certificateFromProbe: true,
                verificationError: "SSL certificate problem: certificate has expired"),
            timings: TransferTimings(dnsMs: 3, connectMs: 15, tlsMs: 0, firstByteMs: 0, totalMs: 40),
            error: TransferFailure(kind: .tls, curlCode: 60,
                                 message: "SSL certificate problem: certificate has expired"),
            body: nil,
            findings: [Finding(id: "tls.expired", severity: .error,
                               message: "The certificate expired on 2026-11-20, 9 days before this check.",
                               fix: "Renew the certificate and install the full chain.",
                               detail: "curl error 60: SSL certificate problem: certificate has expired")])
    }

    /// Fails: the certificate has expired (facts read by the non-verifying probe).
    static let expired = DomainResult(
        domain: "expired.example", verdict: .fail, usedLocation: nil,
        findings: [Finding(id: "cdn.missing", severity: .error,
                           message: "Apple's CDN has no copy of the file for expired.example: it answers 404 with Apple-Failure-Reason \"SWCERR00101 \(hostileScript)\".",
                           fix: "Fix the origin first.")],
        locations: [expiredLocation(wellKnown), expiredLocation(root)],
        cdn: CDNResult(url: "https://app-site-association.cdn-apple.com/a/v1/expired.example", httpStatus: 404,
                       appleFailureReason: "SWCERR00101 \(hostileScript)", appleFailureDetails: "{\"x\":\"\(hostileAttribute)\(hostileEscape)\"}",
                       appleFrom: "https://expired.example/.well-known/apple-app-site-association", appleTryDirect: "false",
                       cacheControl: "max-age=3600"))

    /// Fails: both locations redirect (Apple follows none). The chain is followed for diagnosis.
    static let redirecting: DomainResult = {
        let target = "https://www.redirect.example\(wellKnown)"
        let hostileTarget = "https://evil.example/\(hostileAttribute)x\(hostileEscape)"
        func location(_ path: String) -> LocationResult {
            LocationResult(
                path: path, url: "https://redirect.example\(path)", verdict: .fail, httpStatus: 301,
                contentType: "text/html",
                headers: [HeaderField(name: "Content-Type", value: "text/html"),
                          HeaderField(name: "Location", value: path == wellKnown ? target : hostileTarget),
                          HeaderField(name: "Content-Length", value: "162")],
                bytes: BodySize(transferred: 162, decoded: 162, limit: 131_072),
                redirect: path == wellKnown
                    ? RedirectChain(
                        location: target,
                        hops: [
                            RedirectHop(url: "https://redirect.example\(path)", status: 301, location: target,
                                        contentType: "text/html", error: nil),
                            RedirectHop(url: target, status: 302, location: "/aasa.json",
                                        contentType: "text/html", error: nil),
                            RedirectHop(url: "https://www.redirect.example/aasa.json", status: 200, location: nil,
                                        contentType: "application/json", error: nil),
                        ],
                        end: "final response", endServesJSONObject: true)
                    : RedirectChain(
                        location: hostileTarget,
                        hops: [
                            RedirectHop(url: "https://redirect.example\(path)", status: 301, location: hostileTarget,
                                        contentType: "text/html", error: nil),
                            RedirectHop(url: hostileTarget, status: nil, location: nil, contentType: nil,
                                        error: "Could not resolve host: evil.example"),
                        ],
                        end: "error: Could not resolve host: evil.example", endServesJSONObject: false),
                tls: goodTLS(for: "redirect.example"),
                timings: TransferTimings(dnsMs: 2, connectMs: 12, tlsMs: 30, firstByteMs: 55, totalMs: 56),
                error: nil,
                body: "<html><head><title>301 Moved Permanently</title></head></html>\n",
                findings: [Finding(id: "redirect.present", severity: .error,
                                   message: "The server answers HTTP 301 and redirects to \(path == wellKnown ? target : hostileTarget); Apple does not follow redirects.",
                                   fix: "Serve the file directly at this URL with status 200.")])
        }
        return DomainResult(domain: "redirect.example", verdict: .fail, usedLocation: nil, findings: [],
                            locations: [location(wellKnown), location(root)])
    }()

    static func dnsLocation(_ path: String) -> LocationResult {
        LocationResult(
            path: path, url: "https://nxdomain.example\(path)", verdict: .fail, httpStatus: nil, contentType: nil,
            headers: [], bytes: BodySize(limit: 131_072), redirect: nil, tls: nil,
            timings: TransferTimings(dnsMs: 12.5, totalMs: 12.5),
            error: TransferFailure(kind: .dns, curlCode: 6, message: "Could not resolve host: nxdomain.example"),
            body: nil,
            findings: [Finding(id: "network.dns", severity: .error,
                               message: "The name nxdomain.example does not resolve.",
                               fix: "Check the DNS records for this domain.",
                               detail: "curl error 6: Could not resolve host: nxdomain.example")])
    }

    /// Fails: the name does not resolve.
    static let dnsFailure = DomainResult(
        domain: "nxdomain.example", verdict: .fail, usedLocation: nil, findings: [],
        locations: [dnsLocation(wellKnown), dnsLocation(root)])

    /// Passes: an internationalised name, with a certificate listing more names than the report shows.
    static let international = DomainResult(
        domain: "xn--bcher-kva.example", unicodeDomain: "bücher.example", verdict: .pass,
        usedLocation: wellKnown, findings: [],
        locations: [
            LocationResult(
                path: wellKnown, url: "https://xn--bcher-kva.example\(wellKnown)", verdict: .pass,
                httpStatus: 200, contentType: "application/json", headers: json(182),
                bytes: BodySize(transferred: 182, decoded: 182, limit: 131_072), redirect: nil,
                tls: goodTLS(for: "xn--bcher-kva.example",
                             sans: (1...25).map { "shop\($0).xn--bcher-kva.example" }),
                timings: TransferTimings(dnsMs: 5, connectMs: 20, tlsMs: 50, firstByteMs: 90, totalMs: 91),
                error: nil, body: validAASA, findings: []),
            notFound("xn--bcher-kva.example"),
        ])

    /// A long served body: more lines than the HTML report shows.
    static let longBody: String = {
        var lines = ["{", "  \"webcredentials\": { \"apps\": [\"\(hostileImage)\"] },", "  \"applinks\": {", "    \"details\": ["]
        for i in 1...340 {
            lines.append("      { \"appIDs\": [\"ABQ7KM3X2P.com.exemplo.app\(i)\"], \"components\": [{ \"/\": \"/p\(i)/*\" }] },")
        }
        lines.append("      { \"appIDs\": [\"\(hostileScript)\"] }")
        lines += ["    ]", "  }", "}"]
        return lines.joined(separator: "\n") + "\n"
    }()

    /// Warns: a hostile server whose strings try to break out of HTML and drive the terminal.
    static let hostile = DomainResult(
        domain: "hostile.example", unicodeDomain: "\(hostileScript)\(hostileEscape).example", verdict: .warn,
        usedLocation: wellKnown, findings: [],
        locations: [
            LocationResult(
                path: wellKnown, url: "https://hostile.example\(wellKnown)?\(hostileAttribute)1", verdict: .warn,
                httpStatus: 200, contentType: "text/plain\(hostileEscape)",
                headers: [
                    HeaderField(name: "Content-Type", value: "text/plain\(hostileEscape)"),
                    HeaderField(name: "Cache-Control", value: "\(hostileAttribute)alert(1) \(hostileScript)"),
                    HeaderField(name: "X-Ignored", value: "not shown"),
                ],
                bytes: BodySize(transferred: longBody.utf8.count, decoded: longBody.utf8.count, limit: 131_072),
                redirect: nil,
                tls: goodTLS(for: "hostile.example", sans: ["hostile.example", "\(hostileAttribute)\(hostileScript)"]),
                timings: TransferTimings(dnsMs: 1, connectMs: 9, tlsMs: 21, firstByteMs: 40, totalMs: 48),
                error: nil, body: longBody,
                findings: [
                    Finding(id: "content-type.unexpected", severity: .warning,
                            message: "The Content-Type is \"text/plain\(hostileEscape)\" \u{1B}]0;pwned\u{07}instead of application/json.\r\nDone\u{9B}2J",
                            fix: "Serve the file with Content-Type: application/json."),
                    Finding(id: "json.duplicate-key", severity: .warning,
                            message: "The key \(hostileScript) appears more than once in the object at /applinks.",
                            pointer: "/applinks/details/340/appIDs/0"),
                ]),
            notFound("hostile.example"),
        ])

    /// Everything together, without a baseline.
    static let current = AuditReport(
        tool: tool, generatedAt: generatedAt, complete: true,
        inputErrors: [
            InputProblem(file: "domains.txt", line: 7, text: "foo bar", reason: "contains a space; one domain per line"),
            InputProblem(file: "domains.txt", line: 9, text: "\(hostileScript)\(hostileEscape)",
                         reason: "not a domain name: \(hostileAttribute) is not allowed"),
        ],
        domains: [passing, fallback, expired, redirecting, dnsFailure, international, hostile])

    /// Where the baseline fixture claims to come from.
    static let baselinePath = "reports/20261115T190000Z/report.json"

    /// An earlier run (2026-11-15): good.example failed (a 404 whose message carries markup),
    /// fallback.example and expired.example passed (its certificate had 5 days left),
    /// retired.example was still listed and bücher.example was not yet.
    static let baseline: AuditReport = {
        var good = passing
        good.verdict = .fail
        good.usedLocation = nil
        good.cdn = nil
        var first = notFound("good.example")
        first.path = wellKnown
        first.url = "https://good.example\(wellKnown)"
        first.findings[0].message = "The server answered HTTP 404 \(hostileScript) instead of 200."
        good.locations[0] = first
        var fallbackThen = passing
        fallbackThen.domain = "fallback.example"
        fallbackThen.cdn = nil
        var expiredThen = passing
        expiredThen.domain = "expired.example"
        expiredThen.cdn = nil
        expiredThen.locations[0].tls?.certificate?.notAfter = date("2026-11-20T19:00:00Z")
        expiredThen.locations[0].tls?.certificate?.daysLeft = 5
        var retired = passing
        retired.domain = "retired.example"
        return AuditReport(tool: tool, generatedAt: date("2026-11-15T19:00:00Z"), complete: true,
                           domains: [good, fallbackThen, expiredThen, redirecting, dnsFailure, hostile, retired])
    }()

    /// Everything together: the report the snapshots are made from, with the changes since `baseline`.
    static let report: AuditReport = {
        var report = current
        report.changes = ReportChanges.between(baseline: baseline, current: current, baselinePath: baselinePath, expiryWarningDays: 30)
        return report
    }()

    /// A short report for the example in docs/report-format.md.
    static let small = AuditReport(
        tool: tool, generatedAt: generatedAt, complete: true,
        inputErrors: [InputProblem(file: "domains.txt", line: 3, text: "foo bar", reason: "contains a space")],
        domains: [passing, dnsFailure])

    /// The baseline of the changes example in docs/report-format.md: nxdomain.example still passed,
    /// retired.example was still listed.
    static let smallBaseline: AuditReport = {
        var before = passing
        before.domain = "nxdomain.example"
        var retired = passing
        retired.domain = "retired.example"
        return AuditReport(tool: tool, generatedAt: date("2026-11-28T19:00:00Z"), domains: [passing, before, retired])
    }()

    /// The `changes` example in docs/report-format.md.
    static let smallChanges = ReportChanges.between(baseline: smallBaseline, current: small,
                                                    baselinePath: "reports/20261128T190000Z/report.json", expiryWarningDays: 30)
}
