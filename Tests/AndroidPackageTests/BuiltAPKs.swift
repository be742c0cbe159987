import Foundation
import TestSupport

@testable import AndroidPackage

/// The APKs the tests read, built once per test run by aapt and apksigner (each signing starts a JVM).
enum BuiltAPKs {
    struct Set: @unchecked Sendable {
        let folder: URL
        let signer: AndroidAppFixture.Signer
        let second: AndroidAppFixture.Signer
        let manifest: String
        let v1: URL, v2: URL, v3: URL, all: URL, twoSigners: URL, unsigned: URL
    }

    static let package = "com.exemplo.shop"
    static let filters: [AndroidAppFixture.Filter] = [
        .appLinks(["shop.test", "*.shop.test"]),
        // Not verified: no autoVerify.
        AndroidAppFixture.Filter(autoVerify: nil, data: [("https", "plain.test")]),
        // Not verified: a custom scheme beside https.
        AndroidAppFixture.Filter(data: [("https", "mixed.test"), ("shop", nil)]),
    ]

    static let built: Result<Set, any Error> = Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apk-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let signer = try AndroidAppFixture.signer(in: folder, name: "first", subject: "/CN=Shop Upload/O=Big Shop")
        let second = try AndroidAppFixture.signer(in: folder, name: "second")
        let manifest = AndroidAppFixture.manifest(package: package, filters: filters)
        func apk(_ name: String, _ schemes: AndroidAppFixture.Schemes, _ signers: [AndroidAppFixture.Signer]) throws -> URL {
            try AndroidAppFixture.apk(in: folder, name: name, manifest: manifest, signers: signers, schemes: schemes)
        }
        return Set(folder: folder, signer: signer, second: second, manifest: manifest,
                   v1: try apk("v1.apk", [.v1], [signer]), v2: try apk("v2.apk", [.v2], [signer]), v3: try apk("v3.apk", [.v3], [signer]),
                   all: try apk("all.apk", [.v1, .v2, .v3], [signer]), twoSigners: try apk("two.apk", [.v2], [signer, second]),
                   unsigned: try AndroidAppFixture.unsignedAPK(in: folder, name: "unsigned.apk", manifest: manifest))
    }

    static func get() throws -> Set { try built.get() }

    /// The compiled manifest of the unsigned APK, read straight out of it.
    static func manifestBytes() throws -> [UInt8] {
        let set = try get()
        return try APKArchive(path: set.unsigned.path).read("AndroidManifest.xml", limit: 1 << 20, what: "a manifest")
    }

    static func failure(_ path: String, limits: APKReadLimits = .standard) -> APKReadError? {
        do {
            _ = try AndroidPackageFile.read(at: path, limits: limits)
            return nil
        } catch {
            return error
        }
    }
}
