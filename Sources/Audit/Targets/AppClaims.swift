import AASA
import Entitlements

/// What one app claims: its app ID and its Associated Domains entries, checked, with the entries that
/// could not be used. Made from the entitlements read from a file and the `--app-id` given with it. Pure.
public struct AppClaims: Sendable, Equatable {
    /// Where the entitlements were read (the path given, with the member inside it).
    public var source: String
    /// What kind of file held them (`xml-plist`, `mach-o` ...).
    public var kind: String
    public var appID: AppIdentifier
    /// Where the app ID came from: the entitlement or `--app-id`.
    public var appIDSource: String
    /// The usable entries, in order.
    public var entries: [AssociatedDomainEntry]
    /// The entries only development devices use (`?mode=developer`, `?mode=developer+managed`), set
    /// apart from `entries` by a release audit (`setDevelopmentApart`): release devices ignore them,
    /// so they are neither fetched nor judged, only named in the app's section.
    public var developmentEntries: [AssociatedDomainEntry] = []
    /// The entries that could not be used, each an input error naming the file, the entry and its index.
    public var problems: [InputProblem]
    /// Findings about the app itself (a provisioning profile issued to another team).
    public var findings: [Finding]

    public init(source: String, kind: String, appID: AppIdentifier, appIDSource: String, entries: [AssociatedDomainEntry],
                problems: [InputProblem] = [], findings: [Finding] = []) {
        self.source = source
        self.kind = kind
        self.appID = appID
        self.appIDSource = appIDSource
        self.entries = entries
        self.problems = problems
        self.findings = findings
    }

    /// The claims of `entitlements`, with `option` the `--app-id` given for them (nil when none).
    ///
    /// The app ID is the entitlement's `application-identifier` when it is present and holds no
    /// unresolved variable, else `option`; both given and different, a variable without `option`, or
    /// an app ID of the wrong form is an error for the whole app. A bad entry is only skipped.
    public static func resolve(_ entitlements: AppEntitlements, appID option: String?) throws(AppClaimsError) -> AppClaims {
        let source = entitlements.source
        func fail(_ reason: String) -> AppClaimsError { AppClaimsError(source: source, reason: reason) }
        var given: AppIdentifier?
        if let option {
            do { given = try AppIdentifier.parse(option) } catch { throw fail("--app-id \(error.description)") }
        }
        let appID: AppIdentifier
        let appIDSource: String
        let key = "application-identifier"
        if let written = entitlements.applicationIdentifier, !AppIdentifier.hasVariable(written) {
            let parsed: AppIdentifier
            do { parsed = try AppIdentifier.parse(written) } catch { throw fail("its \(key) entitlement \(error.description)") }
            if let given, given != parsed {
                throw fail("its \(key) entitlement is \(parsed) but --app-id says \(given); give the app's own app ID, or leave --app-id out")
            }
            appID = parsed
            appIDSource = "the \(key) entitlement"
        } else if let given {
            // `$(AppIdentifierPrefix)com.example.app`: the part Xcode would not change must agree.
            if let written = entitlements.applicationIdentifier, !AppIdentifier.matches(template: written, given.description) {
                throw fail("its \(key) entitlement is \(written), which Xcode cannot turn into \(given) (the text outside "
                           + "the variables must stay as written), but --app-id says \(given)")
            }
            appID = given
            appIDSource = "--app-id"
        } else if let written = entitlements.applicationIdentifier {
            throw fail("its \(key) entitlement is \(written), whose build-setting variables only Xcode can resolve; "
                       + "give the app ID after the file: --entitlements \(source) --app-id TEAMID.bundle.id")
        } else {
            throw fail("it has no \(key) entitlement (an Xcode .entitlements file usually has none); "
                       + "give the app ID after the file: --entitlements \(source) --app-id TEAMID.bundle.id")
        }
        guard let values = entitlements.associatedDomains else {
            throw fail("it has no \(EntitlementsPropertyList.associatedDomainsKey) entitlement, so the app claims no domain")
        }
        var entries: [AssociatedDomainEntry] = []
        var problems: [InputProblem] = []
        var seen: [String: Int] = [:]
        for (index, value) in values.enumerated() {
            func problem(_ text: String, _ reason: String) {
                let shown = text.count > DomainList.maximumShownCharacters ? text.prefix(DomainList.maximumShownCharacters) + "…" : text
                problems.append(InputProblem(file: source, line: index, text: shown,
                                             reason: "\(EntitlementsPropertyList.associatedDomainsKey)[\(index)]: \(reason); this entry is skipped, the others are still audited"))
            }
            guard case .text(let text) = value else {
                if case .other(let type) = value { problem("(\(type))", "it is \(type), not a string") }
                continue
            }
            let entry: AssociatedDomainEntry
            do {
                entry = try AssociatedDomainEntry.parse(text, index: index)
            } catch {
                problem(text, error.reason)
                continue
            }
            if let first = seen[entry.identity] {
                problem(text, "a duplicate of entry [\(first)] \"\(values[first].textValue ?? "")\"")
                continue
            }
            seen[entry.identity] = index
            entries.append(entry)
        }
        var findings: [Finding] = []
        if let profile = entitlements.profile {
            findings += ProfileCheck.findings(profile, appID: appID)
        }
        if let problem = entitlements.profileProblem {
            findings.append(ProfileCheck.unreadable.finding("The embedded provisioning profile cannot be read: \(problem.description)."))
        }
        return AppClaims(source: source, kind: entitlements.kind.rawValue, appID: appID, appIDSource: appIDSource,
                         entries: entries, problems: problems, findings: findings)
    }

    /// Moves the development-only entries out of `entries` into `developmentEntries` (a release audit,
    /// without `--include-development`).
    public mutating func setDevelopmentApart() {
        developmentEntries += entries.filter { $0.mode?.isDevelopmentOnly == true }
        entries.removeAll { $0.mode?.isDevelopmentOnly == true }
    }

    /// The claims each host's audit checks: every entry, at the host whose file Apple reads for it.
    public var claimsByHost: [(host: String, claims: [EntitlementClaim])] {
        var order: [String] = []
        var byHost: [String: [EntitlementClaim]] = [:]
        for entry in entries {
            if byHost[entry.fileHost] == nil { order.append(entry.fileHost) }
            byHost[entry.fileHost, default: []].append(EntitlementClaim(appID: appID.description, source: source, entry: entry))
        }
        return order.map { ($0, byHost[$0] ?? []) }
    }
}

extension EntitlementValue {
    /// The string, when the value is one.
    var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}

/// Why an app's claims cannot be audited at all (no usable app ID, no Associated Domains entitlement).
public struct AppClaimsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The entitlements' source.
    public var source: String
    public var reason: String
    public var description: String { "--entitlements \(source): \(reason)" }
}

/// One entry of one app, attached to the host whose file Apple reads for it: what the audit of that
/// host checks for the app.
public struct EntitlementClaim: Sendable, Equatable, Codable {
    /// The app's ID, `TEAMID.bundle.id`.
    public var appID: String
    /// Where the entitlements were read.
    public var source: String
    public var entry: AssociatedDomainEntry

    public init(appID: String, source: String, entry: AssociatedDomainEntry) {
        self.appID = appID
        self.source = source
        self.entry = entry
    }
}
