import AASA

/// Checks a domain's expectations (`app=`, `opens=`, `stays=`, `webcredentials=`, `appclip=`, `activitycontinuation=` in
/// `domains.txt`) against the document Apple would use, with the matching engine. Pure.
public enum ExpectationCheck {
    /// The check's stable id, stored in each of its findings (`Finding.check`).
    public static let id = "expectation"
    public static let appMissing = Rule("expect.app-missing", .error, check: id,
        meaning: "domains.txt expects an app to have universal links on this domain, but the file Apple uses has no applinks details entry for it (a deploy dropped it, or the app ID is wrong).",
        fix: "Add the app ID (team ID + \".\" + bundle ID) to appIDs in an applinks.details entry, or correct the app= expectation.")
    public static let notOpened = Rule("expect.not-opened", .error, check: id,
        meaning: "domains.txt expects a URL to open the app, but under the file Apple uses it stays in the browser: an exclude rule blocks it, or no rule matches it.",
        fix: "Change or move the rule the message names (the first matching rule wins), or add a component that matches the URL.")
    public static let opened = Rule("expect.opened", .error, check: id,
        meaning: "domains.txt expects a URL to stay in the browser, but under the file Apple uses it opens an app.",
        fix: "Add an \"exclude\": true component for the URL before the rule the message names (the first matching rule wins), or narrow that rule.")
    public static let webcredentialsMissing = Rule("expect.webcredentials-missing", .error, check: id,
        meaning: "domains.txt expects an app to share web credentials with this domain, but it is not in webcredentials.apps of the file Apple uses.",
        fix: "Add the app ID to \"webcredentials\": { \"apps\": [ … ] }.")
    public static let appClipMissing = Rule("expect.appclip-missing", .error, check: id,
        meaning: "domains.txt expects an App Clip on this domain, but it is not in appclips.apps of the file Apple uses.",
        fix: "Add the App Clip's app ID to \"appclips\": { \"apps\": [ … ] }.")
    public static let unchecked = Rule("expect.unchecked", .warning, check: id,
        meaning: "The domain has expectations in domains.txt, but Apple can read a file at neither of its locations, so they could not be checked.",
        fix: "Fix the errors that keep Apple from reading the file; the expectations are checked once it serves a file Apple can read.")
    public static let activityMissing = Rule("expect.activitycontinuation-missing", .error, check: id,
        meaning: "domains.txt expects an app to continue activities (Handoff) with this domain, but it is not in activitycontinuation.apps of the file Apple uses.",
        fix: "Add the app ID to \"activitycontinuation\": { \"apps\": [ … ] }.")
    public static let teamIDDrift = Rule("expect.team-id-drift", .error, check: id,
        meaning: "domains.txt expects an app on this domain, and the file Apple uses lists the app's bundle ID, but under another Team ID: the app was moved to another team (or the file copied from an old one), and Apple matches the whole app ID.",
        fix: "Replace the old Team ID with the app's own in the file (list both while builds signed by the old team are in use), or correct the expectation.")
    public static let met = Rule("expect.met", .info, check: id,
        meaning: "Every expectation written for the domain in domains.txt holds for the file Apple uses.",
        fix: "Nothing to fix.")

    public static let rules = [appMissing, notOpened, opened, webcredentialsMissing, appClipMissing, activityMissing, teamIDDrift, unchecked, met]

    /// The findings for `expectations` on `domain`, given the document Apple would use (nil when none).
    /// `absence`: why devices get no file, when `document` is nil.
    public static func findings(_ expectations: DomainExpectations, domain: String, document: AASADocument?,
                                absence: DeviceOutcome.Absence? = nil) -> [Finding] {
        // The Android expectations are AndroidExpectationCheck's, against assetlinks.json.
        let count = expectations.appleCount
        guard count > 0 else { return [] }
        guard let document else {
            let why = absence.flatMap { $0 == .noReadableLocation ? nil : "devices get no file: \($0.clause(domain: domain))" }
                ?? "Apple can read a file at neither location of \(domain)"
            return [unchecked.finding(uncheckedMessage(count: count, domain: domain, why: why))]
        }
        let matcher = URLMatcher(document, host: domain)
        var findings: [Finding] = []
        for app in expectations.apps where !matcher.appIDs.contains(app) {
            let drift = TeamIDDrift.others(of: app, in: matcher.appIDs)
            if !drift.isEmpty {
                findings.append(teamIDDrift.finding("The file Apple uses for \(domain) \(TeamIDDrift.phrase(appID: app, others: drift)), so \(app) has no applinks details entry there and none of its links open it."))
                continue
            }
            let listed = matcher.appIDs.isEmpty ? "it has none" : "it lists \(matcher.appIDs.joined(separator: ", "))"
            findings.append(appMissing.finding("\(app) has no applinks details entry in the file Apple uses for \(domain) (\(listed)), so none of its links open it."))
        }
        for path in expectations.opens {
            let url = "https://\(domain)\(path)"
            for app in expectations.apps.isEmpty ? [nil] : expectations.apps.map(Optional.some) {
                guard let result = decide(matcher, path, url: url, appID: app), result.decision != .match else { continue }
                let who = app ?? "an app"
                let why: String
                if result.decision == .exclude, let rule = result.rule {
                    why = "\(rule) excludes it"
                } else if let reason = result.reason {
                    why = reason
                } else {
                    why = "no rule \(app.map { "for \($0) " } ?? "")matches it"
                }
                findings.append(notOpened.finding("\(url) should open \(who) but stays in the browser: \(why).", pointer: result.rule?.pointer))
            }
        }
        for path in expectations.stays {
            let url = "https://\(domain)\(path)"
            guard let result = decide(matcher, path, url: url, appID: nil), result.decision == .match else { continue }
            findings.append(opened.finding(
                "\(url) should stay in the browser but opens \(result.appIDs.joined(separator: ", ")): \(result.rule.map(\.description) ?? "a rule") matches it.",
                pointer: result.rule?.pointer))
        }
        findings += listed(expectations.webcredentials, in: document, service: "webcredentials", missing: webcredentialsMissing, domain: domain)
        findings += listed(expectations.appclips, in: document, service: "appclips", missing: appClipMissing, domain: domain)
        findings += listed(expectations.activityContinuation, in: document, service: "activitycontinuation", missing: activityMissing, domain: domain)
        if findings.isEmpty {
            findings.append(met.finding(metMessage(count: count, domain: domain)))
        }
        return findings
    }

    private static func decide(_ matcher: URLMatcher, _ path: String, url: String, appID: String?) -> MatchResult? {
        guard let parsed = try? MatchURL.parse(path) else { return nil }
        return matcher.decide(parsed, text: url, appID: appID)
    }

    /// A finding for each app of `expected` that `service.apps` of the file does not list: naming the
    /// other Team IDs it is listed under when that is why (drift), else what the file does list.
    private static func listed(_ expected: [String], in document: AASADocument, service: String, missing: Rule, domain: String) -> [Finding] {
        let apps = serviceApps(document, service)
        return expected.filter { !apps.contains($0) }.map { app in
            let drift = TeamIDDrift.others(of: app, in: apps)
            if !drift.isEmpty {
                return teamIDDrift.finding("\(service).apps of the file Apple uses for \(domain) \(TeamIDDrift.phrase(appID: app, others: drift)), so \(app) is not listed.")
            }
            return missing.finding("\(app) is not in \(service).apps of the file Apple uses for \(domain)" + listing(apps))
        }
    }

    private static func serviceApps(_ document: AASADocument, _ service: String) -> [String] {
        document.root[service]?.objectValue?["apps"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    private static func listing(_ apps: [String]) -> String {
        apps.isEmpty ? " (it lists none)." : " (it lists \(apps.joined(separator: ", ")))."
    }
}

extension ExpectationCheck: DomainCheck {
    /// The domain list's expectations against the file a device gets (`DeviceOutcome.release`).
    public static func check(_ context: DomainCheckContext) -> DomainCheckOutput {
        let release = context.device.release  // computed: once, not once per use
        return DomainCheckOutput(findings: findings(context.expectations, domain: context.domain, document: release.document,
                                                   absence: release.absence))
    }
}

extension ExpectationCheck {
    /// `expect.unchecked`'s message for `count` expectations that could not be checked because of `why`.
    static func uncheckedMessage(count: Int, domain: String,
                                 why: String? = nil) -> String {
        count == 0 ? "The domain list has no expectation for \(domain) to check."
            : "\(Counted.noun(count, "expectation")) in the domain list could not be checked: \(why ?? "Apple can read a file at neither location of \(domain)")."
    }

    /// `expect.met`'s message for `count` expectations.
    static func metMessage(count: Int, domain: String) -> String {
        count == 1 ? "The expectation in the domain list holds for \(domain)."
            : count == 0 ? "The domain list has no expectation for \(domain)." : "All \(count) expectations in the domain list hold for \(domain)."
    }
}
