import Arguments
import Fetching
import Testing

/// `--version`: the version alone on the first line, then the commit and the libraries, each said as it is.
@Suite struct VersionTextTests {
    static let commit = "395834e0a1b2c3d4e5f60718293a4b5c6d7e8f90"

    @Test(arguments: [
        (commit, LinkedLibraries(curl: "7.88.1", tls: "OpenSSL/3.0.17"),
         "aasa-audit 0.1.0\ngit commit \(commit)\nlibcurl 7.88.1 with OpenSSL/3.0.17"),
        (commit + "+changes", LinkedLibraries(curl: "8.5.0", tls: "OpenSSL/3.1.4"),
         "aasa-audit 0.1.0\ngit commit \(commit), with uncommitted changes\nlibcurl 8.5.0 with OpenSSL/3.1.4"),
        ("", LinkedLibraries(curl: "7.88.1", tls: nil),
         "aasa-audit 0.1.0\ngit commit not recorded (built without the Makefile, or outside a git checkout)\nlibcurl 7.88.1 without TLS"),
    ])
    func text(commit: String, libraries: LinkedLibraries, expected: String) {
        #expect(VersionText(version: "0.1.0", commit: commit, libraries: libraries).text == expected)
    }

    @Test func theLoadedLibcurlNamesItsVersionAndTLSLibrary() {
        let loaded = LinkedLibraries.loaded()
        #expect(loaded.curl.first?.isNumber == true, "\(loaded)")
        #expect(loaded.tls?.hasPrefix("OpenSSL/") == true, "Debian's libcurl4 is built with OpenSSL: \(loaded)")
    }
}
