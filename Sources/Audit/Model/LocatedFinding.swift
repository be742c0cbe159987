import Foundation

/// A finding as a reader sees it: one entry for what several locations of a domain report alike
/// (an expired certificate, a name that does not resolve), naming every location it was found at.
///
/// Deciding that two findings are "the same" is a judgement, so it is made here, once, for every
/// reporter (terminal, Markdown, HTML), rather than by each of them.
public struct LocatedFinding: Sendable, Equatable {
    /// The finding as reported at the first location it was found at.
    public var finding: Finding
    /// The paths of the locations that report it, in the domain's location order.
    public var locations: [String]

    public init(finding: Finding, locations: [String]) {
        self.finding = finding
        self.locations = locations
    }

    /// The findings of `locations`, in order of first appearance, with the findings that are the same
    /// at several locations (`sameKey`) merged into one entry naming them all. Linear in the number of findings.
    public static func merging(_ locations: [LocationResult]) -> [LocatedFinding] {
        var entries: [LocatedFinding] = []
        var index: [SameKey: Int] = [:]
        for location in locations {
            for finding in location.findings {
                let key = sameKey(finding, at: location)
                if let at = index[key], !entries[at].locations.contains(location.path) {
                    entries[at].locations.append(location.path)
                } else if index[key] == nil {
                    index[key] = entries.count
                    entries.append(LocatedFinding(finding: finding, locations: [location.path]))
                } else {
                    // The same finding twice at one location is two findings: never fold them away.
                    entries.append(LocatedFinding(finding: finding, locations: [location.path]))
                }
            }
        }
        return entries
    }

    /// What makes two findings at two locations the same finding: every field a reader sees (id,
    /// severity, message, fix, JSON pointer) and the check, equal, with each location's own URL in
    /// the message and fix taken out (the texts are compared as the pieces between the occurrences of
    /// that URL, so nothing a server writes can pass for the URL's place). So "https://d/.well-known/… answers 404"
    /// and "https://d/apple-app-site-association answers 404" are one finding, while two redirects to
    /// different targets, or two certificates that expired on different days, stay two. The technical
    /// detail (`Finding.detail`) is left out: curl's words differ by a timing ("after 0 ms") for one
    /// failure, and the merged entry shows its first location's.
    public struct SameKey: Hashable, Sendable {
        var id: String
        var severity: Severity
        var message: [String]
        var fix: [String]?
        var pointer: String?
        var check: String?
    }

    /// The identity of `finding` at `location` (see `SameKey`).
    public static func sameKey(_ finding: Finding, at location: LocationResult) -> SameKey {
        func neutral(_ text: String) -> [String] {
            location.url.isEmpty ? [text] : text.components(separatedBy: location.url)
        }
        return SameKey(id: finding.id, severity: finding.severity, message: neutral(finding.message),
                       fix: finding.fix.map(neutral), pointer: finding.pointer, check: finding.check)
    }
}
