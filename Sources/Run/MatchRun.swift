import AASA
import Audit
import Fetching
import Foundation
import Reporting

/// `match`: the document (a local file, or the file Apple would use from a live domain, fetched as
/// the audit fetches it) → a decision for each URL: which app, if any, it opens, and which rule decides.
public struct MatchRun: Sendable {
    /// Where the document comes from.
    public enum Source: Sendable, Equatable {
        /// A file ("-" for standard input).
        case file(String)
        /// A domain whose file is fetched.
        case domain(String)
        /// An app's entitlements (`--entitlements FILE [--app-id ID]`): each URL is decided against the
        /// file Apple reads for the applinks entry that covers its host (`runForApp`).
        case entitlements(String, appID: String?)
    }

    public var source: Source
    /// The URLs (or paths) to decide.
    public var urls: [String]
    /// With `.file`: the host the file is served from (nil: any host).
    public var host: String?
    /// Decide for this app only.
    public var appID: String?
    /// How a `.domain` is fetched.
    public var fetch: FetchOptions
    /// Flipped by Ctrl-C or SIGTERM: with `.entitlements`, reading the app (a large `.ipa`) and the
    /// fetches of its hosts give up; nil: never stopped.
    public var stop: StopSwitch?

    /// A match of `urls` against `source`; see each property.
    public init(source: Source, urls: [String], host: String? = nil, appID: String? = nil, fetch: FetchOptions, stop: StopSwitch? = nil) {
        self.source = source
        self.urls = urls
        self.host = host
        self.appID = appID
        self.fetch = fetch
        self.stop = stop
    }

    /// What `run` decided: one result per URL that could be decided, in the order of `urls`, and
    /// how many URLs were refused (neither an http(s) URL nor a path; each told on its own line).
    public struct Outcome: Sendable {
        public var results: [MatchResult]
        public var refusedURLs: Int
    }

    /// The decisions, in the order of `urls` (a bad URL told to `notice` in its place, the others still
    /// decided); nil (with the reason told to `notice`) when there is no document to decide with:
    /// exit status 2, as for any refused URL.
    public func run(notice: (String) -> Void) -> Outcome? {
        // Each URL is read before anything is fetched: a bad one is its own error line, not the run's end.
        var parsedURLs: [(text: String, url: MatchURL)] = []
        var refused = 0
        for url in urls {
            do {
                var parsed = try MatchURL.parse(url)
                parsed.host = parsed.host.map(Self.asciiHost)
                parsedURLs.append((url, parsed))
            } catch {
                notice(TerminalText.sanitize(error.description))
                refused += 1
            }
        }
        let decide: (MatchURL, String) -> MatchResult
        let host: String?
        switch source {
        case .file:
            guard let (document, fileHost) = document(notice: notice) else { return nil }
            host = fileHost
            let matcher = URLMatcher(document, host: host)
            decide = { url, text in matcher.decide(url, text: text, appID: appID) }
        case .domain(let text):
            guard let fetched = fetchDevice(text, notice: notice) else { return nil }
            host = fetched.domain
            decide = { url, text in
                Self.decideForDevice(url, text: text, appID: appID, host: fetched.domain, fileHost: fetched.domain,
                                     device: fetched.device, modeEntry: false)
                    ?? MatchResult(url: text, decision: .noMatch, appID: appID, reason: "Apple can read no file from \(fetched.domain)",
                                   deviceFile: DeviceFile.none)
            }
        case .entitlements(let path, let appID):
            guard var outcome = runForApp(entitlements: path, appID: appID, urls: parsedURLs, notice: notice) else { return nil }
            outcome.refusedURLs += refused
            return outcome
        }
        let results = parsedURLs.map { text, url in
            decide(url, text.hasPrefix("/") && host != nil ? "https://\(host ?? "")\(text)" : text)
        }
        return Outcome(results: results, refusedURLs: refused)
    }

    /// The document of a `.file` source (as `run` decides with it) or a `.domain` source (the file a
    /// release device reads; `run` decides a domain's URLs with `fetchDevice`, which also says what the
    /// origin's file would do when devices get none), with the host it governs (nil: any host); nil,
    /// with the reason told to `notice`, when there is none. `diff` reads its two files this way. An
    /// `.entitlements` source has no one document: nil.
    public func document(notice: (String) -> Void) -> (document: AASADocument, host: String?)? {
        switch source {
        case .file(let file):
            let data: Data
            do {
                data = try LocalFile.read(file)
            } catch {
                notice("cannot read \(file): \(error)")
                return nil
            }
            let validation = DocumentValidator.validate(SignedFile.open(data))
            guard let parsed = validation.document else {
                let why = validation.findings.first { $0.severity == .error }?.message ?? "its JSON root is not an object"
                notice("\(file) is not an AASA document: \(TerminalText.sanitize(why))")
                return nil
            }
            // Served as it is, Apple would read no document from it (over 128 KB, say): no URL opens
            // an app, as `match DOMAIN` says of such a served file; deciding with it would be untrue.
            if let cause = LocationUsability.causes(in: validation.findings).first {
                notice(TerminalText.sanitize("\(file): Apple reads no document from a file like this (\(cause.id): \(cause.message))"))
                return nil
            }
            reportErrors(validation.findings, in: file, notice: notice)
            return (parsed, self.host.map(Self.asciiHost))
        case .domain(let text):
            guard let fetched = fetchDocument(text, notice: notice) else { return nil }
            return (fetched.document, fetched.domain)
        case .entitlements:
            return nil
        }
    }

    /// The decision for `url` as devices get it from `fileHost`: with the file they read (Apple's CDN
    /// copy where the CDN answered, the origin's for a `?mode=` entry or when the CDN was not asked);
    /// when they get none, what the origin's file would do becomes the reason nothing opens. Nil when
    /// there is no file to decide with at all.
    static func decideForDevice(_ url: MatchURL, text: String, appID: String?, host: String, fileHost: String,
                                device: DeviceOutcome, modeEntry: Bool) -> MatchResult? {
        let file = device.file(forModeEntry: modeEntry)
        if let document = file.document {
            var result = URLMatcher(document, host: host).decide(url, text: text, appID: appID)
            result.deviceFile = file.fromAppleCDN ? .appleCDN : .origin
            // A stale copy that does not open what the origin's file opens: say which file is behind.
            if file.fromAppleCDN, device.obstacles.contains(.cdnCopyStale), result.decision != .match,
               let origin = device.origin.document {
                let fromOrigin = URLMatcher(origin, host: host).decide(url, text: text, appID: appID)
                if fromOrigin.decision == .match {
                    let note = "the origin's file opens \(opened(fromOrigin)), but Apple's CDN still serves an older copy of \(fileHost)'s file, which devices read"
                    result.reason = (result.reason ?? (result.decision == .noMatch ? "no rule matches" : nil)).map { "\($0); \(note)" } ?? note
                }
            }
            return result
        }
        guard !modeEntry, let origin = device.origin.document, let absence = file.absence else { return nil }
        var result = URLMatcher(origin, host: host).decide(url, text: text, appID: appID)
        result.deviceFile = DeviceFile.none
        let clause = absence.clause(domain: fileHost)
        if result.decision == .match {
            result.reason = "would open \(opened(result)), but devices get no file because \(clause)"
            result.decision = .noMatch
            result.appIDs = []
        } else {
            let own = result.reason ?? (result.decision == .noMatch ? "no rule matches" : nil)
            result.reason = (own.map { "\($0); " } ?? "") + "devices get no file either, because \(clause)"
        }
        return result
    }

    /// "TEAM.app (details 0, component 1 …)": who a matching result opens, and by which rule.
    static func opened(_ result: MatchResult) -> String {
        let who = result.appID ?? result.appIDs.joined(separator: ", ")
        return result.rule.map { "\(who) (\($0.description))" } ?? who
    }

    /// `host` fetched and audited as the audit does it: the result, and what a device gets
    /// (`DeviceOutcome`, whose files are the documents `match` decides with). Nil (told to `notice`)
    /// when nothing could be fetched.
    func fetchAndAudit(_ host: String, notice: (String) -> Void) -> (result: DomainResult, device: DeviceOutcome)? {
        // Checked before curl opens it: a FIFO would block the fetch before it starts.
        if let caFile = fetch.caFile, let problem = FileKind.problemReading(caFile) {
            notice("--cacert \(caFile): \(problem)")
            return nil
        }
        if let (source, error) = fetch.proxy.problem {
            notice(TerminalText.sanitize(ProxyFailure(invalid: error, source: source).description))
            return nil
        }
        let site: SiteFetch
        do {
            // Stopped, the fetch hands back no site: nothing is decided.
            guard let first = try SiteFetcher(options: fetch).fetch(domains: [host], until: stop).first, let fetched = first else { return nil }
            site = fetched
        } catch {
            notice(TerminalText.sanitize("\(error)"))
            return nil
        }
        return Auditor(settings: AuditSettings(userAgent: fetch.userAgent)).auditWithDocument(site)
    }

    /// Tells (on standard error) that the file has errors; matching still goes ahead on what parses.
    private func reportErrors(_ findings: [Finding], in file: String, notice: (String) -> Void) {
        let errors = findings.filter { $0.severity == .error }.count
        guard errors > 0 else { return }
        notice("note: \(file) has \(errors) error\(errors == 1 ? "" : "s") (see aasa-audit validate); deciding with what it says")
    }

    /// Fetches the domain as the audit does (its crawler and CDN included) and returns what a device
    /// gets, telling which file the decisions are made with; nil (told) when Apple can read no file
    /// from the origin at all.
    private func fetchDevice(_ text: String, notice: (String) -> Void) -> (domain: String, device: DeviceOutcome)? {
        let name: DomainName
        do {
            name = try DomainName.parse(text).name
        } catch {
            notice("\(TerminalText.sanitize(text)): \(error.description)")
            return nil
        }
        guard let (result, device) = fetchAndAudit(name.ascii, notice: notice) else { return nil }
        guard device.origin.document != nil, let used = device.origin.location else {
            let why = result.firstError.map { ": " + TerminalText.sanitize($0.message + ($0.detail.map { " (\($0))" } ?? "")) } ?? ""
            notice("\(name.ascii) serves no file Apple can read\(why)")
            return nil
        }
        notice(Self.decidingWith(device, domain: name.ascii, used: used, findings: result.findings))
        // A file Apple reads is the file Apple uses, broken entries and all: say which, then decide.
        if let note = Self.errorsNote(of: result, at: used) { notice(note) }
        return (name.ascii, device)
    }

    /// Fetches the domain as the audit does and returns the document a release device reads (`diff`
    /// compares it), or prints why there is none.
    private func fetchDocument(_ text: String, notice: (String) -> Void) -> (domain: String, document: AASADocument)? {
        let name: DomainName
        do {
            name = try DomainName.parse(text).name
        } catch {
            notice("\(TerminalText.sanitize(text)): \(error.description)")
            return nil
        }
        guard let (result, device) = fetchAndAudit(name.ascii, notice: notice) else { return nil }
        guard let document = device.release.document, let used = device.release.location else {
            if device.origin.document != nil, let absence = device.release.absence {
                notice(TerminalText.sanitize("devices get no file: \(absence.clause(domain: name.ascii))"))
                return nil
            }
            let why = result.firstError.map { ": " + TerminalText.sanitize($0.message + ($0.detail.map { " (\($0))" } ?? "")) } ?? ""
            notice("\(name.ascii) serves no file Apple can read\(why)")
            return nil
        }
        let copy = device.release.fromAppleCDN ? "Apple's CDN copy of " : ""
        notice(TerminalText.sanitize("deciding with \(copy)https://\(name.ascii)\(used) (the file Apple uses)"))
        // A file Apple reads is the file Apple uses, broken entries and all: say which, then decide.
        if let note = Self.errorsNote(of: result, at: used) { notice(note) }
        return (name.ascii, document)
    }

    /// The note that the file at `used` has errors (the first few named) and is read all the same; nil without errors.
    static func errorsNote(of result: DomainResult, at used: String) -> String? {
        let errors = result.locations.first { $0.path == used }?.findings.filter { $0.severity == .error } ?? []
        guard !errors.isEmpty else { return nil }
        let shown = errors.prefix(namedErrors).map { error in
            "\(error.id)\(error.pointer.map { " at \($0.isEmpty ? "/" : $0)" } ?? ""): \(error.message)"
        }
        let more = errors.count > namedErrors ? "; and \(errors.count - namedErrors) more" : ""
        return TerminalText.sanitize("note: the file has \(errors.count) error\(errors.count == 1 ? "" : "s") (\(shown.joined(separator: "; "))\(more)); "
            + "Apple still reads it, and the decisions below follow what it says")
    }

    /// The note before the decisions: which file devices read, or why they get none.
    static func decidingWith(_ device: DeviceOutcome, domain: String, used: String, findings: [Finding]) -> String {
        let url = TerminalText.sanitize("https://\(domain)\(used)")
        if let absence = device.release.absence {
            return TerminalText.sanitize("devices get no file: \(absence.clause(domain: domain)); "
                + "the decisions below say what \(url) (the file Apple uses) would do once they get it")
        }
        if device.release.fromAppleCDN {
            let stale = device.obstacles.contains(.cdnCopyStale) ? ", which differs from the origin's file" : ""
            return "deciding with Apple's CDN copy of \(url) (what iOS 14+ and macOS 11+ read)\(stale)"
        }
        let cdn = findings.contains { $0.id == CDNCheck.unreachable.id } ? "Apple's CDN could not be reached" : "Apple's CDN was not asked"
        return "deciding with \(url) (the file Apple uses); \(cdn), so the copy iOS 14+ and macOS 11+ read is not checked"
    }

    /// At most this many of the used file's errors are named in the note before deciding.
    static let namedErrors = 3

    /// An internationalised host in its ASCII (punycode) form, as the fetched domain is: `bücher.example`
    /// in a URL or `--host` is the same host as `xn--bcher-kva.example`. Anything else is left as it is.
    public static func asciiHost(_ host: String) -> String {
        guard host.utf8.contains(where: { $0 >= 0x80 }), let name = try? DomainName.parse(host).name else { return host.lowercased() }
        return name.ascii
    }
}
