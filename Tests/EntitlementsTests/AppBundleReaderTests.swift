import Foundation
import Testing
import TestSupport

@testable import Entitlements

/// Built apps, `.ipa`s and provisioning profiles, all made by the test: Mach-O images by `MachOImage`,
/// bundles by `AppBundleFixture`, zips by libzip (`ZipArchiveWriter`), profiles by `openssl cms -sign`.
@Suite struct AppBundleReaderTests {
    static let plist = MachOImage.entitlementsPropertyList(
        applicationIdentifier: "ABQ7KM3X2P.com.exemplo.app", teamIdentifier: "ABQ7KM3X2P", associatedDomains: ["applinks:example.com"])
    static let executable = MachOImage.thin(entitlements: plist).bytes

    /// A fresh folder, removed when `body` returns.
    static func inScratch<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitlements-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    /// A provisioning profile signed with `openssl cms -sign` by a throw-away certificate.
    static func signedProfile(in folder: URL, teamIdentifiers: [String] = ["ABQ7KM3X2P"]) throws -> Data {
        let authority = try TestCertificateAuthority(directory: folder.appendingPathComponent("ca"))
        let signer = try authority.selfSigned(name: "Apple Development: Test (ABQ7KM3X2P)")
        let content = try AppBundleFixture.profilePropertyList(
            name: "Example Development", teamIdentifiers: teamIdentifiers, applicationIdentifier: "ABQ7KM3X2P.com.exemplo.app",
            associatedDomains: ["*"], expiration: Date(timeIntervalSince1970: 1_900_000_000))
        return try authority.signCMS(content: content, signer: signer)
    }

    static func failure(_ path: String, limits: EntitlementsReadLimits = .standard) -> EntitlementsReadError? {
        do {
            _ = try EntitlementsFile.read(at: path, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func readsAThinAndAUniversalExecutableFile() throws {
        try Self.inScratch { folder in
            let thin = folder.appendingPathComponent("App")
            try Self.executable.write(to: thin)
            let read = try EntitlementsFile.read(at: thin.path)
            #expect(read == AppEntitlements(source: thin.path, kind: .machO, applicationIdentifier: "ABQ7KM3X2P.com.exemplo.app",
                                            teamIdentifier: "ABQ7KM3X2P", associatedDomains: [.text("applinks:example.com")]))
            let fat = folder.appendingPathComponent("Universal")
            try MachOImage.universal([(.x86_64, MachOImage.thin(entitlements: Self.plist, cpu: .x86_64)), (.arm64, MachOImage.thin(entitlements: Self.plist))])
                .bytes.write(to: fat)
            #expect(try EntitlementsFile.read(at: fat.path).applicationIdentifier == "ABQ7KM3X2P.com.exemplo.app")
            let unsigned = folder.appendingPathComponent("Unsigned")
            try MachOImage.thin(entitlements: nil, signed: false).bytes.write(to: unsigned)
            #expect(Self.failure(unsigned.path)?.reason.contains("not signed (no LC_CODE_SIGNATURE load command)") == true)
            let java = folder.appendingPathComponent("Main.class")
            try Data([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 0x34] + [UInt8](repeating: 0, count: 100)).write(to: java)
            #expect(Self.failure(java.path)?.reason == "is not a property list (.entitlements, .xcent), a Mach-O executable, a .app folder or an .ipa")
        }
    }

    @Test(arguments: [(AppBundleFixture.Layout.iOS, false), (.iOS, true), (.macOS, false), (.macOS, true)])
    func readsAnAppFolderWithItsProfile(layout: AppBundleFixture.Layout, binaryInfoPlist: Bool) throws {
        try Self.inScratch { folder in
            let profile = try Self.signedProfile(in: folder)
            let app = try AppBundleFixture(layout: layout, executable: Self.executable, binaryInfoPlist: binaryInfoPlist, profile: profile)
                .writeApp(in: folder)
            let read = try EntitlementsFile.read(at: app.path)
            #expect(read.kind == .appBundle)
            #expect(read.source == app.path + (layout == .iOS ? ": App" : ": Contents/MacOS/App"))
            #expect(read.applicationIdentifier == "ABQ7KM3X2P.com.exemplo.app")
            #expect(read.associatedDomains == [.text("applinks:example.com")])
            let profileName = layout == .iOS ? "embedded.mobileprovision" : "Contents/embedded.provisionprofile"
            #expect(read.profile == ProvisioningProfile(
                source: app.path + ": " + profileName, name: "Example Development", teamIdentifiers: ["ABQ7KM3X2P"],
                applicationIdentifier: "ABQ7KM3X2P.com.exemplo.app", associatedDomains: [.text("*")],
                expirationDate: Date(timeIntervalSince1970: 1_900_000_000)))
            #expect(read.profileProblem == nil)
        }
    }

    @Test func aSimulatorBuildIsReadFromItsXcentAndSaysSo() throws {
        try Self.inScratch { folder in
            let app = try AppBundleFixture(executable: MachOImage.thin(entitlements: nil).bytes, expandedEntitlements: Self.plist).writeApp(in: folder)
            let read = try EntitlementsFile.read(at: app.path)
            #expect(read.source == "\(app.path): archived-expanded-entitlements.xcent (the executable App has no entitlements blob in its code signature, as in a simulator build)")
            #expect(read.applicationIdentifier == "ABQ7KM3X2P.com.exemplo.app")
            let unsigned = try AppBundleFixture(name: "Unsigned", executable: MachOImage.thin(entitlements: nil, signed: false).bytes,
                                                expandedEntitlements: Self.plist).writeApp(in: folder)
            #expect(try EntitlementsFile.read(at: unsigned.path).source
                == "\(unsigned.path): archived-expanded-entitlements.xcent (the executable Unsigned is not signed, so the entitlements are read from the file Xcode leaves beside it)")
            let bare = try AppBundleFixture(name: "Bare", executable: MachOImage.thin(entitlements: nil, signed: false).bytes).writeApp(in: folder)
            #expect(Self.failure(bare.path) == EntitlementsReadError(source: "\(bare.path): Bare", reason:
                "is not signed (no LC_CODE_SIGNATURE load command) and the bundle has no archived-expanded-entitlements.xcent: the app carries no entitlements to read"))
        }
    }

    @Test func aBrokenProfileIsANoteAndTheAppIsStillRead() throws {
        try Self.inScratch { folder in
            var corrupt = [UInt8](try Self.signedProfile(in: folder))
            corrupt.removeLast(corrupt.count / 2)
            let app = try AppBundleFixture(executable: Self.executable, profile: Data(corrupt)).writeApp(in: folder)
            let read = try EntitlementsFile.read(at: app.path)
            #expect(read.applicationIdentifier == "ABQ7KM3X2P.com.exemplo.app")
            #expect(read.profile == nil)
            let problem = try #require(read.profileProblem)
            #expect(problem.source == app.path + ": embedded.mobileprovision")
            #expect(problem.reason.hasPrefix("is not a CMS (PKCS #7) signed file"))
        }
    }

    @Test func anInfoPlistThatPointsElsewhereIsRefused() throws {
        try Self.inScratch { folder in
            for entry in ["../App", "", "/etc/passwd"] {
                let app = try AppBundleFixture(name: "Odd", executable: Self.executable, executableEntry: entry).writeApp(in: folder)
                #expect(Self.failure(app.path)?.reason == "has a CFBundleExecutable (\"\(entry)\") that is not a file name in the bundle's own folder",
                        "CFBundleExecutable \(entry)")
            }
            let missing = try AppBundleFixture(name: "Gone", executable: Self.executable, executableEntry: "Other").writeApp(in: folder)
            #expect(Self.failure(missing.path) == EntitlementsReadError(source: missing.path + ": Other", reason: "is named by CFBundleExecutable but is not in the bundle"))
            let plain = folder.appendingPathComponent("plain")
            try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
            #expect(Self.failure(plain.path)?.reason == "holds no Info.plist (an iOS app) or Contents/Info.plist (a macOS app)")
        }
    }

    @Test(arguments: [false, true])
    func readsAnIPAMadeWithLibzip(stored: Bool) throws {
        try Self.inScratch { folder in
            let profile = try Self.signedProfile(in: folder, teamIdentifiers: ["OLDTEAM999"])
            let fat = MachOImage.universal([(.arm64, MachOImage.thin(entitlements: Self.plist)), (.x86_64, MachOImage.thin(entitlements: Self.plist, cpu: .x86_64))])
            let fixture = AppBundleFixture(executable: fat.bytes, binaryInfoPlist: true, profile: profile)
            let ipa = folder.appendingPathComponent("App.ipa")
            try ZipArchiveWriter.write(try fixture.ipaEntries().map { ZipArchiveWriter.Entry($0.name, $0.bytes, stored: stored) }
                + [ZipArchiveWriter.Entry("iTunesMetadata.plist", Data("x".utf8))], to: ipa)
            let read = try EntitlementsFile.read(at: ipa.path)
            #expect(read.kind == .ipa)
            #expect(read.source == ipa.path + ": Payload/App.app/App")
            #expect(read.applicationIdentifier == "ABQ7KM3X2P.com.exemplo.app")
            #expect(read.profile?.teamIdentifiers == ["OLDTEAM999"])
            #expect(read.profile?.source == ipa.path + ": Payload/App.app/embedded.mobileprovision")
        }
    }

    @Test func anIPAMustHoldExactlyOneApp() throws {
        try Self.inScratch { folder in
            let app = AppBundleFixture(executable: Self.executable)
            let two = folder.appendingPathComponent("two.ipa")
            try app.writeIPA(to: two, extra: try AppBundleFixture(name: "Other", executable: Self.executable).ipaEntries())
            #expect(Self.failure(two.path)?.reason == "holds 2 apps under Payload/ (App.app, Other.app), not one")
            let noApp = folder.appendingPathComponent("noapp.ipa")
            try ZipArchiveWriter.write([.init("Payload/App/Info.plist", Data("x".utf8)), .init("Payload/readme.txt", Data("x".utf8))], to: noApp)
            #expect(Self.failure(noApp.path)?.reason == "holds no Payload/NAME.app/ folder (Payload/ holds App/, readme.txt)")
            let plainZip = folder.appendingPathComponent("plain.zip")
            try ZipArchiveWriter.write([.init("App.app/Info.plist", Data("x".utf8))], to: plainZip)
            #expect(Self.failure(plainZip.path)?.reason == "is a zip without a Payload/ folder, so not an .ipa (it holds App.app)")
            let empty = folder.appendingPathComponent("empty.ipa")
            try ZipArchiveWriter.write([.init("Payload/")], to: empty)
            #expect(Self.failure(empty.path)?.reason == "holds no Payload/NAME.app/ folder (Payload/ holds nothing)")
        }
    }

    @Test func membersAreReadWithinTheirLimits() throws {
        try Self.inScratch { folder in
            // An Info.plist of 5 MB of white space deflates to a few KB: its declared size is refused before it is read.
            var fixture = AppBundleFixture(executable: Self.executable)
            let ipa = folder.appendingPathComponent("big.ipa")
            try ZipArchiveWriter.write(try fixture.ipaEntries().map { entry in
                entry.name.hasSuffix("Info.plist") ? ZipArchiveWriter.Entry(entry.name, entry.bytes + Data(repeating: 0x20, count: 5 << 20)) : entry
            }, to: ipa)
            let reason = Self.failure(ipa.path)?.reason ?? ""
            #expect(reason.contains("bytes as its zip header declares, more than the \(4 << 20) read for a property list"), "\(reason)")
            // The executable's declared size against its own limit.
            fixture.name = "Small"
            let small = folder.appendingPathComponent("small.ipa")
            try fixture.writeIPA(to: small)
            #expect(Self.failure(small.path, limits: EntitlementsReadLimits(archivedExecutableBytes: 100))?.reason
                == "is \(Self.executable.count) bytes as its zip header declares, more than the 100 read for an executable")
        }
    }

    /// The offset of the central-directory record of member `name` in a zip's bytes.
    static func centralRecord(of name: String, in bytes: [UInt8]) -> Int? {
        let signature: [UInt8] = [0x50, 0x4B, 0x01, 0x02]
        var at = 0
        while at + 46 <= bytes.count {
            if Array(bytes[at..<at + 4]) == signature {
                let nameLength = Int(bytes[at + 28]) | Int(bytes[at + 29]) << 8
                if at + 46 + nameLength <= bytes.count, String(decoding: bytes[at + 46..<at + 46 + nameLength], as: UTF8.self) == name { return at }
            }
            at += 1
        }
        return nil
    }

    @Test(arguments: [-1, 1])
    func aLyingZipHeaderIsAnError(delta: Int) throws {
        try Self.inScratch { folder in
            let ipa = folder.appendingPathComponent("lying.ipa")
            try AppBundleFixture(executable: Self.executable).writeIPA(to: ipa)
            var bytes = [UInt8](try Data(contentsOf: ipa))
            // The uncompressed size of Info.plist in the central directory (offset 24), one byte less or more than it is.
            let record = try #require(Self.centralRecord(of: "Payload/App.app/Info.plist", in: bytes))
            let size = Int(bytes[record + 24]) | Int(bytes[record + 25]) << 8 | Int(bytes[record + 26]) << 16 | Int(bytes[record + 27]) << 24
            let lie = UInt32(size + delta)
            bytes.replaceSubrange(record + 24..<record + 28, with: [UInt8(lie & 0xff), UInt8(lie >> 8 & 0xff), UInt8(lie >> 16 & 0xff), UInt8(lie >> 24)])
            try Data(bytes).write(to: ipa)
            let error = try #require(Self.failure(ipa.path))
            #expect(error.source == ipa.path + ": Payload/App.app/Info.plist")
            #expect(error.reason == (delta < 0 ? "inflates to more than the \(size - 1) bytes its zip header declares"
                : "ends after \(size) bytes, before the \(size + 1) its zip header declares"))
        }
    }

    @Test(arguments: [-100, 4096])
    func aLyingExecutableSizeIsAnError(delta: Int) throws {
        try Self.inScratch { folder in
            let image = MachOImage.thin(entitlements: Self.plist)
            let command = try #require(image.codeSignatureCommandOffset)
            // With a declared size 4 KB too large, a signature placed past the real end is within bounds: the stream must end first.
            let executable = delta > 0 ? MachOSignatureReaderTests.patched(image.bytes, at: command + 8, UInt32(image.bytes.count + 16)) : image.bytes
            let ipa = folder.appendingPathComponent("short.ipa")
            try AppBundleFixture(executable: executable).writeIPA(to: ipa)
            var bytes = [UInt8](try Data(contentsOf: ipa))
            let record = try #require(Self.centralRecord(of: "Payload/App.app/App", in: bytes))
            let size = Int(bytes[record + 24]) | Int(bytes[record + 25]) << 8
            let lie = UInt32(size + delta)
            bytes.replaceSubrange(record + 24..<record + 28, with: [UInt8(lie & 0xff), UInt8(lie >> 8 & 0xff), UInt8(lie >> 16 & 0xff), UInt8(lie >> 24)])
            try Data(bytes).write(to: ipa)
            let error = try #require(Self.failure(ipa.path))
            #expect(error.source == ipa.path + ": Payload/App.app/App")
            #expect(error.reason.contains(delta > 0 ? "ends after \(size) bytes, before the code signature's SuperBlob header and the \(size + delta) bytes its zip header declares" : "lies outside the image"), "\(error.reason)")
        }
    }

    @Test func aProfileIsReadAndACorruptOneIsAnError() throws {
        try Self.inScratch { folder in
            let profile = try Self.signedProfile(in: folder)
            let read = try ProvisioningProfileReader.profile(from: [UInt8](profile), source: "p")
            #expect(read.teamIdentifiers == ["ABQ7KM3X2P"])
            #expect(read.name == "Example Development")
            var flipped = [UInt8](profile)
            flipped[flipped.count / 3] ^= 0xff
            flipped[0] = 0x31
            #expect(throws: EntitlementsReadError.self) { try ProvisioningProfileReader.profile(from: flipped, source: "p") }
            #expect(throws: EntitlementsReadError(source: "p", reason: "is \(profile.count) bytes, more than the 100 read for a provisioning profile")) {
                try ProvisioningProfileReader.profile(from: [UInt8](profile), source: "p", limits: EntitlementsReadLimits(profileBytes: 100))
            }
            // A profile named on its own is told apart from entitlements.
            let file = folder.appendingPathComponent("embedded.mobileprovision")
            try profile.write(to: file)
            #expect(Self.failure(file.path)?.reason.hasPrefix("looks like a DER (CMS-signed) file such as a provisioning profile") == true)
        }
    }
}

extension AppBundleReaderTests {
    @Test func aPipeIsRefusedWithoutBeingOpened() throws {
        try Self.inScratch { folder in
            let pipe = folder.appendingPathComponent("App.entitlements")
            #expect(mkfifo(pipe.path, 0o600) == 0)
            #expect(Self.failure(pipe.path) == EntitlementsReadError(source: pipe.path, reason: "is a pipe (FIFO), not a regular file"))
            let app = try AppBundleFixture(executable: Self.executable).writeApp(in: folder)
            try FileManager.default.removeItem(at: app.appendingPathComponent("App"))
            #expect(mkfifo(app.appendingPathComponent("App").path, 0o600) == 0)
            #expect(Self.failure(app.path) == EntitlementsReadError(source: app.path + ": App", reason: "is named by CFBundleExecutable but is a pipe (FIFO), not a regular file"))
            // An Info.plist that is there but is a pipe is named as one, not called missing.
            try FileManager.default.removeItem(at: app.appendingPathComponent("Info.plist"))
            #expect(mkfifo(app.appendingPathComponent("Info.plist").path, 0o600) == 0)
            #expect(Self.failure(app.path) == EntitlementsReadError(source: app.path + ": Info.plist", reason: "is a pipe (FIFO), not a regular file"))
        }
    }
}

extension AppBundleReaderTests {
    /// A deflated executable is decompressed once: the reader never goes back past the bytes it has just read.
    @Test(arguments: [false, true])
    func anArchivedExecutableIsStreamedOnce(universal: Bool) throws {
        try Self.inScratch { folder in
            let executable = universal
                ? MachOImage.universal([(.arm64, MachOImage.thin(entitlements: Self.plist)), (.x86_64, MachOImage.thin(entitlements: Self.plist, cpu: .x86_64))]).bytes
                : Self.executable
            let ipa = folder.appendingPathComponent("App.ipa")
            try AppBundleFixture(executable: executable).writeIPA(to: ipa)
            let app = try ArchivedApp(archive: ZipArchive(path: ipa.path))
            let source = try app.byteSource("App", limits: .standard)
            #expect(try MachOSignatureReader.entitlements(in: source) == .propertyList(Self.plist))
            #expect((source as? ZipMemberByteSource)?.opens == 1)
            // Going back further than the last read reopens it, and still reads the right bytes.
            #expect(try source.read("the header", at: 0, count: 4) == [UInt8](executable.prefix(4)))
            #expect((source as? ZipMemberByteSource)?.opens == 2)
        }
    }
}
