import Foundation
import Testing
import TestSupport

@testable import Entitlements

/// Binary property lists whose shared references expand: refused before Foundation decodes them,
/// by counting every reference as often as it is reached.
@Suite struct SharedReferenceTests {
    static let limits = EntitlementsReadLimits.standard

    static func measure(_ data: Data) throws(BinaryPropertyListSize.Problem) -> BinaryPropertyListSize {
        try BinaryPropertyListSize.measure([UInt8](data), maxObjects: limits.propertyListObjects, maxBytes: limits.propertyListExpandedBytes)
    }

    /// count, levels, values decoded: 1 dictionary, its key, the arrays at each level, the strings.
    static let expanding: [(count: Int, levels: Int, objects: Int)] = [
        (1, 1, 4), (2, 1, 5), (10, 2, 3 + 10 + 100), (40, 3, 3 + 40 + 1600 + 64_000),
    ]

    @Test(arguments: expanding)
    func everyReferenceIsCountedAsOftenAsItIsReached(_ count: Int, levels: Int, objects: Int) throws {
        let data = SharedReferencePropertyList.nested(count: count, levels: levels)
        let size = try Self.measure(data)
        #expect(size.objects == objects)
        // The key's bytes once, the one-byte string once per reference.
        #expect(size.bytes == "CFBundleExecutable".utf8.count + Int(pow(Double(count), Double(levels))))
    }

    /// The red team's N³ files (449 B → 151 MB, 749 B → 962 MB, 1,091 B → past 3 GB): refused at once.
    @Test(arguments: [130, 240, 355])
    func theCubedFilesAreRefusedBeforeDecoding(_ count: Int) {
        let data = SharedReferencePropertyList.nested(count: count)
        #expect(data.count < 1200)
        #expect(throws: BinaryPropertyListSize.Problem.expandsPast(objects: 250_000, bytes: 8 << 20)) { try Self.measure(data) }
        do {
            _ = try EntitlementsPropertyList.dictionary(from: data, source: "Info.plist")
            Issue.record("decoded")
        } catch {
            #expect(error.reason.hasPrefix("is a binary property list of \(data.count) bytes whose shared references decode to more than 250000 values"),
                    "\(error)")
        }
    }

    /// Many references to one long string pass the value count but not the bytes.
    @Test func aLongStringReferredToOftenIsCountedInBytes() {
        let data = SharedReferencePropertyList.nested(count: 200, levels: 2, leaf: String(repeating: "a", count: 300))
        #expect(throws: BinaryPropertyListSize.Problem.expandsPast(objects: 250_000, bytes: 8 << 20)) { try Self.measure(data) }
    }

    @Test func aCycleIsMalformed() {
        #expect(throws: BinaryPropertyListSize.Problem.malformed) { try Self.measure(SharedReferencePropertyList.cycle()) }
    }

    /// What Foundation writes (it shares equal strings) measures and decodes as before.
    @Test func foundationsOwnFilesPass() throws {
        let shared = (0..<50).map { _ in "applinks:example.com" }
        let dictionary: [String: Any] = ["com.apple.developer.associated-domains": shared, "application-identifier": "A.b"]
        let data = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
        #expect(try Self.measure(data).objects == 1 + 2 + 2 + 50)
        let entitlements = try EntitlementsPropertyList.entitlements(from: data, source: "x", kind: .binaryPropertyList)
        #expect(entitlements.associatedDomains?.count == 50)
    }

    /// Cut, or with a reference or count past the end: malformed, never a read outside the bytes.
    @Test func everyPrefixAndEveryByteFlipIsAnAnswerNotATrap() throws {
        let data = [UInt8](SharedReferencePropertyList.nested(count: 20))
        for length in 0..<data.count {
            _ = try? Self.measure(Data(data.prefix(length)))
        }
        for position in data.indices {
            for value: UInt8 in [0x00, 0x0F, 0x7F, 0xFF] {
                var changed = data
                changed[position] = value
                _ = try? Self.measure(Data(changed))
            }
        }
        #expect(throws: BinaryPropertyListSize.Problem.malformed) { try Self.measure(Data(data.prefix(data.count - 1))) }
    }

    @Test func aSmallLimitIsALimit() {
        let data = [UInt8](SharedReferencePropertyList.nested(count: 10, levels: 2))
        #expect(throws: BinaryPropertyListSize.Problem.expandsPast(objects: 100, bytes: 1000)) {
            try BinaryPropertyListSize.measure(data, maxObjects: 100, maxBytes: 1000)
        }
        #expect(throws: Never.self) { try BinaryPropertyListSize.measure(data, maxObjects: 113, maxBytes: 1000) }
    }
}

/// The smaller items of the third round: an OpenStep Info.plist, a member linked out of the bundle.
@Suite struct BundleOddityTests {
    @Test(arguments: ["{ CFBundleExecutable = App }", "\u{FEFF}  ( a, b )", "\n{ CFBundleExecutable = \"App\"; }"])
    func anOpenStepPropertyListIsRefusedBeforeFoundationSeesIt(_ text: String) {
        #expect(throws: EntitlementsReadError(source: "Info.plist", reason: "is an OpenStep (old-style text) property list, which aasa-audit does not read "
                                              + "(a built app's property lists are XML or binary; plutil -convert xml1 converts one)")) {
            try EntitlementsPropertyList.dictionary(from: Data(text.utf8), source: "Info.plist")
        }
    }

    @Test func aMemberLinkedOutOfTheBundleIsNotReadNorShown() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let secret = folder.appendingPathComponent("secret.txt")
        try Data("Zsecret outside the bundle".utf8).write(to: secret)
        let app = folder.appendingPathComponent("App.app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: app.appendingPathComponent("Info.plist").path, withDestinationPath: "../secret.txt")
        do {
            _ = try EntitlementsFile.read(at: app.path)
            Issue.record("read through the link")
        } catch {
            #expect(error == EntitlementsReadError(source: app.path + ": Info.plist",
                                                   reason: "is a symbolic link to a file outside the bundle, so it is not read (codesign refuses to sign such a bundle)"))
            #expect(!error.description.contains("Z"))
        }
        // A link that stays inside the bundle is read as before.
        let inside = try AppBundleFixture(executable: MachOImage.thin(entitlements: MachOImage.entitlementsPropertyList(applicationIdentifier: "A.b")).bytes)
            .writeApp(in: folder.appendingPathComponent("inside"))
        try FileManager.default.moveItem(at: inside.appendingPathComponent("Info.plist"), to: inside.appendingPathComponent("Real.plist"))
        try FileManager.default.createSymbolicLink(atPath: inside.appendingPathComponent("Info.plist").path, withDestinationPath: "Real.plist")
        #expect(try EntitlementsFile.read(at: inside.path).applicationIdentifier == "A.b")
    }

    @Test func anArchiveStopsBeingReadWhenAskedTo() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let ipa = folder.appendingPathComponent("App.ipa")
        try ZipArchiveWriter.write([.init("Payload/"), .init("Payload/App.app/"), .init("Payload/App.app/Info.plist", Data("<plist/>".utf8))], to: ipa)
        #expect(throws: EntitlementsReadError(source: ipa.path, reason: "was not read to its end: stopped by a signal")) {
            try EntitlementsFile.read(at: ipa.path, limits: .standard, stopped: { true })
        }
    }

    /// Many members directly in Payload/: one pass, the first five named and the rest counted.
    @Test func manyMembersAreListedOnceInOrder() throws {
        let folder = try AuditBinary.temporaryDirectory()
        let ipa = folder.appendingPathComponent("Many.ipa")
        try ZipArchiveWriter.write([.init("Payload/")] + (0..<3000).map { .init("Payload/f\($0 % 1500)/x\($0)", stored: true) }, to: ipa)
        #expect(throws: EntitlementsReadError(source: ipa.path, reason: "holds no Payload/NAME.app/ folder (Payload/ holds f0/, f1/, f2/, f3/, f4/ and 1495 more)")) {
            try EntitlementsFile.read(at: ipa.path)
        }
    }
}
