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

    /// The decisions, in the order of `urls`; nil (with the reason told to `notice`) when there is no
    /// document to decide with, or a URL is neither an http(s) URL nor a path: exit status 2.
    public func run(notice: (String) -> Void) -> [MatchResult]? {
        if case .entitlements(let path, let appID) = source {
            return runForApp(entitlements: path, appID: appID, notice: notice)
        }
        guard let (document, host) = document(notice: notice) else { return nil }
        let matcher = URLMatcher(document, host: host)
        var results: [MatchResult] = []
        for url in urls {
            let shown = url.hasPrefix("/") && host != nil ? "https://\(host ?? "")\(url)" : url
            do {
                var parsed = try MatchURL.parse(url)
                parsed.host = parsed.host.map(Self.asciiHost)
                results.append(matcher.decide(parsed, text: shown, appID: appID))
            } catch {
                notice(TerminalText.sanitize(error.description))
                return nil
            }
        }
        return results
    }

    /// The document of a `.file` or `.domain` source, with the host it governs (nil: any host), as
    /// `run` decides with it; nil, with the reason told to `notice`, when there is none (`diff` reads
    /// its two files this way too). An `.entitlements` source has no one document: nil.
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

    /// Tells (on standard error) that the file has errors; matching still goes ahead on what parses.
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

    private func reportErrors(_ findings: [Finding], in file: String, notice: (String) -> Void) {
        let errors = findings.filter { $0.severity == .error }.count
        guard errors > 0 else { return }
        notice("note: \(file) has \(errors) error\(errors == 1 ? "" : "s") (see aasa-audit validate); deciding with what it says")
    }

    /// Fetches the domain as the audit does and returns the document Apple would use, or prints why there is none.
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
            let why = result.firstError.map { ": \(TerminalText.sanitize($0.message))" } ?? ""
            notice("\(name.ascii) serves no file Apple can read\(why)")
            return nil
        }
        notice("deciding with https://\(name.ascii)\(used) (the file Apple uses)")
        // A file Apple reads is the file Apple uses, broken entries and all: say which, then decide.
        let errors = result.locations.first { $0.path == used }?.findings.filter { $0.severity == .error } ?? []
        if !errors.isEmpty {
            let shown = errors.prefix(Self.namedErrors).map { error in
                "\(error.id)\(error.pointer.map { " at \($0.isEmpty ? "/" : $0)" } ?? ""): \(error.message)"
            }
            let more = errors.count > Self.namedErrors ? "; and \(errors.count - Self.namedErrors) more" : ""
            notice(TerminalText.sanitize("note: the file has \(errors.count) error\(errors.count == 1 ? "" : "s") (\(shown.joined(separator: "; "))\(more)); "
                + "Apple still reads it, and the decisions below follow what it says"))
        }
        return (name.ascii, document)
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
