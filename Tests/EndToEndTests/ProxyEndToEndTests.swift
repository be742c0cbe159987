import Audit
import Foundation
import Testing
import TestSupport

/// The real binary through a real squid on loopback (issue 33): the route a corporate network
/// imposes. A good site passes with no private-address finding (the address connected to is the
/// proxy's, not the site's); a proxy that asks for credentials or is down ends the run with status
/// 2 naming it, and no domain gets a finding; credentials never show; `--noproxy` goes around it.
@Suite(.serialized) struct ProxyEndToEndTests {
    /// squid resolves `good.test` from its own hosts file to a forwarder on a random loopback
    /// address's port 443, which passes the bytes on to nginx: so the tool gives the name alone,
    /// unrouted, exactly as behind a real proxy, and only squid knows where it leads.
    struct Setup: Sendable {
        var sites: LocalSites
        var squid: SquidProxy
        var authenticating: SquidProxy
        var forwarder: LatencyProxy
    }

    static let user = (name: "auditor", password: "Pr0xyS3cret-xyzzy")

    static let setup: Result<Setup, Error> = Result {
        let sites = try LocalSites.shared.get()
        let address = "127.\(Int.random(in: 1...254)).\(Int.random(in: 1...254)).\(Int.random(in: 1...254))"
        let forwarder = try LatencyProxy(address: address, port: 443, upstreamAddress: "127.0.0.1", upstreamPort: sites.port,
                                         roundTripMilliseconds: 0)
        let hosts = ["good.test": address, "cdn.test": address]
        return Setup(sites: sites, squid: try SquidProxy(hosts: hosts), authenticating: try SquidProxy(hosts: hosts, user: user),
                     forwarder: forwarder)
    }

    /// Runs the audit of `good.test` (Apple's CDN played by `cdn.test`) with `arguments` and `environment` added.
    static func audit(_ arguments: [String], environment: [String: String] = [:]) throws -> (ShellCommand.Outcome, URL) {
        let setup = try setup.get()
        let out = try AuditBinary.temporaryDirectory().appendingPathComponent("reports")
        var variables = ProcessInfo.processInfo.environment.filter { !$0.key.lowercased().hasSuffix("_proxy") }
        variables.merge(environment) { $1 }
        let outcome = try AuditBinary.run(["--cacert", setup.sites.certificateAuthority.certificatePath, "--timeout", "3",
                                           "--no-history", "--out", out.path] + ["--apple-cdn", Scenarios.appleCDNBase] + arguments + ["good.test"],
                                          environment: variables)
        return (outcome, out)
    }

    @Test func goodSiteThroughSquidPassesWithoutPrivateAddressFinding() throws {
        let setup = try Self.setup.get()
        let (outcome, out) = try Self.audit([], environment: ["https_proxy": setup.squid.url])
        #expect(outcome.status == 0, "\(outcome.stderr)\n\(outcome.stdout)")
        let report = try AuditBinary.readReport(at: out.appendingPathComponent("report.json"))
        let domain = try #require(report.domains.first)
        #expect(domain.verdict == .pass)
        let ids = domain.locations.flatMap(\.findings).map(\.id) + domain.findings.map(\.id)
        #expect(!ids.contains("network.private-address"), "\(ids)")
        // The report says the address was not seen: the location was fetched through the proxy.
        #expect(domain.locations.allSatisfy { $0.proxy == setup.squid.url }, "\(domain.locations.map(\.proxy))")
        #expect(setup.squid.accessLog().contains("CONNECT good.test:443"), "\(setup.squid.accessLog())")
    }

    @Test func proxyAskingForCredentialsEndsTheRunNamingIt() throws {
        let setup = try Self.setup.get()
        let (outcome, out) = try Self.audit(["--proxy", setup.authenticating.url])
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("the proxy \(setup.authenticating.url) (--proxy) asks for credentials"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("report.json").path))
        #expect(!outcome.stdout.contains("network."), "\(outcome.stdout)")
        #expect(setup.authenticating.accessLog().contains("TCP_DENIED/407"))
    }

    @Test func proxyDownEndsTheRunNamingIt() throws {
        let setup = try Self.setup.get()
        let down = "http://127.0.0.1:\(setup.sites.closedPort)"
        let (outcome, out) = try Self.audit([], environment: ["HTTPS_PROXY": down])
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("the proxy \(down) (HTTPS_PROXY) cannot be connected to"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("report.json").path))
    }

    @Test func credentialsNeverShowInOutputOrReports() throws {
        let setup = try Self.setup.get()
        let withCredentials = "http://\(Self.user.name):\(Self.user.password)@127.0.0.1:\(setup.authenticating.port)"
        let (accepted, out) = try Self.audit(["--proxy", withCredentials, "--format", "json,html,md,junit"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(setup.authenticating.accessLog().contains("CONNECT good.test:443 \(Self.user.name)"))
        let wrong = "http://\(Self.user.name):wrong-\(Self.user.password)@127.0.0.1:\(setup.authenticating.port)"
        let (refused, _) = try Self.audit(["--proxy", wrong])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("refused the credentials"), "\(refused.stderr)")
        let (unusable, _) = try Self.audit(["--proxy", "gopher://\(Self.user.name):\(Self.user.password)@127.0.0.1:1"])
        #expect(unusable.status == 2)
        var texts = [accepted.stdout, accepted.stderr, refused.stdout, refused.stderr, unusable.stdout, unusable.stderr]
        for file in try FileManager.default.contentsOfDirectory(atPath: out.path) {
            texts.append((try? String(contentsOf: out.appendingPathComponent(file), encoding: .utf8)) ?? "")
        }
        #expect(texts.count >= 10)
        for text in texts {
            #expect(!text.contains(Self.user.password))
            #expect(!text.contains("\(Self.user.name):"))
        }
    }

    @Test func noproxyGoesAroundTheProxy() throws {
        let setup = try Self.setup.get()
        let down = "http://127.0.0.1:\(setup.sites.closedPort)"
        // Around the (down) proxy, the names go where --connect-to sends them.
        let (outcome, out) = try Self.audit(["--proxy", down, "--noproxy", "good.test,.test"] + setup.sites.connectToArguments)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let report = try AuditBinary.readReport(at: out.appendingPathComponent("report.json"))
        #expect(report.domains.first?.locations.allSatisfy { $0.proxy == nil } == true)
    }
}
