import Audit
import Testing
@testable import Arguments

@Suite struct EntitlementsOptionsTests {
    @Test func eachAppIDBindsToTheNearestEntitlementsBefore() throws {
        let options = try AuditOptionsTests.parse([
            "--entitlements", "A.entitlements", "--app-id", "ABQ7KM3X2P.com.exemplo.a", "--domains", "d.txt",
            "--entitlements", "B.xcent", "example.com", "--entitlements=C.entitlements", "--app-id=ZZZZZ99999.com.exemplo.c",
        ])
        #expect(options.entitlements == [
            EntitlementsInput(path: "A.entitlements", appID: "ABQ7KM3X2P.com.exemplo.a"),
            EntitlementsInput(path: "B.xcent"),
            EntitlementsInput(path: "C.entitlements", appID: "ZZZZZ99999.com.exemplo.c"),
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
        #expect(message(["--app-id", "ABQ7KM3X2P.com.exemplo.a"]).contains("name the file first"))
        #expect(message(["--entitlements", "A", "--app-id", "ABQ7KM3X2P.com.a", "--app-id", "ABQ7KM3X2P.com.b"]).contains("already has --app-id"))
        #expect(message(["--entitlements", "A", "--app-id", "abc.com.a"]).contains("not a Team ID"))
        #expect(message(["--entitlements"]).contains("needs a value"))
    }
}
