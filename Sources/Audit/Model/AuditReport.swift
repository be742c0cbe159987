import Foundation

/// The whole result of one run: what every reporter renders. Versioned; see docs/report-format.md.
public struct AuditReport: Sendable, Equatable, Codable {
    /// Bumped on any incompatible change to this model.
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    public var tool: ToolInfo
    /// When the run started (UTC).
    public var generatedAt: Date
    /// False when the run was interrupted and `domains` holds only what was finished.
    public var complete: Bool
    public var summary: Summary
    /// Lines of the domain list that were not domains, and expectation tokens that could not be
    /// read; they were skipped. At most the first `DomainList.maximumKeptProblems` (1,000).
    public var inputErrors: [InputProblem]
    /// How many more input errors there were than `inputErrors` lists; nil (absent from
    /// report.json) when it lists them all. A hostile list of millions of bad lines so makes a small report.
    public var inputErrorsOmitted: Int?
    public var domains: [DomainResult]
    /// What changed since a baseline report (`--baseline`, or the previous `reports/latest`);
    /// nil when there was none. Set after the run by the caller (see `ReportChanges.between`).
    public var changes: ReportChanges?
    /// When the run was interrupted: the domains (ASCII form, input order) that were not finished and
    /// so are not in `domains`. Nil for a run that was not interrupted.
    public var notAudited: [String]?
    /// The shard of the domain list this run audited (`--shard K/N`); nil when it audited the whole list.
    public var shard: Shard?
    /// What the history database adds (failing since, fixed, flapping, expiring certificates, the
    /// trend); nil when no history was used (`--no-history`, or it could not be read). Set by the caller.
    public var history: ReportHistory?
    /// One section per app named with `--entitlements`: its entries, the host each resolves to, which
    /// work and why not (`AppResult.Builder`); nil when the run named none. Set by the caller.
    public var apps: [AppResult]?

    public init(tool: ToolInfo, generatedAt: Date, complete: Bool = true,
                inputErrors: [InputProblem] = [], domains: [DomainResult]) {
        self.schemaVersion = AuditReport.currentSchemaVersion
        self.tool = tool
        self.generatedAt = generatedAt
        self.complete = complete
        self.inputErrors = inputErrors
        // Judged again against the run's start: a result changed after it was made (a merge, a
        // baseline built by hand) is shown by what it holds now.
        self.domains = domains.map { var domain = $0; domain.judge(at: generatedAt); return domain }
        self.summary = Summary(domains: domains)
    }

    /// Reads report.json. A report written before days left were recorded gets them counted from
    /// its own start (`generatedAt`), as the run that wrote it would have.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        tool = try container.decode(ToolInfo.self, forKey: .tool)
        generatedAt = try container.decode(Date.self, forKey: .generatedAt)
        complete = try container.decode(Bool.self, forKey: .complete)
        summary = try container.decode(Summary.self, forKey: .summary)
        inputErrors = try container.decode([InputProblem].self, forKey: .inputErrors)
        inputErrorsOmitted = try container.decodeIfPresent(Int.self, forKey: .inputErrorsOmitted)
        domains = try container.decode([DomainResult].self, forKey: .domains)
        changes = try container.decodeIfPresent(ReportChanges.self, forKey: .changes)
        notAudited = try container.decodeIfPresent([String].self, forKey: .notAudited)
        shard = try container.decodeIfPresent(Shard.self, forKey: .shard)
        history = try container.decodeIfPresent(ReportHistory.self, forKey: .history)
        apps = try container.decodeIfPresent([AppResult].self, forKey: .apps)
        for index in domains.indices { domains[index].countDaysLeft(from: generatedAt) }
    }

    /// Every input error, listed or not: `inputErrors` and `inputErrorsOmitted`.
    public var inputErrorCount: Int { inputErrors.count + (inputErrorsOmitted ?? 0) }

    /// The report of an interrupted run: `domains` holds what was finished, `notAudited` the rest;
    /// `complete` is false.
    public init(tool: ToolInfo, generatedAt: Date, inputErrors: [InputProblem] = [], domains: [DomainResult],
                notAudited: [String]) {
        self.init(tool: tool, generatedAt: generatedAt, complete: false, inputErrors: inputErrors, domains: domains)
        self.notAudited = notAudited
    }
}

/// The name and version of the tool that wrote a report.
public struct ToolInfo: Sendable, Equatable, Codable {
    public var name: String
    public var version: String
    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }
}

/// Counts of domains by verdict.
public struct Summary: Sendable, Equatable, Codable {
    public var domains: Int
    public var pass: Int
    public var warn: Int
    public var fail: Int
    /// The Android parts counted by their own verdict (`AndroidResult.verdict`); nil when no domain
    /// had its assetlinks.json audited.
    public var android: AndroidSummary?

    public init(domains results: [DomainResult]) {
        domains = results.count
        pass = results.filter { $0.verdict == .pass }.count
        warn = results.filter { $0.verdict == .warn }.count
        fail = results.filter { $0.verdict == .fail }.count
        let androids = results.compactMap(\.android)
        android = androids.isEmpty ? nil : AndroidSummary(androids)
    }
}

/// A line of the domain list that could not be used.
public struct InputProblem: Sendable, Equatable, Codable, Error {
    /// The file it came from, or nil for a command-line argument.
    public var file: String?
    /// 1-based line number in `file`, or the argument's position.
    public var line: Int
    /// The offending text, as given.
    public var text: String
    /// Why it was rejected.
    public var reason: String

    public init(file: String?, line: Int, text: String, reason: String) {
        self.file = file
        self.line = line
        self.text = text
        self.reason = reason
    }

    /// Where the text came from: "domains.txt:7", or "argument 2" for a command-line domain.
    public var place: String { Self.place(file: file, line: line) }

    /// "FILE:LINE", or "argument N" when there is no file.
    public static func place(file: String?, line: Int) -> String {
        file.map { "\($0):\(line)" } ?? "argument \(line)"
    }
}

/// The result for one domain.
public struct DomainResult: Sendable, Equatable, Codable {
    /// The domain in ASCII (punycode) form, as fetched.
    public var domain: String
    /// The Unicode form, when it differs from `domain` (internationalised names).
    public var unicodeDomain: String?
    public var verdict: Verdict
    /// Which location Apple takes the file from ("/.well-known/apple-app-site-association"): the first
    /// one Apple can read (`LocationResult.usable`), `.well-known` first, even when some of its entries
    /// are broken; nil when Apple can read a file at neither location.
    public var usedLocation: String?
    /// Findings about the domain as a whole (fallback to the root location, copies that differ).
    public var findings: [Finding]
    /// The two locations, `.well-known` first.
    public var locations: [LocationResult]
    /// The Android part: `/.well-known/assetlinks.json` and the Android expectations; nil when the
    /// run did not audit it (no `--android` and no Android expectation for the domain).
    public var android: AndroidResult?
    /// The verdict of the Apple part alone, when there is an Android part (the domain's `verdict` is
    /// then the worse of this and `android.verdict`); nil otherwise, when `verdict` is the Apple part's.
    public var appleVerdict: Verdict?
    /// What Apple's CDN serves for the domain; nil when the CDN was not asked (`--no-cdn`).
    public var cdn: CDNResult?
    /// What the origin answered Apple's crawler User-Agent; nil when there was nothing to compare
    /// (no HTTP response at the location Apple would use).
    public var crawler: CrawlerResult?
    /// The one finding that best explains the verdict (nil for a pass): judged by the audit
    /// (`DomainResult.judge`), shown by every reporter as the domain's main problem.
    public var headline: Finding?
    /// The certificate the domain is judged by and its days left (nil when none could be read):
    /// judged by the audit (`DomainResult.judge`).
    public var certificate: JudgedCertificate?
    /// What each entitlement entry of the apps named with `--entitlements` came to on this host
    /// (`EntitlementClaimCheck`); nil when no entry needs this host's file.
    public var claims: [ClaimOutcome]?

    /// Makes the result and its judgements (`judge(at: nil)`): the headline finding, the certificate
    /// shown, and the check of every finding that does not name one.
    public init(domain: String, unicodeDomain: String? = nil, verdict: Verdict, usedLocation: String?,
                findings: [Finding], locations: [LocationResult], cdn: CDNResult? = nil, crawler: CrawlerResult? = nil) {
        self.domain = domain
        self.unicodeDomain = unicodeDomain
        self.verdict = verdict
        self.usedLocation = usedLocation
        self.findings = findings
        self.locations = locations
        self.cdn = cdn
        self.crawler = crawler
        judge(at: nil)
    }

    /// Reads a domain of report.json. Reports written before the judgements were stored (no
    /// `headline`, `certificate` or finding `check` keys) get them judged here, by the same rules.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        domain = try container.decode(String.self, forKey: .domain)
        unicodeDomain = try container.decodeIfPresent(String.self, forKey: .unicodeDomain)
        verdict = try container.decode(Verdict.self, forKey: .verdict)
        usedLocation = try container.decodeIfPresent(String.self, forKey: .usedLocation)
        findings = try container.decode([Finding].self, forKey: .findings)
        locations = try container.decode([LocationResult].self, forKey: .locations)
        cdn = try container.decodeIfPresent(CDNResult.self, forKey: .cdn)
        crawler = try container.decodeIfPresent(CrawlerResult.self, forKey: .crawler)
        android = try container.decodeIfPresent(AndroidResult.self, forKey: .android)
        appleVerdict = try container.decodeIfPresent(Verdict.self, forKey: .appleVerdict)
        headline = try container.decodeIfPresent(Finding.self, forKey: .headline)
        certificate = try container.decodeIfPresent(JudgedCertificate.self, forKey: .certificate)
        claims = try container.decodeIfPresent([ClaimOutcome].self, forKey: .claims)
        if !container.contains(.headline) && !container.contains(.certificate) {
            judge(at: nil)
        } else {
            nameChecks()
        }
    }

    /// Every finding of the domain and its locations, causes first (`findingGroups`): the locations'
    /// findings, then the domain's own, then the Android part's.
    public var allFindings: [Finding] { findingGroups.flatMap(\.findings) + (android?.allFindings ?? []) }

    /// The first error that decides the verdict: from the location Apple uses (readable, though its
    /// entries may be broken), else the domain's own (location choice, Apple's crawler), else, when
    /// Apple can read neither location, any location's,
    /// else Apple's CDN's (a CDN failure is often the echo of an origin problem, so the origin's error
    /// is named first when there is one), else any.
    public var firstError: Finding? {
        Self.firstError(usedLocation: usedLocation, findings: findings, locations: locations)
    }

    static func firstError(usedLocation: String?, findings: [Finding], locations: [LocationResult]) -> Finding? {
        let used = locations.first { $0.path == usedLocation }
        let anyLocation = locations.lazy.flatMap(\.findings).first { $0.severity == .error }
        return (used?.findings ?? []).first { $0.severity == .error }
            ?? findings.first { $0.severity == .error && $0.category != "cdn" }
            ?? (usedLocation == nil ? anyLocation : nil)
            ?? findings.first { $0.severity == .error }
            ?? anyLocation
    }
}

/// What Apple's CDN (`https://app-site-association.cdn-apple.com/a/v1/DOMAIN`) served for a domain.
/// The CDN is what iOS 14+ and macOS 11+ devices read; it fetches the origin on its own schedule.
public struct CDNResult: Sendable, Equatable, Codable {
    /// The CDN URL requested.
    public var url: String
    /// The status, or nil when no response arrived (see `error`).
    public var httpStatus: Int?
    /// `Apple-Failure-Reason`, e.g. "SWCERR00101 Bad HTTP Response: 404 Not Found".
    public var appleFailureReason: String?
    /// `Apple-Failure-Details` (JSON text, as served).
    public var appleFailureDetails: String?
    /// `Apple-From`: the origin URL the CDN tried.
    public var appleFrom: String?
    /// `Apple-Try-Direct` ("true" or "false"; its meaning is undocumented).
    public var appleTryDirect: String?
    /// `Apple-Origin-Format` ("json" for a served copy).
    public var appleOriginFormat: String?
    public var cacheControl: String?
    /// `Age`, as served (seconds).
    public var age: String?
    /// True when the CDN copy is semantically the file Apple takes from the origin; false when it
    /// differs (or Apple can read no file from the origin); nil when the CDN served no copy.
    public var matchesOrigin: Bool?
    /// What differs, in words (app IDs added or removed, rules); empty when nothing does.
    public var differences: [String]
    /// The transfer failure, when the CDN could not be reached.
    public var error: TransferFailure?

    public init(url: String, httpStatus: Int?, appleFailureReason: String? = nil, appleFailureDetails: String? = nil,
                appleFrom: String? = nil, appleTryDirect: String? = nil, appleOriginFormat: String? = nil,
                cacheControl: String? = nil, age: String? = nil, matchesOrigin: Bool? = nil,
                differences: [String] = [], error: TransferFailure? = nil) {
        self.url = url
        self.httpStatus = httpStatus
        self.appleFailureReason = appleFailureReason
        self.appleFailureDetails = appleFailureDetails
        self.appleFrom = appleFrom
        self.appleTryDirect = appleTryDirect
        self.appleOriginFormat = appleOriginFormat
        self.cacheControl = cacheControl
        self.age = age
        self.matchesOrigin = matchesOrigin
        self.differences = differences
        self.error = error
    }
}

/// The location Apple would use, fetched again with Apple's crawler User-Agent (`AASA-Bot/1.0.0`),
/// compared with what the tool's own User-Agent got.
public struct CrawlerResult: Sendable, Equatable, Codable {
    /// The crawler's User-Agent that was sent.
    public var userAgent: String
    /// The location compared.
    public var path: String
    /// The status the crawler got, or nil when no response arrived (see `error`).
    public var httpStatus: Int?
    /// The status the tool's own User-Agent got at the same location.
    public var toolHTTPStatus: Int?
    /// When both got 200: true when the two bodies are the same document (parsed JSON, or bytes
    /// when not JSON); nil otherwise.
    public var sameBody: Bool?
    /// The crawler's transfer failure, when there was one.
    public var error: TransferFailure?

    public init(userAgent: String, path: String, httpStatus: Int?, toolHTTPStatus: Int?, sameBody: Bool?, error: TransferFailure? = nil) {
        self.userAgent = userAgent
        self.path = path
        self.httpStatus = httpStatus
        self.toolHTTPStatus = toolHTTPStatus
        self.sameBody = sameBody
        self.error = error
    }
}

/// What one of the two file locations served, and what is wrong with it.
public struct LocationResult: Sendable, Equatable, Codable {
    /// "/.well-known/apple-app-site-association" or "/apple-app-site-association".
    public var path: String
    public var url: String
    public var verdict: Verdict
    /// True when Apple can read a document from this location (a 200 whose body is a JSON object of
    /// at most 128 KB, fetched without a transfer failure), whatever its entries say; false when it
    /// has a finding of `LocationUsability.unusableRules`. Reports written before it was recorded get
    /// it from the location's status and findings when read.
    public var usable: Bool
    public var httpStatus: Int?
    public var contentType: String?
    /// Headers that matter for diagnosis (content-type, content-encoding, content-length, location,
    /// cache-control, age, server, ...), names lower-cased.
    public var headers: [HeaderField]
    public var bytes: BodySize
    /// Set when the location answered with a redirect (which Apple does not follow).
    public var redirect: RedirectChain?
    public var tls: TLSConnection?
    public var timings: TransferTimings
    /// The transfer failure, when there was one (curl's code and text).
    public var error: TransferFailure?
    /// The served body as text, when it is UTF-8 and was read whole; for people to read in reports.
    public var body: String?
    public var findings: [Finding]

    /// `usable` defaults to what the status and findings say (`LocationUsability.isUsable`).
    public init(path: String, url: String, verdict: Verdict, usable: Bool? = nil, httpStatus: Int?, contentType: String?,
                headers: [HeaderField], bytes: BodySize, redirect: RedirectChain?, tls: TLSConnection?,
                timings: TransferTimings, error: TransferFailure?, body: String?, findings: [Finding]) {
        self.path = path
        self.url = url
        self.verdict = verdict
        self.usable = usable ?? LocationUsability.isUsable(httpStatus: httpStatus, findings: findings)
        self.httpStatus = httpStatus
        self.contentType = contentType
        self.headers = headers
        self.bytes = bytes
        self.redirect = redirect
        self.tls = tls
        self.timings = timings
        self.error = error
        self.body = body
        self.findings = findings
    }

    /// Reads a location of report.json; one written before `usable` was recorded gets it from its
    /// status and findings (`LocationUsability.isUsable`).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        url = try container.decode(String.self, forKey: .url)
        verdict = try container.decode(Verdict.self, forKey: .verdict)
        httpStatus = try container.decodeIfPresent(Int.self, forKey: .httpStatus)
        contentType = try container.decodeIfPresent(String.self, forKey: .contentType)
        headers = try container.decode([HeaderField].self, forKey: .headers)
        bytes = try container.decode(BodySize.self, forKey: .bytes)
        redirect = try container.decodeIfPresent(RedirectChain.self, forKey: .redirect)
        tls = try container.decodeIfPresent(TLSConnection.self, forKey: .tls)
        timings = try container.decode(TransferTimings.self, forKey: .timings)
        error = try container.decodeIfPresent(TransferFailure.self, forKey: .error)
        body = try container.decodeIfPresent(String.self, forKey: .body)
        findings = try container.decode([Finding].self, forKey: .findings)
        usable = try container.decodeIfPresent(Bool.self, forKey: .usable)
            ?? LocationUsability.isUsable(httpStatus: httpStatus, findings: findings)
    }
}

/// A redirect answered at a file location, followed for diagnosis only (Apple follows none).
public struct RedirectChain: Sendable, Equatable, Codable {
    /// The `Location` header as served.
    public var location: String
    /// Every hop followed, starting with the file URL itself.
    public var hops: [RedirectHop]
    /// Why following stopped: "final response", "hop limit (5)", "loop", "error: ...".
    public var end: String
    /// True when the end of the chain serves a JSON object (the file exists, but behind a redirect).
    public var endServesJSONObject: Bool

    public init(location: String, hops: [RedirectHop], end: String, endServesJSONObject: Bool) {
        self.location = location
        self.hops = hops
        self.end = end
        self.endServesJSONObject = endServesJSONObject
    }
}

/// One response in a redirect chain.
public struct RedirectHop: Sendable, Equatable, Codable {
    public var url: String
    public var status: Int?
    public var location: String?
    public var contentType: String?
    /// The transfer error at this hop, if any.
    public var error: String?

    public init(url: String, status: Int?, location: String?, contentType: String?, error: String?) {
        self.url = url
        self.status = status
        self.location = location
        self.contentType = contentType
        self.error = error
    }
}
