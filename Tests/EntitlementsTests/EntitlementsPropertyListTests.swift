import Foundation
import Testing

@testable import Entitlements

@Suite struct EntitlementsPropertyListTests {
    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>application-identifier</key>
            <string>ABQ7KM3X2P.com.exemplo.app</string>
            <key>com.apple.developer.team-identifier</key>
            <string>ABQ7KM3X2P</string>
            <key>com.apple.developer.associated-domains</key>
            <array>
                <string>applinks:example.com</string>
                <string>webcredentials:*.example.com?mode=developer</string>
                <integer>7</integer>
            </array>
        </dict>
        </plist>
        """

    @Test func readsTheKeysOfAnXMLPropertyList() throws {
        let entitlements = try EntitlementsPropertyList.entitlements(from: Data(Self.xml.utf8), source: "App.entitlements", kind: .xmlPropertyList)
        #expect(entitlements.applicationIdentifier == "ABQ7KM3X2P.com.exemplo.app")
        #expect(entitlements.teamIdentifier == "ABQ7KM3X2P")
        #expect(entitlements.associatedDomains == [.text("applinks:example.com"), .text("webcredentials:*.example.com?mode=developer"), .other(type: "a number")])
    }

    @Test func readsABinaryPropertyListMadeHere() throws {
        let dictionary: [String: Any] = [
            "com.apple.application-identifier": "ABQ7KM3X2P.com.exemplo.mac",
            "com.apple.developer.associated-domains": ["applinks:example.org"],
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
        #expect(EntitlementsPropertyList.kind(of: data) == .binaryPropertyList)
        let entitlements = try EntitlementsPropertyList.entitlements(from: data, source: "x.xcent", kind: .binaryPropertyList)
        #expect(entitlements.applicationIdentifier == "ABQ7KM3X2P.com.exemplo.mac")
        #expect(entitlements.associatedDomains == [.text("applinks:example.org")])
    }

    /// A broken binary property list says so, not Foundation's "Unexpected character b at line 1".
    @Test func brokenBinaryPropertyListSaysWhatItIs() throws {
        let dictionary: [String: Any] = ["com.apple.developer.associated-domains": ["applinks:example.org"]]
        let data = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
        #expect(throws: EntitlementsReadError(source: "t.xcent", reason: "is a binary property list (it starts with bplist00) that cannot be decoded: "
                                              + "it is truncated, corrupt or nested too deeply")) {
            try EntitlementsPropertyList.dictionary(from: data.prefix(data.count / 2), source: "t.xcent")
        }
    }

    @Test func absentKeyIsNilNotEmpty() throws {
        let xml = #"<?xml version="1.0"?><plist version="1.0"><dict><key>get-task-allow</key><true/></dict></plist>"#
        let entitlements = try EntitlementsPropertyList.entitlements(from: Data(xml.utf8), source: "a", kind: .xmlPropertyList)
        #expect(entitlements.associatedDomains == nil)
        #expect(entitlements.applicationIdentifier == nil)
    }

    @Test func wrongTypesAreNamedWithTheirKey() {
        let xml = #"<?xml version="1.0"?><plist version="1.0"><dict><key>com.apple.developer.associated-domains</key><dict/></dict></plist>"#
        #expect(throws: EntitlementsReadError(source: "a", reason: "the com.apple.developer.associated-domains entitlement is a dictionary, not an array of strings")) {
            try EntitlementsPropertyList.entitlements(from: Data(xml.utf8), source: "a", kind: .xmlPropertyList)
        }
        let array = #"<?xml version="1.0"?><plist version="1.0"><array/></plist>"#
        #expect(throws: EntitlementsReadError(source: "b", reason: "is a property list whose top level is an array, not a dictionary")) {
            try EntitlementsPropertyList.dictionary(from: Data(array.utf8), source: "b")
        }
    }

    @Test func brokenXMLIsAnErrorNotACrash() {
        #expect(throws: EntitlementsReadError.self) {
            try EntitlementsPropertyList.entitlements(from: Data("<?xml version=\"1.0\"?><plist><dict><key>a</key>".utf8), source: "c", kind: .xmlPropertyList)
        }
    }

    @Test func fileReaderRefusesWhatIsNotAPropertyList() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("entitlements-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist = directory.appendingPathComponent("App.entitlements")
        try Data(Self.xml.utf8).write(to: plist)
        #expect(try EntitlementsFile.read(at: plist.path).kind == .xmlPropertyList)
        let text = directory.appendingPathComponent("notes.txt")
        try Data("applinks:example.com\n".utf8).write(to: text)
        #expect(throws: EntitlementsReadError.self) { try EntitlementsFile.read(at: text.path) }
        let empty = directory.appendingPathComponent("Empty.entitlements")
        try Data().write(to: empty)
        #expect(throws: EntitlementsReadError(source: empty.path, reason: "is empty (0 bytes): an entitlements file is a property list")) {
            try EntitlementsFile.read(at: empty.path)
        }
        #expect(throws: EntitlementsReadError(source: directory.path + "/missing", reason: "no such file or folder")) {
            try EntitlementsFile.read(at: directory.path + "/missing")
        }
    }
}

@Suite struct ApplicationIdentifierKeysTests {
    static func plist(_ body: String) -> Data {
        Data(#"<?xml version="1.0"?><plist version="1.0"><dict>\#(body)</dict></plist>"#.utf8)
    }

    @Test func bothKeysAgreeingAreOneAppID() throws {
        let data = Self.plist("<key>application-identifier</key><string>ABQ7KM3X2P.com.exemplo.app</string>"
                              + "<key>com.apple.application-identifier</key><string>ABQ7KM3X2P.com.exemplo.app</string>")
        let entitlements = try EntitlementsPropertyList.entitlements(from: data, source: "a", kind: .xmlPropertyList)
        #expect(entitlements.applicationIdentifier == "ABQ7KM3X2P.com.exemplo.app")
    }

    @Test func bothKeysNamingTwoAppsIsAnError() {
        let data = Self.plist("<key>application-identifier</key><string>ABQ7KM3X2P.com.exemplo.app</string>"
                              + "<key>com.apple.application-identifier</key><string>ABQ7KM3X2P.com.exemplo.mac</string>")
        #expect(throws: EntitlementsReadError(source: "a", reason: "its application-identifier entitlement is ABQ7KM3X2P.com.exemplo.app "
                                                + "but its com.apple.application-identifier is ABQ7KM3X2P.com.exemplo.mac; an app has one app ID")) {
            try EntitlementsPropertyList.entitlements(from: data, source: "a", kind: .xmlPropertyList)
        }
    }
}
