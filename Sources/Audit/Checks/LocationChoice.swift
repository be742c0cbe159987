import AASA

/// Decides the domain's verdict the way Apple reads the two locations: `.well-known` first, and it
/// takes precedence (Apple DTS); the legacy root location is only a fallback when `.well-known`
/// does not answer 200. A `.well-known` that answers 200 with an unusable body is taken as the answer
/// (derived: Apple documents no fallback past a 200), so the domain fails even if the root copy is good.
public enum LocationChoice {
    /// The check's stable id, stored in each of its findings (`Finding.check`).
    public static let id = "location-choice"
    public static let rootOnly = Rule("http.root-only", .warning,
        meaning: "Only the legacy root location serves a valid file; Apple falls back to it, but the documented location is /.well-known/.",
        fix: "Serve the same file at /.well-known/apple-app-site-association.")
    public static let locationsDiffer = Rule("http.locations-differ", .warning,
        meaning: "Both locations serve valid files but their contents differ; Apple uses the /.well-known/ one.",
        fix: "Serve the same file at both locations, or remove the outdated root copy.")
    public static let wellKnownShadowsRoot = Rule("http.well-known-unusable", .error,
        meaning: "/.well-known/ answers 200 with an unusable file while the root copy is valid; Apple takes the /.well-known/ answer and does not fall back.",
        fix: "Fix or remove the file at /.well-known/apple-app-site-association; the valid root copy is the one to serve there.")

    public static let rules = [rootOnly, locationsDiffer, wellKnownShadowsRoot]

    /// The outcome for a domain.
    public struct Outcome: Sendable, Equatable {
        public var verdict: Verdict
        public var usedLocation: String?
        public var findings: [Finding]
    }

    /// Decides from the two checked locations (`.well-known` first).
    public static func decide(wellKnown: (result: LocationResult, fetched: FetchedLocation),
                              root: (result: LocationResult, fetched: FetchedLocation)) -> Outcome {
        let wellKnownValid = wellKnown.result.verdict != .fail
        let rootValid = root.result.verdict != .fail
        if wellKnownValid {
            var findings: [Finding] = []
            if rootValid, let first = wellKnown.fetched.validation?.root, let second = root.fetched.validation?.root, first != second {
                findings.append(locationsDiffer.finding(
                    "\(root.result.url) serves a different file from \(wellKnown.result.url); Apple uses the /.well-known/ one."))
            }
            return Outcome(verdict: worst(wellKnown.result.verdict, Verdict(findings: findings)),
                           usedLocation: wellKnown.result.path, findings: findings)
        }
        if wellKnown.result.httpStatus == 200 && wellKnown.fetched.gotResponse {
            let findings = rootValid
                ? [wellKnownShadowsRoot.finding("\(wellKnown.result.url) answers 200 with an unusable file, so Apple never reads the valid copy at \(root.result.url).")]
                : []
            return Outcome(verdict: .fail, usedLocation: nil, findings: findings)
        }
        if rootValid {
            let findings = [rootOnly.finding("\(wellKnown.result.url) does not serve the file; Apple falls back to \(root.result.url), which does.")]
            return Outcome(verdict: worst(.warn, root.result.verdict), usedLocation: root.result.path, findings: findings)
        }
        return Outcome(verdict: .fail, usedLocation: nil, findings: [])
    }

    static func worst(_ a: Verdict, _ b: Verdict) -> Verdict {
        if a == .fail || b == .fail { return .fail }
        if a == .warn || b == .warn { return .warn }
        return .pass
    }
}
