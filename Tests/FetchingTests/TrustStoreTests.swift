import AASA
import Foundation
import Testing

@testable import Fetching

@Suite struct TrustStoreTests {
    let cdn = AppleCDN.defaultBase + "example.com"

    @Test func cacertIsTrustedInsteadOfTheSystemStoreForTheUsersServers() {
        let store = TrustStore(userFile: "/tmp/staging-ca.pem", systemBundle: "/etc/ssl/certs/ca-certificates.crt")
        #expect(store.bundle(for: "https://example.com/.well-known/apple-app-site-association") == "/tmp/staging-ca.pem")
        // A CDN given with --apple-cdn is a server the user points at: --cacert applies.
        #expect(store.bundle(for: "https://cdn.test/a/v1/example.com") == "/tmp/staging-ca.pem")
    }

    @Test func applesCDNIsCheckedAgainstTheSystemStoreWhatever_cacertSays() {
        let store = TrustStore(userFile: "/tmp/staging-ca.pem", systemBundle: "/etc/ssl/certs/ca-certificates.crt")
        #expect(store.bundle(for: cdn) == "/etc/ssl/certs/ca-certificates.crt")
    }

    @Test func withoutCacertTheSystemBundleIsUsedAlone() {
        let store = TrustStore(userFile: nil, systemBundle: "/etc/ssl/certs/ca-certificates.crt")
        #expect(store.bundle(for: "https://example.com/apple-app-site-association") == "/etc/ssl/certs/ca-certificates.crt")
        #expect(store.bundle(for: cdn) == "/etc/ssl/certs/ca-certificates.crt")
    }

    @Test func withoutABundleLibcurlsDefaultsStay() {
        let store = TrustStore(userFile: nil, systemBundle: nil)
        #expect(store.bundle(for: "https://example.com/") == nil)
        #expect(TrustStore(userFile: "/tmp/ca.pem", systemBundle: nil).bundle(for: cdn) == nil)
    }

    @Test func theBuiltInBundleIsAFileThatExistsOrNothing() {
        guard let bundle = TrustStore.builtInBundle else { return }
        var isDirectory: ObjCBool = true
        #expect(FileManager.default.fileExists(atPath: bundle, isDirectory: &isDirectory))
        #expect(!isDirectory.boolValue)
    }
}
