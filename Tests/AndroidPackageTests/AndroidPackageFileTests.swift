import Foundation
import Testing
import TestSupport

@testable import AndroidPackage

/// Real APKs built by aapt and signed by apksigner: the package, the verified hosts, and the
/// signing certificate's SHA-256, compared with what openssl computes for the same certificate.
@Suite(.enabled(if: AndroidAppFixture.toolsAvailable, "needs aapt, apksigner and openssl (scripts/install-deps.sh --test)"))
struct AndroidPackageFileTests {
    @Test(arguments: [("v1", [APKSigning.Scheme.v1], APKSigning.Scheme.v1), ("v2", [.v2], .v2), ("v3", [.v3], .v3), ("all", [.v1, .v2, .v3], .v3)])
    func signedWithEachScheme(name: String, schemes: [APKSigning.Scheme], decisive: APKSigning.Scheme) throws {
        let set = try BuiltAPKs.get()
        let path = ["v1": set.v1, "v2": set.v2, "v3": set.v3, "all": set.all][name]!.path
        let app = try AndroidPackageFile.read(at: path)
        #expect(app.packageName == BuiltAPKs.package)
        #expect(app.signing.schemes == schemes)
        #expect(app.signing.scheme == decisive)
        #expect(app.signing.fingerprints == [set.signer.sha256])
        #expect(app.signing.signers.first?.certificate.subject == "O=Big Shop,CN=Shop Upload")
        #expect(app.appLinkHosts.hosts.map(\.declared) == ["shop.test", "*.shop.test"])
        #expect(app.appLinkHosts.hosts.map(\.fileHost) == ["shop.test", "shop.test"])
        #expect(app.appLinkHosts.rules == .android12)
        if decisive == .v3 {
            #expect(app.signing.signers.first?.minSdkVersion == 24)
        }
    }

    @Test func twoSignersAreBothRead() throws {
        let set = try BuiltAPKs.get()
        let app = try AndroidPackageFile.read(at: set.twoSigners.path)
        #expect(app.signing.scheme == .v2)
        #expect(app.signing.fingerprints == [set.signer.sha256, set.second.sha256])
    }

    @Test func theManifestIsReadAsAndroidReadsIt() throws {
        let set = try BuiltAPKs.get()
        let manifest = try AndroidPackageFile.read(at: set.v2.path).manifest
        #expect(manifest.minSdkVersion == 24)
        #expect(manifest.targetSdkVersion == 34)
        #expect(manifest.intentFilters.count == 3)
        let first = try #require(manifest.intentFilters.first)
        #expect(first.component == ".MainActivity")
        #expect(first.autoVerify)
        #expect(first.actions == ["android.intent.action.VIEW"])
        #expect(first.categories == ["android.intent.category.DEFAULT", "android.intent.category.BROWSABLE"])
        #expect(first.schemes == ["https", "https"])
        #expect(first.hosts == ["shop.test", "*.shop.test"])
        #expect(manifest.intentFilters[1].autoVerify == false)
        #expect(manifest.intentFilters[2].schemes == ["https", "shop"])
    }

    @Test func anUnsignedAPKIsRefused() throws {
        let set = try BuiltAPKs.get()
        let error = try #require(BuiltAPKs.failure(set.unsigned.path))
        #expect(error.code == .unsigned)
        #expect(error.source == set.unsigned.path)
    }

    @Test func whatIsNotAnAPKIsRefusedByName() throws {
        let set = try BuiltAPKs.get()
        let text = set.folder.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: text)
        #expect(BuiltAPKs.failure(text.path)?.code == .notAnArchive)
        #expect(BuiltAPKs.failure(set.folder.path)?.code == .unreadable)
        #expect(BuiltAPKs.failure(set.folder.appendingPathComponent("missing.apk").path)?.code == .unreadable)
        // A zip without a manifest.
        let zip = set.folder.appendingPathComponent("empty.apk")
        try ZipArchiveWriter.write([.init("classes.dex", Data("dex".utf8))], to: zip)
        let missing = try #require(BuiltAPKs.failure(zip.path))
        #expect(missing.code == .missingMember)
        #expect(missing.description == "\(zip.path): AndroidManifest.xml: is not in the archive, and every APK has one")
    }

    @Test func aManifestOverItsLimitIsRefusedBeforeItIsRead() throws {
        let set = try BuiltAPKs.get()
        var limits = APKReadLimits.standard
        limits.manifestBytes = 100
        let error = try #require(BuiltAPKs.failure(set.v2.path, limits: limits))
        #expect(error.code == .overLimit)
        #expect(error.source == "\(set.v2.path): AndroidManifest.xml")
    }
}
