import Audit
import Foundation
import Testing

/// `platforms=`, a SHA-1 fingerprint named as SHA-1, expectations on the command line
/// (`aasa-audit DOMAIN KEY=VALUE…`), and the hosts an `--apk` adds to the list.
@Suite struct AndroidExpectationsTests {
    static let release = "D2:EA:8B:A3:B0:4B:5C:C0:6A:4B:48:E5:AD:5F:C2:9B:22:4D:63:67:A4:A5:26:1D:22:27:71:49:48:38:A7:0C"

    @Test(arguments: [
        ("platforms=android", ["android"], true), ("platforms=apple", ["apple"], false), ("platforms=Android,apple", ["apple", "android"], false),
    ])
    func platforms(token: String, platforms: [String], androidOnly: Bool) throws {
        let expectations = try DomainExpectations.parse([Substring(token)])
        #expect(expectations.platforms == platforms)
        #expect(expectations.isAndroidOnly == androidOnly)
        #expect(expectations.auditsAndroid == platforms.contains("android"))
        #expect(!expectations.isEmpty)
    }

    @Test(arguments: ["platforms=ios", "platforms=", "platforms=android,"])
    func badPlatforms(token: String) {
        #expect(throws: ExpectationSyntaxError.self) { try DomainExpectations.parse([Substring(token)]) }
    }

    @Test func aSHA1FingerprintIsNamedAsSHA1() {
        let sha1 = "58:E1:C4:13:3F:74:41:EC:3D:2C:27:02:70:A1:48:02:DA:47:BA:0E"
        do {
            _ = try DomainExpectations.parse(["sha256=\(sha1.lowercased())"])
            Issue.record("a SHA-1 fingerprint was taken as sha256=")
        } catch {
            #expect(error.reason.hasPrefix("\(sha1) is a SHA-1 fingerprint (20 bytes); Android App Links compare the SHA-256"))
        }
    }

    @Test func expectationsOnTheCommandLineBelongToTheDomainBeforeThem() throws {
        let list = DomainList.parse(arguments: ["shop.test", "android=com.exemplo.shop", "platforms=android", "other.test", "www.test", "opens=/a"])
        #expect(list.problems.isEmpty, "\(list.problems.map(\.reason))")
        #expect(list.entries.map(\.name.ascii) == ["shop.test", "other.test", "www.test"])
        #expect(list.entries[0].expectations.androidApps == ["com.exemplo.shop"])
        #expect(list.entries[0].expectations.isAndroidOnly)
        #expect(list.entries[1].expectations.isEmpty)
        #expect(list.entries[2].expectations.opens == ["/a"])
    }

    @Test func aTokenWithEqualsIsNeverAHost() throws {
        let list = DomainList.parse(arguments: ["android=com.exemplo.shop", "shop.test", "sha256=nope", "app=ABQ7KM3X2P.com.x"])
        #expect(list.entries.map(\.name.ascii) == ["shop.test"])
        #expect(list.entries[0].expectations.apps == ["ABQ7KM3X2P.com.x"])
        #expect(list.problems.count == 2)
        #expect(list.problems[0].reason.hasPrefix("an expectation (KEY=VALUE) before any domain"))
        #expect(list.problems[1].reason.contains("sha256= takes a SHA-256"))
    }

    @Test func anAPKsHostsAreAndroidOnlyUnlessTheListNamesThem() throws {
        var list = DomainList.parse(Data("listed.test app=ABQ7KM3X2P.com.exemplo.app\n".utf8), file: "domains.txt")
        list.add(androidApp: "com.exemplo.shop", fingerprints: [Self.release], hosts: ["listed.test", "new.test", "bad host"], source: "app.apk")
        #expect(list.entries.map(\.name.ascii) == ["listed.test", "new.test"])
        let listed = list.entries[0].expectations, new = list.entries[1].expectations
        #expect(listed.apps == ["ABQ7KM3X2P.com.exemplo.app"] && listed.androidApps == ["com.exemplo.shop"] && listed.fingerprints == [Self.release])
        #expect(listed.platforms.isEmpty && !listed.isAndroidOnly)
        #expect(new.isAndroidOnly && new.androidApps == ["com.exemplo.shop"] && new.apkFiles == ["app.apk"])
        #expect(list.problems.count == 1)
        #expect(list.problems.first?.file == "app.apk")
    }

    @Test func expectationsWithoutTheNewKeysEncodeAsBefore() throws {
        let json = String(decoding: try JSONEncoder().encode(DomainExpectations(androidApps: ["a.b"])), as: UTF8.self)
        #expect(!json.contains("platforms") && !json.contains("apkFiles"))
        var both = DomainExpectations()
        both.platforms = ["android"]
        both.apkFiles = ["app.apk"]
        #expect(try JSONDecoder().decode(DomainExpectations.self, from: try JSONEncoder().encode(both)) == both)
    }
}
