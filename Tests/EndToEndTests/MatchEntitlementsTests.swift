import Foundation
import Testing
import TestSupport

/// `aasa-audit match --entitlements FILE URL...` against nginx: which entry covers each URL's host,
/// which file Apple reads for it, and the decision for the app.
@Suite struct MatchEntitlementsTests {
    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
            <key>application-identifier</key><string>ABQ7KM3X2P.com.exemplo.app</string>
            <key>com.apple.developer.associated-domains</key>
            <array>
                <string>applinks:good.test</string>
                <string>applinks:*.good.test</string>
                <string>applinks:root-only.test?mode=developer</string>
            </array>
        </dict>
        </plist>
        """

    @Test func eachURLIsDecidedUnderTheEntryThatCoversItsHost() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let path = folder.appendingPathComponent("App.entitlements").path
        try Self.plist.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try AuditBinary.run(["match", "--entitlements", path, "--cacert", sites.certificateAuthority.certificatePath,
                                           "https://good.test/buy/1", "https://shop.good.test/buy/2", "https://root-only.test/buy/3",
                                           "https://other.test/buy/4", "https://good.test/sell"] + sites.connectToArguments)
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(outcome.stdout)")
        #expect(lines[0].contains("https://good.test/buy/1  opens ABQ7KM3X2P.com.exemplo.app"))
        #expect(lines[1].contains("https://shop.good.test/buy/2  opens ABQ7KM3X2P.com.exemplo.app"))
        #expect(outcome.stderr.contains("applinks:*.good.test covers shop.good.test; Apple reads good.test's file for it"), "\(outcome.stderr)")
        #expect(lines[2].contains("does not open ABQ7KM3X2P.com.exemplo.app") && lines[2].contains("serves its file only at the root location"))
        #expect(outcome.stderr.contains("applinks:root-only.test?mode=developer covers root-only.test; the device reads its own file; with ?mode=developer"),
                "\(outcome.stderr)")
        #expect(lines[3].contains("no applinks entry of ABQ7KM3X2P.com.exemplo.app covers other.test"))
        #expect(lines[4].contains("https://good.test/sell  does not open"))
    }

    /// A host that serves no file keeps its own URL in the browser and stops nothing else: the URLs
    /// after it are still decided.
    @Test func aHostWithoutAFileDoesNotStopTheOtherURLs() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let path = folder.appendingPathComponent("App.entitlements").path
        try Self.plist.replacingOccurrences(of: "<string>applinks:good.test</string>",
                                            with: "<string>applinks:good.test</string><string>applinks:notfound.test</string>")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try AuditBinary.run(["match", "--entitlements", path, "--cacert", sites.certificateAuthority.certificatePath,
                                           "https://notfound.test/buy/1", "https://good.test/buy/1"] + sites.connectToArguments)
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(outcome.stdout)\(outcome.stderr)")
        #expect(lines.first?.contains("https://notfound.test/buy/1  does not open ABQ7KM3X2P.com.exemplo.app: applinks:notfound.test covers "
                                      + "notfound.test, but Apple can read no file from notfound.test: ") == true, "\(outcome.stdout)")
        #expect(lines.last?.contains("https://good.test/buy/1  opens ABQ7KM3X2P.com.exemplo.app") == true, "\(outcome.stdout)")
        #expect(outcome.stderr.contains("notfound.test serves no file Apple can read"), "\(outcome.stderr)")
    }

    /// The same entitlements as a binary property list (what a build's .xcent may be), made here.
    @Test func binaryPropertyListWorksTheSame() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let path = folder.appendingPathComponent("App.xcent").path
        let plist: [String: Any] = [
            "application-identifier": "ABQ7KM3X2P.com.exemplo.app",
            "com.apple.developer.associated-domains": ["applinks:*.good.test"],
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        #expect(data.starts(with: Array("bplist00".utf8)))
        try data.write(to: URL(fileURLWithPath: path))
        let outcome = try AuditBinary.run(["match", "--entitlements", path, "--cacert", sites.certificateAuthority.certificatePath,
                                           "https://a.good.test/buy/1", "https://good.test/buy/1"] + sites.connectToArguments)
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("https://a.good.test/buy/1  opens ABQ7KM3X2P.com.exemplo.app"))
        #expect(outcome.stdout.contains("no applinks entry of ABQ7KM3X2P.com.exemplo.app covers good.test (its applinks entries: *.good.test)"))
    }

    @Test func pathsAndAMixWithFileAreRefused() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let path = folder.appendingPathComponent("App.entitlements").path
        try Self.plist.write(toFile: path, atomically: true, encoding: .utf8)
        let relative = try AuditBinary.run(["match", "--entitlements", path, "/buy/1"])
        #expect(relative.status == 2 && relative.stderr.contains("give a whole URL"), "\(relative.stderr)")
        let mixed = try AuditBinary.run(["match", "--entitlements", path, "--app", "ABQ7KM3X2P.com.exemplo.app", "https://good.test/"])
        #expect(mixed.status == 2 && mixed.stderr.contains("not with --entitlements"), "\(mixed.stderr)")
    }

    /// The app's entries are decided with what its devices get: Apple's stale CDN copy lacks the app,
    /// and the CDN has no copy for a host that refuses Apple's crawler; both exit 1, and the audit's
    /// claims say the same.
    @Test func theAppIsDecidedWithTheFileItsDevicesGet() throws {
        let sites = try LocalSites.shared.get()
        let folder = try AuditBinary.temporaryDirectory()
        let path = folder.appendingPathComponent("App.entitlements").path
        try Self.plist.replacingOccurrences(of: "<string>applinks:good.test</string>",
                                            with: "<string>applinks:stale.test</string><string>applinks:bot-blocked.test</string>")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let network = ["--cacert", sites.certificateAuthority.certificatePath] + sites.connectToArguments + sites.appleCDNArguments
        let match = try AuditBinary.run(["match", "--entitlements", path, "https://stale.test/buy/1", "https://bot-blocked.test/buy/1"] + network)
        #expect(match.status == 1, "\(match.stdout)\(match.stderr)")
        let lines = match.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(match.stdout)")
        #expect(lines.first?.contains("does not open ABQ7KM3X2P.com.exemplo.app") == true
                && lines.first?.contains("the origin's file opens ABQ7KM3X2P.com.exemplo.app") == true, "\(match.stdout)")
        #expect(lines.last?.contains("would open ABQ7KM3X2P.com.exemplo.app") == true
                && lines.last?.contains("devices get no file because Apple's CDN has no copy of bot-blocked.test's file") == true, "\(match.stdout)")
        let audit = try AuditBinary.run(["--entitlements", path, "--json", "--no-history", "--out", folder.appendingPathComponent("out").path,
                                         "stale.test"] + network)
        #expect(audit.status == 1, "\(audit.stderr)")
        #expect(audit.stdout.contains("Apple's CDN copy of https://stale.test/.well-known/apple-app-site-association"), "\(audit.stdout)")
        #expect(audit.stdout.contains("Apple's CDN has no copy of bot-blocked.test's file (cdn.missing)"), "\(audit.stdout)")
        // Without the CDN, the crawler's refusal is what devices get: nothing, and both say why.
        let direct = ["--cacert", sites.certificateAuthority.certificatePath, "--no-cdn"] + sites.connectToArguments
        let blocked = try AuditBinary.run(["match", "--entitlements", path, "https://bot-blocked.test/buy/1"] + direct)
        #expect(blocked.status == 1, "\(blocked.stdout)\(blocked.stderr)")
        #expect(blocked.stdout.contains("would open ABQ7KM3X2P.com.exemplo.app")
                && blocked.stdout.contains("devices get no file because bot-blocked.test refuses Apple's crawler (AASA-Bot)"), "\(blocked.stdout)")
        let blockedAudit = try AuditBinary.run(["--entitlements", path, "--json", "--no-history", "--out", folder.appendingPathComponent("direct").path]
                                               + direct, in: folder)
        #expect(blockedAudit.status == 1, "\(blockedAudit.stderr)")
        #expect(blockedAudit.stdout.contains("bot-blocked.test refuses Apple's crawler (AASA-Bot), so Apple's CDN gets no file to serve"), "\(blockedAudit.stdout)")
    }
}
