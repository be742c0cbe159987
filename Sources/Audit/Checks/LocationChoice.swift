import AASA

/// Decides which location Apple takes the file from, and the domain's verdict, the way Apple reads
/// the two locations: `.well-known` first, and it takes precedence (Apple DTS); the legacy root
/// location is only a fallback when `.well-known` does not answer 200. What counts is whether Apple
/// can read a document there (`LocationResult.usable`, `LocationUsability`), not the verdict: a file
/// Apple reads is the file Apple uses, even when some of its entries are broken (the domain then fails
/// on those entries). A `.well-known` that answers 200 with a body Apple cannot read is taken as the
/// answer (derived: Apple documents no fallback past a 200), so the domain fails even if the root copy
/// is readable.
public enum LocationChoice {
    /// The check's stable id, stored in each of its findings (`Finding.check`).
    public static let id = "location-choice"
    public static let rootOnly = Rule("http.root-only", .warning, check: id,
        meaning: "Only the legacy root location serves a file Apple can read; Apple falls back to it, but the documented location is /.well-known/.",
        fix: "Serve the same file at /.well-known/apple-app-site-association.")
    public static let locationsDiffer = Rule("http.locations-differ", .warning, check: id,
        meaning: "Both locations serve files Apple can read but their contents differ; Apple uses the /.well-known/ one.",
        fix: "Serve the same file at both locations, or remove the outdated root copy.")
    public static let wellKnownShadowsRoot = Rule("http.well-known-unusable", .error, check: id,
        meaning: "/.well-known/ answers 200 with a body Apple cannot read while the root location serves a file it can; Apple takes the /.well-known/ answer and does not fall back.",
        fix: "Fix or remove the file at /.well-known/apple-app-site-association; the readable root copy is the one to serve there.")

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
        let wellKnownUsable = wellKnown.result.usable
        let rootUsable = root.result.usable
        if wellKnownUsable {
            var findings: [Finding] = []
            if rootUsable, let first = wellKnown.fetched.validation?.root, let second = root.fetched.validation?.root, first != second {
                findings.append(locationsDiffer.finding(
                    "\(root.result.url) serves a different file from \(wellKnown.result.url); Apple uses the /.well-known/ one."))
            }
            return Outcome(verdict: Verdict.worst(wellKnown.result.verdict, Verdict(findings: findings)),
                           usedLocation: wellKnown.result.path, findings: findings)
        }
        if wellKnown.result.httpStatus == 200 && wellKnown.fetched.gotResponse {
            let cause = LocationUsability.causes(in: wellKnown.result.findings).first.map { " (\($0.id))" } ?? ""
            let findings = rootUsable
                ? [wellKnownShadowsRoot.finding("\(wellKnown.result.url) answers 200 with a body Apple cannot read\(cause), so Apple never reads the readable copy at \(root.result.url).")]
                : []
            return Outcome(verdict: .fail, usedLocation: nil, findings: findings)
        }
        if rootUsable {
            let findings = [rootOnly.finding("\(wellKnown.result.url) does not serve the file; Apple falls back to \(root.result.url), which does.")]
            return Outcome(verdict: Verdict.worst(.warn, root.result.verdict), usedLocation: root.result.path, findings: findings)
        }
        return Outcome(verdict: .fail, usedLocation: nil, findings: [])
    }

    /// What a location is to Apple, from the choice made above (`usedLocation`) and whether Apple can
    /// read it: the one rule behind `LocationResult.role`, for a fresh result and for an older
    /// report that did not record it alike.
    public static func role(path: String, usable: Bool, usedLocation: String?) -> LocationRole {
        if path == AssetLinksFile.path { return .readByAndroid }
        if path == usedLocation { return .usedByApple }
        // Apple uses the other location: this one is the root behind a working .well-known, or the
        // .well-known Apple could not read and fell back from.
        if usedLocation != nil { return path == AASAFile.rootPath ? .fallbackNotRead : .unreadableFallsBack }
        // Apple uses neither: a readable one is shadowed by an unreadable 200 at .well-known.
        return usable ? .shadowed : .unreadable
    }
}

extension LocationChoice: DomainCheck {
    /// The choice's findings. The choice itself is made before the domain checks run
    /// (`DomainCheckContext.choice`): each of them reads the location Apple uses.
    public static func check(_ context: DomainCheckContext) -> DomainCheckOutput {
        DomainCheckOutput(findings: context.choice.findings)
    }
}
