import Audit
import Foundation
import Testing
@testable import Run

@Suite struct AppClaimsReaderTests {
    /// `--entitlements A --entitlements A` audits the app once: twice would double every outcome and
    /// every finding on its hosts.
    @Test func aFileNamedTwiceIsReadOnce() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("twice-\(UUID().uuidString).xcent").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let plist: [String: Any] = ["application-identifier": "ABQ7KM3X2P.com.exemplo.app",
                                    "com.apple.developer.associated-domains": ["applinks:example.com"]]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0).write(to: URL(fileURLWithPath: path))
        var list = DomainList()
        let claims = AppClaimsReader.read([EntitlementsInput(path: path), EntitlementsInput(path: path)], into: &list)
        #expect(claims.count == 1 && list.problems.isEmpty)
        #expect(list.add(apps: claims).isEmpty && list.entries.map { $0.claims.count } == [1])
    }
}
