import Audit
import Testing
@testable import Arguments

@Suite struct EntitlementsOptionsTests {
    @Test func eachAppIDBindsToTheNearestEntitlementsBefore() throws {
        let options = try AuditOptionsTests.parse([
            "--entitlements", "A.entitlements", "--app-id", "ABCDE12345.com.example.a", "--domains", "d.txt",
            "--entitlements", "B.xcent", "example.com", "--entitlements=C.entitlements", "--app-id=ZZZZZ99999.com.example.c",
        ])
        #expect(options.entitlements == [
            EntitlementsInput(path: "A.entitlements", appID: "ABCDE12345.com.example.a"),
            EntitlementsInput(path: "B.xcent"),
            EntitlementsInput(path: "C.entitlements", appID: "ZZZZZ99999.com.example.c"),
        ])
        #expect(options.domains == ["example.com"] && options.domainsFile == "d.txt")
    }

    @Test func includeDevelopmentReachesTheAuditSettings() throws {
        #expect(try AuditOptionsTests.parse(["--entitlements", "A.entitlements"]).auditSettings.includeDevelopment == false)
        #expect(try AuditOptionsTests.parse(["--entitlements", "A.entitlements", "--include-development"]).auditSettings.includeDevelopment)
    }

    @Test func misuseIsAnError() {
        func message(_ arguments: [String]) -> String {
            do {
                _ = try AuditOptionsTests.parse(arguments)
                return ""
            } catch {
                return error.description
            }
        }
        #expect(message(["--app-id", "ABCDE12345.com.example.a"]).contains("name the file first"))
        #expect(message(["--entitlements", "A", "--app-id", "ABCDE12345.com.a", "--app-id", "ABCDE12345.com.b"]).contains("already has --app-id"))
        #expect(message(["--entitlements", "A", "--app-id", "abc.com.a"]).contains("not a Team ID"))
        #expect(message(["--entitlements"]).contains("needs a value"))
    }
}
