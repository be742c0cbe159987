@testable import Fetching
import Testing

/// curl's `HOST:PORT:...` fields (`--connect-to`, `--resolve`), split on ':' outside [brackets], and
/// which entries send a name to one IP address.
@Suite struct HostFieldsTests {
    @Test(arguments: [
        ("a.test:443:127.0.0.1:8443", ["a.test", "443", "127.0.0.1", "8443"]),
        ("::127.0.0.2:8443", ["", "", "127.0.0.2", "8443"]),
        ("[::1]:443:[2001:db8::2]:80", ["[::1]", "443", "[2001:db8::2]", "80"]),
        ("a.test:443:127.0.0.1,127.0.0.2", ["a.test", "443", "127.0.0.1,127.0.0.2"]),
        ("bücher.test:443:x.test:", ["bücher.test", "443", "x.test", ""]),
        ("", [""]),
        ("[unclosed:1:2", ["[unclosed:1:2"]),
    ])
    func fields(text: String, expected: [String]) {
        #expect(FetchOptions.splitHostFields(text) == expected)
    }

    @Test func anEntryToAnAddressIsFoundForItsNameAndPort() {
        let options = FetchOptions(userAgent: "test", connectTo: ["other.test:443:other.example:443", "A.test:443:127.0.0.5:8443", "::example.net:443"])
        #expect(options.connectsToAddress(host: "a.TEST", port: "443"))
        #expect(!options.connectsToAddress(host: "a.test", port: "8443"))  // the catch-all then sends it to a name
        #expect(!options.connectsToAddress(host: "other.test", port: "443"))
    }
}
