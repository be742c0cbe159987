import AASA
import Audit
import Fetching
import Foundation
import Reporting

/// `aasa-audit match`: which app, if any, a URL opens, and which rule decides; against a local file or
/// the file Apple would use from a live domain.
struct MatchCommand {
    /// Where the document comes from.
    enum Source: Equatable {
        case file(String)
        case domain(String)
    }

    var source: Source
    var urls: [String]
    /// `--host`: with `--file`, the host the file is served from.
    var host: String?
    var appID: String?
    var json = false
    var connectTo: [String] = []
    var resolve: [String] = []
    var caFile: String?
    var timeout = 10.0
    var connectTimeout = 5.0
    var console = Console()

    static let help = """
        USAGE: aasa-audit match [OPTIONS] --file FILE URL...
               aasa-audit match [OPTIONS] DOMAIN URL...

        Says whether each URL opens an app as a universal link, with Apple's matching rules (legacy paths
        and NOT, components with "/", "?", "#" and exclude, first match wins, caseSensitive and
        percentEncoded with their defaults, substitution variables), and which details entry and rule
        decide. With DOMAIN, the domain's file is fetched as the audit fetches it and the file Apple
        would use is taken (/.well-known/ first, the root location as a fallback). A URL may be a path
        ("/buy/42"): it is taken on DOMAIN (or --host). URLs on another host never match; a Unicode
        host and its punycode form (bücher.example, xn--bcher-kva.example) are the same host.

        OPTIONS:
          --file FILE           Decide against this file ("-" for standard input) instead of fetching.
          --host HOST           With --file: the host the file is served from (default: any host).
          --app APPID           Decide for this app (team ID + "." + bundle ID).
          --json                One JSON object per URL, one per line: url, decision (match, exclude,
                                no_match), appIDs (every app that gets the link), appID, rule (details,
                                kind, index, pointer, text), reason.
          --connect-to H:P:CH:CP, --resolve H:P:ADDR, --cacert FILE, --timeout S, --connect-timeout S
                                As for the audit (see aasa-audit --help).
          -h, --help            Show this help.

        EXIT STATUS:
          0  every URL opens the app (--app), or some app
          1  at least one URL stays in the browser (a rule excludes it, or none matches)
          2  usage error; the file cannot be read or is not a JSON object; the domain serves no file
             Apple would use; a URL is neither an http(s) URL nor a path
        """

    /// A missing DOMAIN, FILE or URL.
    struct MissingArgument: Error, CustomStringConvertible {
        var description: String
    }

    /// Parses the arguments after `match`; nil for `--help`.
    static func parse(_ arguments: [String]) throws -> MatchCommand? {
        var file: String?, host: String?, appID: String?, json = false
        var connectTo: [String] = [], resolve: [String] = [], caFile: String?
        var timeout = 10.0, connectTimeout = 5.0
        var positional: [String] = []
        var cursor = ArgumentCursor(arguments)
        while let argument = try cursor.next() {
            let name: String
            switch argument {
            case .positional(let text):
                positional.append(text)
                continue
            case .option(let option):
                name = option
            }
            func take() throws -> String { try cursor.value(for: name) }
            switch name {
            case "-h", "--help": return nil
            case "--file": file = try take()
            case "--host": host = try take()
            case "--app": appID = try take()
            case "--json": json = true
            case "--connect-to": connectTo.append(try CommandLineOptions.connectTo(try take()))
            case "--resolve": resolve.append(try CommandLineOptions.resolve(try take()))
            case "--cacert": caFile = try take()
            case "--timeout": timeout = try CommandLineOptions.seconds(try take(), name)
            case "--connect-timeout": connectTimeout = try CommandLineOptions.seconds(try take(), name)
            default: throw UsageError.unknownOption(name)
            }
        }
        let source: Source
        if let file {
            source = .file(file)
        } else {
            guard let domain = positional.first else {
                throw MissingArgument(description: "name a DOMAIN or --file FILE, then at least one URL (see match --help)")
            }
            positional.removeFirst()
            if let host { throw UsageError.invalidValue("--host", host, "only with --file; with DOMAIN the host is the domain") }
            source = .domain(domain)
        }
        guard !positional.isEmpty else { throw MissingArgument(description: "give at least one URL or path to decide (see match --help)") }
        return MatchCommand(source: source, urls: positional, host: host, appID: appID, json: json, connectTo: connectTo,
                            resolve: resolve, caFile: caFile, timeout: timeout, connectTimeout: connectTimeout)
    }

    func run() -> AuditCommand.ExitStatus {
        let document: AASADocument
        let host: String?
        switch source {
        case .file(let file):
            guard let data = read(file) else {
                var isDirectory: ObjCBool = false
                let why = file == "-" ? "standard input failed"
                    : FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) && isDirectory.boolValue ? "it is a directory"
                    : "no such file, or not readable"
                console.error("aasa-audit match: cannot read \(file): \(why)")
                return .usageOrInputError
            }
            let validation = DocumentValidator.validate(SignedFile.open(data))
            guard let parsed = validation.document else {
                let why = validation.findings.first { $0.severity == .error }?.message ?? "its JSON root is not an object"
                console.error("aasa-audit match: \(file) is not an AASA document: \(TerminalText.sanitize(why))")
                return .usageOrInputError
            }
            reportErrors(validation.findings, in: file)
            document = parsed
            host = self.host.map(Self.asciiHost)
        case .domain(let text):
            guard let fetched = fetch(text) else { return .usageOrInputError }
            document = fetched.document
            host = fetched.domain
        }
        let matcher = URLMatcher(document, host: host)
        var results: [MatchResult] = []
        for url in urls {
            let shown = url.hasPrefix("/") && host != nil ? "https://\(host ?? "")\(url)" : url
            do {
                var parsed = try MatchURL.parse(url)
                parsed.host = parsed.host.map(Self.asciiHost)
                results.append(matcher.decide(parsed, text: shown, appID: appID))
            } catch {
                console.error("aasa-audit match: \(TerminalText.sanitize(error.description))")
                return .usageOrInputError
            }
        }
        if json {
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
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            console.error("aasa-audit match: --cacert \(caFile): the file does not exist or cannot be read")
            return nil
        }
        let options = FetchOptions(userAgent: CommandLineOptions.defaultUserAgent, caFile: caFile, connectTo: connectTo, resolve: resolve,
                                   connectTimeout: connectTimeout, totalTimeout: timeout, concurrency: 2)
        let site: SiteFetch
        do {
            guard let first = try SiteFetcher(options: options).fetch(domains: [name.ascii]).first else { return nil }
            site = first
        } catch {
            console.error("aasa-audit match: \(error)")
            return nil
        }
        let (result, document) = Auditor(settings: AuditSettings(userAgent: CommandLineOptions.defaultUserAgent)).auditWithDocument(site)
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

    private func read(_ file: String) -> Data? {
        if file == "-" { return try? FileHandle.standardInput.readToEnd() ?? Data() }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
        return FileManager.default.contents(atPath: file)
    }
}
