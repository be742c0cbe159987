@testable import AASA
import Testing

/// One expected finding: id, severity, pointer, and a piece of text its message must contain.
struct ExpectedServiceFinding: Sendable, CustomTestStringConvertible {
    let id: String
    let severity: Severity
    let pointer: String
    let mentions: String
    var testDescription: String { "\(id) at \"\(pointer)\"" }
}

/// Shorthand for the tables of the service, app list and details check tests.
func expect(_ id: String, _ severity: Severity, _ pointer: String, _ mentions: String) -> ExpectedServiceFinding {
    ExpectedServiceFinding(id: id, severity: severity, pointer: pointer, mentions: mentions)
}
