import Audit
import Fetching
import Foundation
import Testing
import TestSupport

/// The real binary against servers that attack it (`HostileSites`): each scenario must end in a
/// verdict with the right finding, each transfer within its timeout plus a margin, and the whole
/// hostile suite, run at once by one process, must stay under 200 MB.
@Suite struct HostileServerTests {
    /// The transfer timeout the run uses, and the margin allowed on top of it.
    static let timeout = 3.0
    static let margin = 2.0
    /// Peak memory of the one run covering every hostile host.
    static let memoryLimitKilobytes = 200 * 1024
    /// The whole run: a domain is at most two timed-out transfers in a row (both locations), the
    /// domains run in parallel; the rest is slack for a loaded machine.
    static let runLimitSeconds = 2 * (timeout + margin) + 20

    /// (host, domain verdict, error and warning ids of .well-known, of the root location).
    static let expectations: [(String, Verdict, [String], [String])] = [
        (HostileSites.huge, .fail, ["size.too-large"], ["size.too-large"]),
        (HostileSites.gzipBomb, .fail, ["size.too-large"], ["size.too-large"]),
        (HostileSites.drip, .fail, ["network.timeout"], ["network.timeout"]),
        (HostileSites.hang, .fail, ["network.timeout"], ["network.timeout"]),
        (HostileSites.reset, .fail, ["network.reset"], ["network.reset"]),
        // 100,000 levels are 200,000 bytes: over Apple's size limit as well as the parser's depth limit.
        (HostileSites.deep, .fail, ["size.too-large", "json.syntax"], ["size.too-large", "json.syntax"]),
        (HostileSites.badUTF8, .fail, ["json.invalid-utf8"], ["json.invalid-utf8"]),
        (HostileSites.nul, .fail, ["json.syntax"], ["json.syntax"]),
        (HostileSites.hugeHeaders, .fail, ["network.too-large"], ["network.too-large"]),
        (HostileSites.endless, .fail, ["redirect.present"], ["redirect.present"]),
        (HostileSites.absurdCertificate, .pass, [], []),
        (HostileSites.injection, .fail, ["schema.app-id-format", "schema.app-id-format", "schema.app-id-format"], ["redirect.present"]),
        (HostileSites.endlessTrailers, .fail, ["network.too-large"], ["network.too-large"]),
        (HostileSites.endlessInterim, .fail, ["network.timeout"], ["network.timeout"]),
        (HostileSites.slowHeaders, .fail, ["network.timeout"], ["network.timeout"]),
        (HostileSites.longHeaderLine, .fail, ["network.too-large"], ["network.too-large"]),
        (HostileSites.longLocation, .fail, ["network.too-large"], ["network.too-large"]),
        (HostileSites.overflowingLength, .fail, ["network.too-large"], ["network.too-large"]),
        (HostileSites.privateRedirect, .fail, ["redirect.present"], ["redirect.present"]),
        (HostileSites.endlessHTTP2, .fail, ["network.timeout"], ["network.timeout"]),
    ]

    struct Run: Sendable {
        var result: RunningAudit.Result
        var report: AuditReport
        var directory: URL
    }

    /// One run over every hostile host at once, measured.
    static let run: Result<Run, Error> = Result {
        let sites = try HostileSites.shared.get()
        let out = try AuditBinary.temporaryDirectory()
        let result = try RunningAudit.measure(
            ["--no-cdn", "--cacert", sites.certificateAuthority.certificatePath, "--timeout", "\(timeout)",
             "--connect-timeout", "2", "--out", out.path] + sites.connectToArguments + HostileSites.all,
            limit: 120)
        let report = try AuditBinary.readReport(at: out.appendingPathComponent("report.json"))
        return Run(result: result, report: report, directory: out)
    }

    func domain(_ host: String) throws -> DomainResult {
        try #require(try Self.run.get().report.domains.first { $0.domain == host })
    }

    @Test func everyHostIsCovered() {
        #expect(Set(Self.expectations.map(\.0)) == Set(HostileSites.all))
    }

    @Test(arguments: expectations)
    func scenario(host: String, verdict: Verdict, wellKnownIDs: [String], rootIDs: [String]) throws {
        let result = try domain(host)
        #expect(result.verdict == verdict, "\(host): \(result.allFindings.map(\.id))")
        #expect(result.locations.count == 2)
        let ids = result.locations.map { $0.findings.filter { $0.severity != .info }.map(\.id) }
        #expect(ids.first == wellKnownIDs, "\(host)")
        #expect(ids.last == rootIDs, "\(host)")
        for location in result.locations {
            #expect(location.timings.totalMs <= (Self.timeout + Self.margin) * 1000, "\(host) \(location.path)")
        }
    }

    @Test func theWholeSuiteRunsInBoundedTimeAndMemory() throws {
        let run = try Self.run.get()
        #expect(run.result.outcome.status == 1, "\(run.result.outcome.stderr)")
        #expect(run.report.complete)
        #expect(run.report.summary.domains == HostileSites.all.count)
        #expect(run.result.peakKilobytes > 0)
        #expect(run.result.peakKilobytes < Self.memoryLimitKilobytes, "peak \(run.result.peakKilobytes) KB")
        #expect(run.result.outcome.seconds < Self.runLimitSeconds, "\(run.result.outcome.seconds) s")
    }

    @Test func bodiesAreCutAtTheCapOnDecodedBytes() throws {
        let sites = try HostileSites.shared.get()
        let huge = try domain(HostileSites.huge).locations[0].bytes
        #expect(huge.truncated && huge.decoded == huge.limit && huge.limit == 1 << 20)
        #expect(huge.transferred < HostileSites.hugeBodyBytes / 10, "stopped reading soon after the cap")
        // The bomb: the cap counts inflated bytes, and few compressed bytes were needed to reach it.
        let bomb = try domain(HostileSites.gzipBomb).locations[0]
        #expect(bomb.bytes.truncated && bomb.bytes.decoded == bomb.bytes.limit)
        #expect(bomb.bytes.transferred < 1 << 20)
        #expect(bomb.headers.first { $0.name == "content-encoding" }?.value == "gzip")
        #expect(sites.gzipBombInflatedBytes > 1_000_000_000)
    }

    @Test func failuresKeepCurlsReason() throws {
        let reset = try #require(try domain(HostileSites.reset).locations[0].error)
        #expect(reset.kind == .reset && reset.curlCode == 18)
        let headers = try #require(try domain(HostileSites.hugeHeaders).locations[0].error)
        #expect(headers.kind == .tooLarge && headers.message.contains("more than 256 KB of header lines"), "\(headers.message)")
        let deep = try domain(HostileSites.deep).locations[0].findings.first { $0.id == "json.syntax" }
        #expect(deep?.message.contains("nested deeper than") == true, "\(deep?.message ?? "")")
    }

    @Test func theEndlessRedirectIsFollowedOnlyToTheHopLimit() throws {
        let redirect = try #require(try domain(HostileSites.endless).locations[0].redirect)
        #expect(redirect.end.hasPrefix("hop limit (5)"))
        #expect(redirect.hops.count <= 6)
    }

    @Test func theAbsurdCertificateIsRecordedWhole() throws {
        let certificate = try #require(try domain(HostileSites.absurdCertificate).locations[0].tls?.certificate)
        #expect(certificate.subjectAltNames.count == HostileSites.absurdSANCount + 1)
        #expect(certificate.subject.count > HostileSites.absurdSubjectUnits * 64)
        #expect(certificate.subject.contains(HostileContent.script))
    }
}

/// The second round (issue 19), from the same run: what each limit says, and that the tool's own
/// deadline and caps, not the server, ended each transfer.
extension HostileServerTests {
    func error(_ host: String) throws -> TransferFailure {
        try #require(try domain(host).locations[0].error, "\(host)")
    }

    @Test func trailersAndInterimResponsesCountTowardsTheHeaderCap() throws {
        let trailers = try error(HostileSites.endlessTrailers)
        #expect(trailers.kind == .tooLarge)
        #expect(trailers.message.contains("header lines (headers, interim 1xx responses and trailers together)"), "\(trailers.message)")
    }

    @Test func anOverlongHeaderLineOrLocationIsTooLargeNotOutOfMemory() throws {
        for host in [HostileSites.longHeaderLine, HostileSites.longLocation] {
            let error = try error(host)
            #expect(error.kind == .tooLarge && error.curlCode == 27, "\(host)")
            #expect(error.message.hasPrefix("A header line is longer than libcurl accepts (100 KB)"), "\(host): \(error.message)")
            let finding = try domain(host).locations[0].findings.first { $0.id == "network.too-large" }
            #expect(finding?.detail?.contains("header line is longer") == true, "curl's words, as the technical detail")
        }
    }

    @Test func aContentLengthBeyondAnyCountFails() throws {
        let error = try error(HostileSites.overflowingLength)
        #expect(error.kind == .tooLarge)
        #expect(error.message.contains("Content-Length 99999999999999999999999"), "\(error.message)")
    }

    @Test func slowResponsesEndAtTheDeadline() throws {
        for host in [HostileSites.endlessInterim, HostileSites.slowHeaders, HostileSites.endlessHTTP2] {
            for location in try domain(host).locations {
                #expect(location.timings.totalMs < Self.timeout * 1000 + 500, "\(host): \(location.timings.totalMs) ms")
                #expect(location.error?.kind == .timeout, "\(host)")
                // The tool's deadline, not curl's timeout (set a second later as a backup), ended it.
                #expect(location.error?.message.hasPrefix("No complete response within the time limit of 3 s") == true,
                        "\(host): \(location.error?.message ?? "")")
                #expect(location.timings.totalMs >= Self.timeout * 1000 - 100, "\(host): \(location.timings.totalMs) ms")
            }
        }
    }

    @Test func theHTTP2ServerWasSpokenTo() throws {
        _ = try Self.run.get()
        let sites = try HostileSites.shared.get()
        // Requests reached the hand-written HTTP/2 server: curl negotiated h2 through nginx's ALPN.
        #expect(sites.http2.requests >= 1)
    }

    @Test func aRedirectToLoopbackIsDiagnosedWithoutGoingThere() throws {
        let sites = try HostileSites.shared.get()
        let redirect = try #require(try domain(HostileSites.privateRedirect).locations[0].redirect)
        #expect(redirect.end.contains("Not connected to 127.0.0.2: it is a loopback address"), "\(redirect.end)")
        #expect(sites.secret.requestedPaths.isEmpty)
    }
}
