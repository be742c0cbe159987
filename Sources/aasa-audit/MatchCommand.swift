import AASA
import Arguments
import Audit
import Fetching
import Foundation
import Reporting
import Run

/// `aasa-audit match`: which app, if any, a URL opens, and which rule decides; against a local file or
/// the file Apple would use from a live domain.
struct MatchCommand: Subcommand {
    var options: MatchOptions
    var console: Console

    func run() -> ExitStatus {
        let document: AASADocument
        let host: String?
        switch options.source {
        case .file(let file):
            let data: Data
            do {
                data = try LocalFile.read(file)
            } catch {
                console.error("aasa-audit match: cannot read \(file): \(error)")
                return .usageOrInputError
            }
            let validation = DocumentValidator.validate(data)
            guard let parsed = validation.document else {
                let why = validation.findings.first { $0.severity == .error }?.message ?? "its JSON root is not an object"
                console.error("aasa-audit match: \(file) is not an AASA document: \(TerminalText.sanitize(why))")
                return .usageOrInputError
            }
            reportErrors(validation.findings, in: file)
            document = parsed
            host = options.host.map(Self.asciiHost)
        case .domain(let text):
            guard let fetched = fetch(text) else { return .usageOrInputError }
            document = fetched.document
            host = fetched.domain
        }
        let matcher = URLMatcher(document, host: host)
        var results: [MatchResult] = []
        for url in options.urls {
            let shown = url.hasPrefix("/") && host != nil ? "https://\(host ?? "")\(url)" : url
            do {
                var parsed = try MatchURL.parse(url)
                parsed.host = parsed.host.map(Self.asciiHost)
                results.append(matcher.decide(parsed, text: shown, appID: options.appID))
            } catch {
                console.error("aasa-audit match: \(TerminalText.sanitize(error.description))")
                return .usageOrInputError
            }
        }
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for result in results {
                guard let data = try? encoder.encode(result) else { return .usageOrInputError }
                console.out(TerminalText.jsonForTerminal(data))
            }
        } else {
            for result in results { console.out(Self.line(for: result)) }
        }
        return results.allSatisfy { $0.decision == .match } ? .success : .domainFailed
    }

    /// One line for people: the URL, what happens, and the rule that decides. Sanitised whole: the
    /// URL, app IDs and rule text may come from a served file.
    static func line(for result: MatchResult) -> String {
        let rule = result.rule?.description
        let others = result.appIDs.filter { $0 != result.appID }
        let text: String
        switch result.decision {
        case .match:
            let who = result.appID ?? result.appIDs.joined(separator: ", ")
            let also = result.appID != nil && !others.isEmpty ? "; also opens \(others.joined(separator: ", "))" : ""
            text = "\(result.url)  opens \(who)  (\(rule ?? "matched"))\(also)"
        case .exclude, .noMatch:
            let target = result.appID.map { "does not open \($0)" } ?? "stays in the browser"
            let why = result.decision == .exclude ? "excluded by \(rule ?? "a rule")" : result.reason ?? "no rule matches"
            let also = !others.isEmpty ? "; opens \(others.joined(separator: ", ")) instead" : ""
            text = "\(result.url)  \(target): \(why)\(also)"
        }
        return TerminalText.sanitize(text)
    }

    /// Tells (on standard error) that the file has errors; matching still goes ahead on what parses.
    private func reportErrors(_ findings: [Finding], in file: String) {
        let errors = findings.filter { $0.severity == .error }.count
        guard errors > 0 else { return }
        console.error("aasa-audit match: note: \(file) has \(errors) error\(errors == 1 ? "" : "s") (see aasa-audit validate); deciding with what it says")
    }

    /// Fetches the domain as the audit does and returns the document Apple would use, or prints why there is none.
    private func fetch(_ text: String) -> (domain: String, document: AASADocument)? {
        let name: DomainName
        do {
            name = try DomainName.parse(text).name
        } catch {
            console.error("aasa-audit match: \(TerminalText.sanitize(text)): \(error.description)")
            return nil
        }
        let network = options.network
        if let caFile = network.caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            console.error("aasa-audit match: --cacert \(caFile): the file does not exist or cannot be read")
            return nil
        }
        let fetchOptions = FetchOptions(userAgent: AuditOptions.defaultUserAgent, caFile: network.caFile, connectTo: network.connectTo,
                                        resolve: network.resolve, connectTimeout: network.connectTimeout, totalTimeout: network.timeout,
                                        concurrency: 2)
        let site: SiteFetch
        do {
            guard let first = try SiteFetcher(options: fetchOptions).fetch(domains: [name.ascii]).first else { return nil }
            site = first
        } catch {
            console.error("aasa-audit match: \(error)")
            return nil
        }
        let (result, document) = Auditor(settings: AuditSettings(userAgent: AuditOptions.defaultUserAgent)).auditWithDocument(site)
        guard let document, let used = result.usedLocation else {
            let why = result.firstError.map { ": \(TerminalText.sanitize($0.message))" } ?? ""
            console.error("aasa-audit match: \(name.ascii) serves no file Apple would use\(why)")
            return nil
        }
        console.error("aasa-audit match: deciding with https://\(name.ascii)\(used) (the file Apple would use)")
        return (name.ascii, document)
    }

    /// An internationalised host in its ASCII (punycode) form, as the fetched domain is: `bücher.example`
    /// in a URL or `--host` is the same host as `xn--bcher-kva.example`. Anything else is left as it is.
    static func asciiHost(_ host: String) -> String {
        guard host.utf8.contains(where: { $0 >= 0x80 }), let name = try? DomainName.parse(host).name else { return host.lowercased() }
        return name.ascii
    }
}
