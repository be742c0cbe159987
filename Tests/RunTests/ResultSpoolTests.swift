import AASA
import Audit
import Foundation
import Reporting
import Testing
import TestSupport
@testable import Run
#if canImport(Glibc)
import Glibc
#endif

/// The results spool: what goes in comes back the same, in list order; a file cut short is named,
/// never read as another result; the file never shows in the folder; its folders go when unused.
@Suite struct ResultSpoolTests {
    static let generatedAt = Date(timeIntervalSince1970: 1_800_000_000)

    /// A result with the facts a real one has: a certificate (whole-second dates), timings with
    /// fractions, headers, a body, findings of every severity, an Android part.
    static func result(_ name: String, verdict: Verdict) -> DomainResult {
        let certificate = ServerCertificate(subject: "CN=\(name)", issuer: "CN=Test CA", subjectAltNames: [name],
                                          notBefore: Date(timeIntervalSince1970: 1_790_000_000),
                                          notAfter: Date(timeIntervalSince1970: 1_801_000_000))
        let timings = TransferTimings(dnsMs: 0.123456789, totalMs: 12.3456789)
        let location = LocationResult(path: AASAFile.wellKnownPath, url: "https://\(name)\(AASAFile.wellKnownPath)", verdict: verdict,
                                      httpStatus: 200, contentType: "application/json",
                                      headers: [HeaderField(name: "content-type", value: "application/json")],
                                      bytes: BodySize(transferred: 42, decoded: 42, limit: 131_072), redirect: nil,
                                      tls: TLSConnection(version: "TLSv1.3", certificate: certificate),
                                      timings: timings, error: nil, body: "{\"applinks\":{\"details\":[]}}\n\u{202E}ü",
                                      findings: [Finding(id: "content-type", severity: verdict == .fail ? .error : .warning, message: "m", fix: "f"),
                                                 Finding(id: "note", severity: .info, message: "i")])
        var result = DomainResult(domain: name, unicodeDomain: name.hasPrefix("xn--") ? "ü\(name)" : nil, verdict: verdict,
                                  usedLocation: AASAFile.wellKnownPath, findings: [], locations: [location])
        if verdict == .warn {
            result.android = AndroidResult(location: location, findings: [Finding(id: "expect.android-missing", severity: .warning, message: "a")])
        }
        return result
    }

    static let results: [DomainResult] = [
        result("a.test", verdict: .pass), result("xn--b.test", verdict: .fail), result("c.test", verdict: .warn),
        result("d.test", verdict: .fail), result("e.test", verdict: .pass),
    ]

    /// The result as a report made from it holds it (judged against the run's start).
    static func judged(_ result: DomainResult) -> DomainResult {
        AuditReport(tool: ToolInfo(name: "t", version: "1"), generatedAt: generatedAt, domains: [result]).domains[0]
    }

    /// Many domains serving one file store it once; `--bodies failing` leaves a passing domain's out,
    /// by its stored verdict, and the report still names it by size and SHA-256.
    @Test func eachDistinctBodyIsStoredOnceAndOnlyWhereKept() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let spool = try ResultSpool(in: folder, count: 3, generatedAt: ResultSpoolTests.generatedAt, htmlSections: .full, bodies: .failing)
        spool.append(ResultSpoolTests.result("a.test", verdict: .fail), at: 0)
        spool.append(ResultSpoolTests.result("b.test", verdict: .fail), at: 1)
        spool.append(ResultSpoolTests.result("c.test", verdict: .pass), at: 2)
        let (spooled, _) = try spool.seal()
        let text = try #require(ResultSpoolTests.result("a.test", verdict: .fail).locations[0].body)
        var stored: [String: String] = [:]
        try spooled.forEachStoredBody { stored[$0] = $1 }
        #expect(stored == [BodyDigest.sha256(of: text): text])
        #expect(try spooled.result(at: 1).locations[0].body == text, "read back with its body")
        let passing = try spooled.result(at: 2).locations[0]
        #expect(passing.body == nil && passing.bodyOmittedBy == .failing && passing.bodySHA256 == BodyDigest.sha256(of: text))
        let json = String(decoding: try #require(try spooled.storedJSON(at: 0)), as: UTF8.self)
        #expect(!json.contains("\"body\"") && json.contains(BodyDigest.sha256(of: text)))
        #expect(try spooled.storedHTMLSection(at: 2)?.contains("Body not stored (<code>--bodies failing</code>)") == true)
        #expect(try spooled.storedHTMLSection(at: 0)?.contains("Served body") == true)
    }

    @Test func resultsComeBackTheSameInListOrderAndTheFileNeverShows() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let spool = try ResultSpool(in: folder, count: Self.results.count + 1, generatedAt: Self.generatedAt)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "the spool is unlinked at once")
        // Stored as the audits finish, out of list order; the domain at index 3 never finishes.
        for (result, index) in [(4, 5), (0, 0), (3, 4), (1, 1), (2, 2)] { spool.append(Self.results[result], at: index) }
        let (spooled, stored) = try spool.seal()
        #expect(stored == [true, true, true, false, true, true])
        #expect(try spooled.all() == Self.results.map(Self.judged), "list order, as judged by a report")
        #expect(spooled.digests == Self.results.map { DomainDigest(Self.judged($0)) })
        #expect(spooled.digests[2].androidVerdict == .warn && spooled.digests[1].unicodeDomain == "üxn--b.test")
        // Stored as report.json holds a domain among its `domains` (its bodies apart, by SHA-256), so
        // the report copies it.
        let encoded = try JSONReporter.encodeDomainElement(Self.judged(Self.results[3]).bodiesApart { _, _ in })
        #expect(try spooled.storedJSON(at: 3) == encoded)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aDomainNotStoredIsNotInTheResultsAndNothingIsTakenAfterTheSeal() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let spool = try ResultSpool(in: folder, count: 3, generatedAt: Self.generatedAt)
        spool.append(Self.results[0], at: 0)
        spool.append(Self.results[2], at: 2)
        let (spooled, stored) = try spool.seal()
        spool.append(Self.results[1], at: 1)
        #expect(stored == [true, false, true])
        #expect(spooled.digests.map(\.domain) == ["a.test", "c.test"])
        let (again, storedAgain) = try spool.seal()
        #expect(storedAgain == [true, false, true] && again.count == 2)
    }

    @Test func aFileCutShortIsNamedWithTheDomainWhoseRecordItCut() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let spool = try ResultSpool(in: folder, count: 3, generatedAt: Self.generatedAt)
        for index in 0..<3 { spool.append(Self.results[index], at: index) }
        let (spooled, _) = try spool.seal()
        // A crash (or a full disk) in the middle of the last record.
        let last = spooled.records[2]
        #expect(ftruncate(spooled.file.descriptor, off_t(last.offset + Int64(last.length) / 2)) == 0)
        #expect(try spooled.result(at: 1) == Self.judged(Self.results[1]), "the records before it are whole")
        let error = #expect(throws: SpoolError.self) { try spooled.result(at: 2) }
        let text = "\(error.map { $0 as Any } ?? "")"
        #expect(text.contains("c.test") && text.contains("cut short"), "\(text)")
        // A record whose length prefix is not the one stored: another record, never read as this one.
        var bad = UInt32(7).littleEndian
        #expect(pwrite(spooled.file.descriptor, &bad, 4, off_t(spooled.records[0].offset)) == 4)
        let other = #expect(throws: SpoolError.self) { try spooled.result(at: 0) }
        #expect("\(other.map { $0 as Any } ?? "")".contains("a.test"))
    }

    /// For a compact page (more than 200 domains) only the failing and warning domains' sections are
    /// rendered, for that form; a page of another form does not copy them (it renders its own).
    @Test func aCompactPageStoresSectionsOnlyForDomainsThatDoNotPass() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let spool = try ResultSpool(in: folder, count: Self.results.count, generatedAt: Self.generatedAt, htmlSections: .compact)
        for (index, result) in Self.results.enumerated() { spool.append(result, at: index) }
        let (spooled, _) = try spool.seal()
        #expect(spooled.storedSectionForm == .compact)
        for (index, result) in Self.results.enumerated() {
            let judged = Self.judged(result)
            let expected = judged.verdict == .pass ? nil : HTMLReporter.domainSectionBody(judged, form: .compact)
            #expect(try spooled.storedHTMLSection(at: index) == expected, "\(result.domain)")
        }
        // The five domains make a full page: it renders their sections again, the same as from memory.
        let shell = AuditReport(tool: ToolInfo(name: "t", version: "1"), generatedAt: Self.generatedAt, domains: [])
        var pieces: [String] = []
        try HTMLReporter.render(StreamedReport(shell: shell, domains: spooled)) { pieces.append($0) }
        let whole = AuditReport(tool: ToolInfo(name: "t", version: "1"), generatedAt: Self.generatedAt, domains: Self.results)
        #expect(pieces.joined() == HTMLReporter.render(whole))
        #expect(pieces.joined().contains("<section class=\"domain v-pass\""), "a full page has the passing sections")
    }

    @Test func anHTMLSectionIsStoredAsTheReporterRendersItAndACutOneIsNamed() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let spool = try ResultSpool(in: folder, count: 3, generatedAt: Self.generatedAt, htmlSections: .full)
        for index in 0..<3 { spool.append(Self.results[index], at: index) }
        let (spooled, _) = try spool.seal()
        for index in 0..<3 {
            #expect(try spooled.storedHTMLSection(at: index) == HTMLReporter.domainSectionBody(Self.judged(Self.results[index])))
            #expect(try spooled.result(at: index) == Self.judged(Self.results[index]), "the JSON before the section is whole")
        }
        // Without sections (a run that writes no report.html), none is stored.
        let plain = try ResultSpool(in: folder, count: 1, generatedAt: Self.generatedAt)
        plain.append(Self.results[0], at: 0)
        #expect(try plain.seal().results.storedHTMLSection(at: 0) == nil)
        // Cut inside the last section: its JSON still reads, its section is named as cut short.
        let last = spooled.records[2]
        let sectionStart = last.offset + 4 + Int64(last.length) + 4
        #expect(ftruncate(spooled.file.descriptor, off_t(sectionStart + 10)) == 0)
        #expect(try spooled.result(at: 2) == Self.judged(Self.results[2]))
        let error = #expect(throws: SpoolError.self) { try spooled.storedHTMLSection(at: 2) }
        let text = "\(error.map { $0 as Any } ?? "")"
        #expect(text.contains("HTML section of c.test") && text.contains("cut short"), "\(text)")
    }

    @Test func theDigestHoldsWhatASummaryLineShows() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let spool = try ResultSpool(in: folder, count: 2, generatedAt: Self.generatedAt)
        spool.append(Self.results[1], at: 0)
        spool.append(Self.results[0], at: 1)
        let digests = try spool.seal().results.digests
        let failing = Self.judged(Self.results[1])
        #expect(digests[0].usedLocation == AASAFile.wellKnownPath)
        // 1_801_000_000 - 1_800_000_000 seconds: 11 whole days left at the run's start.
        #expect(digests[0].certificateDaysLeft == 11 && failing.certificate?.daysLeft == 11)
        #expect(digests[0].headline == "m" && digests[0].headline == failing.headline?.message)
        #expect(digests[1].headline == nil, "a passing domain has no headline")
    }

    @Test func theFoldersItMadeGoWhenNoReportIsWrittenAndOnlyWhenEmpty() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let out = folder.appendingPathComponent("a/b/c")
        let spool = try ResultSpool(in: out, count: 1, generatedAt: Self.generatedAt)
        spool.append(Self.results[0], at: 0)
        #expect(FileManager.default.fileExists(atPath: out.path))
        spool.removeCreatedFolders()
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("a").path))
        #expect(FileManager.default.fileExists(atPath: folder.path), "a folder that was there stays")
        // The spool still reads: its file is open, not in the folder.
        #expect(try spool.seal().results.result(at: 0) == Self.judged(Self.results[0]))

        let kept = try ResultSpool(in: out, count: 1, generatedAt: Self.generatedAt)
        try Data("x".utf8).write(to: folder.appendingPathComponent("a/b/someone-elses"))
        kept.removeCreatedFolders()
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("a/b/someone-elses").path))
        #expect(!FileManager.default.fileExists(atPath: out.path), "the empty deepest folder goes")
    }

    /// Where `O_TMPFILE` is not offered, the spool has a name for an instant, exclusively created:
    /// something planted at the name is left alone and another name drawn.
    @Test func withoutAnonymousFilesTheNamedSpoolIsUnlinkedAtOnce() throws {
        let folder = try AuditBinary.temporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(".report.spool.tmp-planted").path,
                                                   withDestinationPath: "/etc/passwd")
        var names = [".report.spool.tmp-planted", ".report.spool.tmp-fresh"]
        let spool = try ResultSpool(in: folder, count: 1, generatedAt: Self.generatedAt, anonymous: false,
                                    temporaryName: { _ in names.removeFirst() })
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [".report.spool.tmp-planted"])
        spool.append(Self.results[0], at: 0)
        #expect(try spool.seal().results.result(at: 0) == Self.judged(Self.results[0]))
    }

    @Test func aFolderThatCannotHoldTheSpoolSaysWhy() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let file = folder.appendingPathComponent("file")
        try Data().write(to: file)
        #expect(throws: ReportWriteError.self) { try ResultSpool(in: file, count: 1, generatedAt: Self.generatedAt) }
    }
}

/// A spool on a full disk: the result that did not fit is named, and no report is made from a
/// spool that lacks it.
@Suite struct ResultSpoolFullDiskTests {
    @Test func aResultThatDoesNotFitIsNamedAndTheSealRefuses() throws {
        let scratch = try ScratchFileSystem(bytes: 12 * 1024)
        defer { scratch.unmount() }
        let spool = try ResultSpool(in: scratch.mountPoint, count: 2, generatedAt: ResultSpoolTests.generatedAt)
        var big = ResultSpoolTests.result("big.test", verdict: .pass)
        big.locations[0].body = String(repeating: "x", count: 64 * 1024)
        spool.append(big, at: 0)
        spool.append(ResultSpoolTests.result("small.test", verdict: .pass), at: 1)
        let error = #expect(throws: ReportWriteError.self) { try spool.seal() }
        #expect(error?.path == scratch.mountPoint.path)
        #expect(error?.reason.contains("big.test") == true && error?.reason.contains("No space left on device") == true, "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.mountPoint.path).isEmpty)
    }
}
