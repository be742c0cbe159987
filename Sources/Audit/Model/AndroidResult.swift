import Foundation

/// The Android part of a domain's result: its `/.well-known/assetlinks.json` and the Android
/// expectations of `domains.txt` (`AndroidExpectationCheck`).
///
/// It is audited only when asked (`--android`, or an `android=`, `android-creds=` or `sha256=`
/// expectation on the domain's line), and then counts in the domain's verdict: the domain's verdict is
/// the worse of the Apple part's and this one's, so a broken assetlinks.json fails the domain.
public struct AndroidResult: Sendable, Equatable, Codable {
    /// The verdict of the Android part alone: the worst of its location's and its expectations' findings.
    public var verdict: Verdict
    /// The assetlinks.json location, checked like an Apple location (transport, then the statement list).
    public var location: LocationResult
    /// The findings of the included lists (`assetlinks.include-…`, `AssetLinksIncludeCheck`) and of the
    /// Android expectations (`expect.android-…`, `expect.fingerprint-missing`), then Google's view (`dal.*`).
    public var findings: [Finding]
    /// The statement lists assetlinks.json includes, as fetched and checked, in its order; absent when it
    /// includes none (or was not read). Evidence: what they mean for the site is in `findings`
    /// (`assetlinks.include-failed` names a list's failure), and only those count in `verdict`.
    public var includes: [LocationResult]?
    /// What Google's Digital Asset Links API holds for the site, compared with its file (`--google-dal`,
    /// `GoogleDALCheck`); absent when not asked. Its findings (`dal.*`) are in `findings`.
    public var googleDAL: GoogleDALResult?

    public init(location: LocationResult, findings: [Finding], includes: [LocationResult]? = nil) {
        self.location = location
        self.location.role = .readByAndroid
        self.findings = findings
        self.includes = includes?.map { included in
            var included = included
            included.role = .readByAndroid
            return included
        }
        verdict = Verdict(findings: location.findings + findings)
    }

    /// Every finding of the Android part: the location's, then the expectations'.
    public var allFindings: [Finding] { location.findings + findings }

    /// The finding that best explains `verdict`: the first error, else the first warning.
    public var headline: Finding? {
        switch verdict {
        case .fail: return allFindings.first { $0.severity == .error }
        case .warn: return allFindings.first { $0.severity == .warning }
        case .pass: return nil
        }
    }
}

/// The Android parts of a run counted by verdict (in `Summary.android`).
public struct AndroidSummary: Sendable, Equatable, Codable {
    /// Domains whose assetlinks.json was audited.
    public var domains: Int
    public var pass: Int
    public var warn: Int
    public var fail: Int

    public init(_ results: [AndroidResult]) {
        self.init(verdicts: results.lazy.map(\.verdict))
    }

    /// The counts of these Android verdicts (the same as `init(_:)` of their results).
    public init(verdicts: some Sequence<Verdict>) {
        (domains, pass, warn, fail) = (0, 0, 0, 0)
        for verdict in verdicts { count(verdict) }
    }

    /// Counts one more Android verdict.
    mutating func count(_ verdict: Verdict) {
        domains += 1
        switch verdict {
        case .pass: pass += 1
        case .warn: warn += 1
        case .fail: fail += 1
        }
    }
}
