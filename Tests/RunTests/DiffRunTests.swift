import AASA
import Fetching
import Foundation
import TestSupport
import Testing
@testable import Run

@Suite struct DiffRunTests {
    static let fetch = FetchOptions(userAgent: "aasa-audit/test", connectTo: ["::127.0.0.1:9"], connectTimeout: 2, totalTimeout: 4)

    @Test(arguments: [
        ("-", MatchRun.Source.file("-")),
        ("old.json", .file("old.json")),
        ("OLD.JSON", .file("OLD.JSON")),
        ("public/.well-known/apple-app-site-association", .file("public/.well-known/apple-app-site-association")),
        ("example.com", .domain("example.com")),
        ("apple-app-site-association", .domain("apple-app-site-association")),
    ])
    func anArgumentIsAFileOrADomain(text: String, source: MatchRun.Source) {
        #expect(DiffRun.source(of: text) == source)
    }

    @Test func anExistingFileWithoutSlashOrJSONIsAFile() {
        #expect(DiffRun.source(of: "apple-app-site-association", exists: { $0 == "apple-app-site-association" }) == .file("apple-app-site-association"))
        #expect(DiffRun.source(of: "example.com", exists: { _ in false }) == .domain("example.com"))
    }

    @Test func urlsFileSkipsBlankLinesAndComments() {
        #expect(DiffRun.urls(in: "# a comment\n/buy/1\r\n\n  https://example.com/x  \n#/not\n") == ["/buy/1", "https://example.com/x"])
    }

    @Test func aBadURLInTheListIsExitTwo() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let file = folder.appendingPathComponent("a.json"), urls = folder.appendingPathComponent("urls.txt")
        try Data(#"{"applinks":{"details":[]}}"#.utf8).write(to: file)
        try Data("/a\nftp://example.com/b\n".utf8).write(to: urls)
        var notices: [String] = []
        #expect(DiffRun(old: file.path, new: file.path, urlsFile: urls.path, fetch: Self.fetch).run { notices.append($0) } == nil)
        #expect(notices == ["--urls \(urls.path): ftp://example.com/b is neither an http(s) URL nor a path starting with /"])
    }
}
