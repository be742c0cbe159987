import AASA
import Fetching
import Foundation
import SignedFiles

/// Apple's CDN copy of the file, compared with the file Apple would take from the origin.
///
/// Since iOS 14 and macOS 11, devices read the file from `app-site-association.cdn-apple.com`, which
/// fetches the origin on its own schedule and caches both copies and failures. Nobody outside Apple
/// can invalidate it, so the messages say what the user can do (fix the origin, wait, bypass the CDN
/// with `?mode=developer` while testing) and what they cannot.
public enum CDNCheck {
    /// The check's stable id, stored in each of its findings (`Finding.check`).
    public static let id = "cdn"
    public static let missing = Rule("cdn.missing", .error, check: id,
        meaning: "Apple's CDN has no copy of the file (it answers 404, usually with a cached failure from its last fetch of your server); devices on iOS 14+ and macOS 11+ get no file, so links do not open the app.",
        fix: "Make the origin serve the file to Apple's crawler (AASA-Bot) with status 200 and no redirect; then wait: the CDN fetches again on its own schedule and cannot be invalidated. While testing, a development build with applinks:DOMAIN?mode=developer bypasses the CDN.")
    public static let stale = Rule("cdn.stale", .warning, check: id,
        meaning: "Apple's CDN serves a different (older) copy of the file than the origin; devices use the CDN copy until it refreshes.",
        fix: "Nothing to change at the origin if its file is the one you want: the CDN refreshes on its own (Apple says within 24 hours) and cannot be invalidated. Devices pick the new copy up at app install or their next periodic check; while testing, applinks:DOMAIN?mode=developer bypasses the CDN.")
    public static let ok = Rule("cdn.ok", .info, check: id,
        meaning: "Apple's CDN serves the same file as the origin.",
        fix: "Nothing to do.")
    public static let unreachable = Rule("cdn.unreachable", .warning, check: id,
        meaning: "Apple's CDN could not be reached from this machine, so its copy was not checked; this says nothing about your server.",
        fix: "Check this machine's access to app-site-association.cdn-apple.com (proxy, firewall, DNS), or run with --no-cdn.")

    public static let rules = [missing, stale, ok, unreachable]

    /// How the CDN refreshes, which is the same for every domain: said once by each report (in its
    /// summary), not in each domain's finding.
    public static let refreshFact = "Apple's CDN fetches each server's file on its own schedule and caches failures too; "
        + "nobody outside Apple can make it refresh. Development builds with applinks:DOMAIN?mode=developer entries bypass it while testing."

    /// The result and findings for the CDN's answer. `origin` is the location Apple takes the file
    /// from (nil when Apple can read a file at neither location of the origin, `LocationUsability`).
    public static func check(cdn response: FetchResponse, domain: String, origin: FetchedLocation?) -> (result: CDNResult, findings: [Finding]) {
        var result = CDNResult(
            url: response.url, httpStatus: response.error == nil ? response.status : nil,
            appleFailureReason: response.header("apple-failure-reason"),
            appleFailureDetails: response.header("apple-failure-details"),
            appleFrom: response.header("apple-from"), appleTryDirect: response.header("apple-try-direct"),
            appleOriginFormat: response.header("apple-origin-format"),
            cacheControl: response.header("cache-control"), age: response.header("age"),
            error: response.error.map(TransferFailure.init))
        if let error = response.error {
            return (result, [unreachable.finding(
                "Apple's CDN could not be reached from here, so its copy of the file for \(domain) was not checked. This is about this machine's network, not your server.",
                detail: NetworkCheck.technicalDetail(error))])
        }
        guard let status = response.status else {
            return (result, [unreachable.finding("Apple's CDN sent no HTTP response for \(domain), so its copy was not checked.")])
        }
        let cache = cacheSentence(cacheControl: result.cacheControl, age: result.age)
        guard status == 200 else {
            return (result, [missingFinding(result, status: status, domain: domain, origin: origin, cache: cache)])
        }
        let originRoot = origin?.validation?.root
        let cdnRoot = DocumentValidator.root(of: SignedFile.open(response.body))
        let differences: [String]
        switch (originRoot, cdnRoot) {
        case (nil, _):
            differences = ["Apple can read a file at neither location of your server now; the CDN still serves an earlier copy"]
        case (_, nil):
            differences = ["the CDN copy is not a JSON object"]
        case let (originRoot?, cdnRoot?):
            differences = originRoot == cdnRoot ? [] : Self.differences(origin: originRoot, cdn: cdnRoot)
        }
        result.matchesOrigin = differences.isEmpty
        result.differences = differences
        if differences.isEmpty {
            return (result, [ok.finding("Apple's CDN serves the same file as \(origin?.response.url ?? domain). \(cache)")])
        }
        var message = "Apple's CDN serves a different copy of the file for \(domain) than "
        message += origin.map { "your server does at \($0.response.url)" } ?? "your server"
        message += ": \(differences.joined(separator: "; ")). Devices use the CDN copy. \(cache)"
        if originRoot == nil {
            message += " When the CDN refreshes it will find the failure, and links stop working; fix the origin first."
        }
        return (result, [stale.finding(message, fix: stale.fix.replacingOccurrences(of: "applinks:DOMAIN", with: "applinks:\(domain)"))])
    }

    /// cdn.missing, saying whether the origin is the cause and what the CDN's failure reason means.
    static func missingFinding(_ result: CDNResult, status: Int, domain: String, origin: FetchedLocation?, cache: String) -> Finding {
        var message = "Apple's CDN has no copy of the file for \(domain): \(result.url) answers \(status)"
        var facts: [String] = []
        if let reason = result.appleFailureReason { facts.append("Apple-Failure-Reason \"\(reason)\"") }
        if let details = result.appleFailureDetails { facts.append("Apple-Failure-Details \(details)") }
        if let from = result.appleFrom { facts.append("Apple-From \(from)") }
        if let direct = result.appleTryDirect { facts.append("Apple-Try-Direct \(direct)") }
        message += facts.isEmpty ? " without a failure reason." : " with \(facts.joined(separator: ", "))."
        message += " Devices on iOS 14+ and macOS 11+ get no file, so links do not open the app."
        let cause = result.appleFailureReason.flatMap(originProblem)
        var fix: String
        if origin == nil {
            message += " Apple cannot read a file at either location of your server (the findings about the locations, listed first, say why): that is the cause."
            fix = "Fix the origin first (the findings about the locations, listed above, say how). The CDN picks the file up when it next fetches; it cannot be invalidated."
        } else {
            message += " Your server serves this tool a file Apple can read now"
            message += cause.map { ", but the CDN's last fetch \($0)." } ?? "; the CDN's copy is a failure it cached earlier."
            fix = cause != nil
                ? "Make sure Apple's crawler (User-Agent AASA-Bot, any IP address or region) gets the file with status 200 and no redirect: check WAF, bot-protection, geo and rate-limit rules. Then wait for the CDN's next fetch; it cannot be invalidated."
                : "Wait for the CDN's next fetch; it cannot be invalidated. Make sure Apple's crawler (AASA-Bot) is allowed."
        }
        // How the CDN refreshes, the same for every domain, is said once in the reports' summary (`refreshFact`).
        message += " \(cache)"
        fix += " While testing, a development build with applinks:\(domain)?mode=developer bypasses the CDN."
        return missing.finding(message, fix: fix)
    }

    /// What an `Apple-Failure-Reason` says the CDN met at the origin, when it names something.
    static func originProblem(_ reason: String) -> String? {
        if let range = reason.range(of: "Bad HTTP Response:") {
            let answer = reason[range.upperBound...].trimmingCharacters(in: .whitespaces)
            return "got HTTP \(answer) from your server"
        }
        if reason.localizedCaseInsensitiveContains("timeout") { return "timed out waiting for your server" }
        if reason.localizedCaseInsensitiveContains("redirect") { return "met a redirect at your server" }
        if reason.localizedCaseInsensitiveContains("trust") || reason.localizedCaseInsensitiveContains("certificate") {
            return "did not trust your server's certificate"
        }
        return "failed at your server (\(reason))"
    }

    /// "Cache-Control max-age=21600, Age 7200: the copy is due to be refreshed in about 1 h 20 min."
    static func cacheSentence(cacheControl: String?, age: String?) -> String {
        let maxAge = cacheControl.flatMap(Self.maxAge)
        let ageSeconds = age.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard let maxAge else {
            return cacheControl.map { "Cache-Control \($0): no max-age, so when the CDN refreshes is unknown." }
                ?? "No Cache-Control header, so when the CDN refreshes is unknown."
        }
        var sentence = "Cache-Control max-age=\(maxAge)"
        if let ageSeconds {
            sentence += ", Age \(ageSeconds): this answer is due to expire in about \(duration(max(0, maxAge - ageSeconds)))"
        } else {
            sentence += " and no Age: this answer may be kept for up to \(duration(maxAge))"
        }
        return sentence + " (an estimate; Apple does not publish its refresh policy)."
    }

    /// The max-age directive of a Cache-Control value.
    static func maxAge(_ cacheControl: String) -> Int? {
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0].lowercased() == "max-age" { return Int(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))) }
        }
        return nil
    }

    /// "6 h", "1 h 20 min", "45 min", "30 s".
    static func duration(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        let hours = seconds / 3600, minutes = (seconds % 3600) / 60
        if hours == 0 { return "\(minutes) min" }
        return minutes == 0 ? "\(hours) h" : "\(hours) h \(minutes) min"
    }

    /// What differs between two documents that are not equal: app IDs added and removed, rules, other keys.
    static func differences(origin: JSONObject, cdn: JSONObject) -> [String] {
        var out: [String] = []
        // Per service: an app the copy lacks in applinks is missing there even when webcredentials still lists it.
        var added: [String: [String]] = [:], removed: [String: [String]] = [:]
        for service in AASADocument.serviceKeys {
            let originIDs = appIDs(in: origin, service: service), cdnIDs = appIDs(in: cdn, service: service)
            for id in originIDs.subtracting(cdnIDs) { added[id, default: []].append(service) }
            for id in cdnIDs.subtracting(originIDs) { removed[id, default: []].append(service) }
        }
        func listed(_ ids: [String: [String]]) -> String {
            ids.keys.sorted().map { "\($0) (\(ids[$0, default: []].joined(separator: ", ")))" }.joined(separator: ", ")
        }
        if !added.isEmpty { out.append("app IDs on your server but not on the CDN: \(listed(added))") }
        if !removed.isEmpty { out.append("app IDs on the CDN but no longer on your server: \(listed(removed))") }
        if rules(of: origin) != rules(of: cdn) {
            out.append("the applinks rules (details, components, paths, defaults or substitution variables) differ")
        }
        if out.isEmpty {
            let keys = Set(origin.keys).union(cdn.keys).filter { origin[$0] != cdn[$0] }.sorted()
            out.append("other keys differ: \(keys.joined(separator: ", "))")
        }
        return out
    }

    /// Every app ID a document names in `service` (applinks: its details entries and its `apps`).
    static func appIDs(in root: JSONObject, service: String) -> Set<String> {
        var ids: Set<String> = []
        if service == "applinks" {
            let document = AASADocument(json: JSONDocument(root: .object(root)))
            for entry in document?.detailsEntries ?? [] {
                if let key = entry.dictionaryKey { ids.insert(key) }
                if let single = entry.object?["appID"]?.stringValue { ids.insert(single) }
                for id in entry.object?["appIDs"]?.arrayValue ?? [] { if let id = id.stringValue { ids.insert(id) } }
            }
        }
        for id in root[service]?.objectValue?["apps"]?.arrayValue ?? [] { if let id = id.stringValue { ids.insert(id) } }
        return ids
    }

    /// `applinks` without the app IDs of its details, so that only the rules are compared.
    static func rules(of root: JSONObject) -> JSONValue? {
        guard var applinks = root["applinks"]?.objectValue else { return root["applinks"] }
        applinks.members.removeAll { $0.key == "apps" }
        applinks.members = applinks.members.map { key, value in
            guard key == "details" else { return (key, value) }
            switch value {
            case .array(let items):
                return (key, .array(items.map { item in
                    guard var object = item.objectValue else { return item }
                    object.members.removeAll { $0.key == "appID" || $0.key == "appIDs" }
                    return .object(object)
                }))
            case .object(let dictionary):
                return (key, .array(dictionary.members.map(\.value)))
            default:
                return (key, value)
            }
        }
        return .object(applinks)
    }
}

extension CDNCheck: DomainCheck {
    /// The CDN's copy against the location Apple uses; nothing when the CDN was not asked.
    public static func check(_ context: DomainCheckContext) -> DomainCheckOutput {
        guard let response = context.cdn else { return DomainCheckOutput() }
        let copy = check(cdn: response, domain: context.domain, origin: context.used)
        return DomainCheckOutput(findings: copy.findings, facts: .cdn(copy.result))
    }
}
