import Audit
import Foundation
import Testing

/// `platforms=`, a SHA-1 fingerprint named as SHA-1, expectations on the command line
/// (`aasa-audit DOMAIN KEY=VALUE…`), and the hosts an `--apk` adds to the list.
@Suite struct AndroidExpectationsTests {
    static let release = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

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
        let list = DomainList.parse(arguments: ["shop.test", "android=com.example.shop", "platforms=android", "other.test", "www.test", "opens=/a"])
        #expect(list.problems.isEmpty, "\(list.problems.map(\.reason))")
        #expect(list.entries.map(\.name.ascii) == ["shop.test", "other.test", "www.test"])
        #expect(list.entries[0].expectations.androidApps == ["com.example.shop"])
        #expect(list.entries[0].expectations.isAndroidOnly)
        #expect(list.entries[1].expectations.isEmpty)
        #expect(list.entries[2].expectations.opens == ["/a"])
    }

    @Test func aTokenWithEqualsIsNeverAHost() throws {
        let list = DomainList.parse(arguments: ["android=com.example.shop", "shop.test", "sha256=nope", "app=ABCDE12345.com.x"])
        #expect(list.entries.map(\.name.ascii) == ["shop.test"])
        #expect(list.entries[0].expectations.apps == ["ABCDE12345.com.x"])
        #expect(list.problems.count == 2)
        #expect(list.problems[0].reason.hasPrefix("an expectation (KEY=VALUE) before any domain"))
        #expect(list.problems[1].reason.contains("sha256= takes a SHA-256"))
    }

    @Test func anAPKsHostsAreAndroidOnlyUnlessTheListNamesThem() throws {
        var list = DomainList.parse(Data("listed.test app=ABCDE12345.com.example.app\n".utf8), file: "domains.txt")
        list.add(androidApp: "com.example.shop", fingerprints: [Self.release], hosts: ["listed.test", "new.test", "bad host"], source: "app.apk")
        #expect(list.entries.map(\.name.ascii) == ["listed.test", "new.test"])
        let listed = list.entries[0].expectations, new = list.entries[1].expectations
        #expect(listed.apps == ["ABCDE12345.com.example.app"] && listed.androidApps == ["com.example.shop"] && listed.fingerprints == [Self.release])
        #expect(listed.platforms.isEmpty && !listed.isAndroidOnly)
        #expect(new.isAndroidOnly && new.androidApps == ["com.example.shop"] && new.apkFiles == ["app.apk"])
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
