import Foundation

/// An application identifier, `TEAMID.bundle.id`: a 10-character Team ID (or older App ID prefix), a
/// dot and the bundle ID. Pure.
public struct AppIdentifier: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// The 10-character Team ID (upper-case letters and digits).
    public var teamID: String
    /// The bundle ID (letters, digits, `-` and `.`).
    public var bundleID: String

    public init(teamID: String, bundleID: String) {
        self.teamID = teamID
        self.bundleID = bundleID
    }

    /// `TEAMID.bundle.id`.
    public var description: String { teamID + "." + bundleID }

    /// Whether `text` still holds an unresolved build-setting variable (`$(AppIdentifierPrefix)`, `${...}`).
    public static func hasVariable(_ text: String) -> Bool {
        text.contains("$(") || text.contains("${")
    }

    /// Whether `candidate` is what Xcode could make of `template`, an app ID written with build-setting
    /// variables (`$(AppIdentifierPrefix)com.example.app`, `$(TeamIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)`):
    /// the text outside the variables must appear as written; `$(AppIdentifierPrefix)` and
    /// `$(TeamIdentifierPrefix)` stand for a 10-character prefix and its dot (`ABCDE12345.`), any other
    /// variable for at least one character. A template without variables matches only itself.
    public static func matches(template: String, _ candidate: String) -> Bool {
        var pattern = "^"
        var rest = template[...]
        while let start = rest.range(of: "$(") ?? rest.range(of: "${") {
            let close: Character = rest[start.lowerBound...].hasPrefix("$(") ? ")" : "}"
            guard let end = rest[start.upperBound...].firstIndex(of: close) else { break }
            pattern += NSRegularExpression.escapedPattern(for: String(rest[..<start.lowerBound]))
            let name = rest[start.upperBound..<end]
            pattern += name == "AppIdentifierPrefix" || name == "TeamIdentifierPrefix" ? "[A-Z0-9]{10}\\." : ".+"
            rest = rest[rest.index(after: end)...]
        }
        pattern += NSRegularExpression.escapedPattern(for: String(rest)) + "$"
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return template == candidate }
        return expression.firstMatch(in: candidate, range: NSRange(candidate.startIndex..., in: candidate)) != nil
    }

    /// Parses `TEAMID.bundle.id`; the error says what is wrong with it.
    public static func parse(_ text: String) throws(AppIdentifierError) -> AppIdentifier {
        if hasVariable(text) {
            throw AppIdentifierError(text: text, reason: "it holds an unresolved build-setting variable")
        }
        guard let dot = text.firstIndex(of: ".") else {
            throw AppIdentifierError(text: text, reason: "no dot; an app ID is the 10-character Team ID, a dot and the bundle ID (<TeamID>.com.yourcompany.app)")
        }
        let team = String(text[..<dot])
        let bundle = String(text[text.index(after: dot)...])
        guard team.count == 10, team.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) }) else {
            throw AppIdentifierError(text: text, reason: "\"\(team)\" is not a Team ID (10 upper-case letters and digits)")
        }
        guard !bundle.isEmpty, !bundle.hasPrefix("."), !bundle.hasSuffix("."),
              bundle.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "." })
        else {
            throw AppIdentifierError(text: text, reason: "\"\(bundle)\" is not a bundle ID (letters, digits, \"-\" and \".\", e.g. com.yourcompany.app)")
        }
        return AppIdentifier(teamID: team, bundleID: bundle)
    }
}

/// An application identifier that cannot be used.
public struct AppIdentifierError: Error, Sendable, Equatable, CustomStringConvertible {
    public var text: String
    public var reason: String
    public var description: String { "\"\(text)\" is not an app ID: \(reason)" }
}
