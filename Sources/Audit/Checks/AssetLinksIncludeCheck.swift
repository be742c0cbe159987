import AASA
import Fetching

/// The statement lists assetlinks.json includes, as Android's verifier reads them (AOSP
/// StatementService, `StatementRetriever.kt`): each https:// `include` fetched once, one level deep
/// (`MAX_INCLUDE_LEVEL` 1: what an included list includes is not read), with the file's limits and no
/// redirect followed; its statements count as the including file's. A list that cannot be read gives
/// nothing, and its failure is reported here, against the including file. Pure.
public enum AssetLinksIncludeCheck {
    /// The check's stable id, stored in each of its findings (`Finding.check`).
    public static let id = "assetlinks-include"
    public static let read = Rule("assetlinks.include-read", .info, check: id,
        meaning: "An included statement list was fetched and read; Android's verifier reads its statements as the including file's.",
        fix: "Nothing to fix.")
    public static let failed = Rule("assetlinks.include-failed", .error, check: id,
        meaning: "A statement list that assetlinks.json includes could not be read (a transfer or TLS failure, a status other than 200, a redirect, which Android does not follow, a body over 1 MiB or not a statement list), so Android takes none of its statements: the apps it lists are not verified for this site through it.",
        fix: "Serve the included list with status 200, over https, without redirects, as a JSON array of statements, or move its statements into assetlinks.json.")
    public static let broken = Rule("assetlinks.include-errors", .error, check: id,
        meaning: "An included statement list was read, but has errors of its own (listed in the message: a malformed fingerprint, package name or relation), so statements Android reads through it are wrong.",
        fix: "Fix the included list (aasa-audit validate FILE names each problem with its line).")
    public static let nested = Rule("assetlinks.include-nested", .warning, check: id,
        meaning: "An included statement list includes other lists. Android's verifier reads one level of includes (MAX_INCLUDE_LEVEL 1), so the statements of those lists do not count for this site.",
        fix: "Include those lists from assetlinks.json itself, or copy their statements into the included list.")
    public static let unchecked = Rule("assetlinks.include-unchecked", .warning, check: id,
        meaning: "assetlinks.json includes more statement lists than the tool fetches (16); Android reads them all, and the ones past the 16th were not checked.",
        fix: "Include fewer lists: merge them, or list the statements in assetlinks.json.")

    public static let rules = [read, failed, broken, nested, unchecked]

    /// The lists of `file` Android reads, with what each gave: the fetched ones in order.
    public struct Outcome: Sendable {
        /// The include's address and its checked location, when it was fetched and gave a statement list.
        public var readable: [(url: String, document: AssetLinksDocument)] = []
        /// Included lists Android reads that were not fetched (past `IncludedList.maximumFollowed`).
        public var unfetched: [String] = []
        public var findings: [Finding] = []
    }

    /// The outcome for the file's `document` (nil: none read) and the `included` lists fetched for it.
    public static func outcome(domain: String, document: AssetLinksDocument?, included: [CheckedInclude]) -> Outcome {
        var outcome = Outcome()
        guard let document else { return outcome }
        let file = "https://\(domain)\(AssetLinksFile.path)"
        let followed = document.followedIncludes
        for url in followed {
            guard let include = included.first(where: { $0.url == url }) else {
                outcome.unfetched.append(url)
                continue
            }
            let location = include.location
            guard location.result.usable, let list = location.fetched.assetLinks?.document else {
                let cause = location.result.findings.first { LocationUsability.makesUnusable($0.id) }
                    ?? location.result.findings.first { $0.severity == .error }
                var why = cause.map { "\($0.message) (\($0.id))" } ?? "it gave no statement list."
                if cause?.id == RedirectCheck.present.id { why += " Android's App Links verifier follows no redirect." }
                outcome.findings.append(failed.finding("\(url), included by \(file), could not be read: \(why) Android takes no statement from it; the rest of \(file) still counts."))
                continue
            }
            outcome.readable.append((url, list))
            let errors = location.result.findings.filter { $0.severity == .error }
            if errors.isEmpty {
                let count = list.statements.filter { $0.include == nil }.count
                outcome.findings.append(read.finding("\(url), included by \(file), was read: \(count) statement\(count == 1 ? "" : "s"), counted as \(file)'s."))
            } else {
                let named = errors.prefix(3).map { "\($0.id): \($0.message)" }.joined(separator: " ")
                outcome.findings.append(broken.finding("\(url), included by \(file), was read with \(errors.count) error\(errors.count == 1 ? "" : "s"): \(named)\(errors.count > 3 ? " (and \(errors.count - 3) more)" : "")"))
            }
            let deeper = list.includes
            if !deeper.isEmpty {
                let listed = deeper.prefix(3).joined(separator: ", ") + (deeper.count > 3 ? " and \(deeper.count - 3) more" : "")
                outcome.findings.append(nested.finding("\(url), included by \(file), includes \(listed); Android reads one level of includes, so their statements do not count for \(domain)."))
            }
        }
        if !outcome.unfetched.isEmpty {
            let count = outcome.unfetched.count
            outcome.findings.append(unchecked.finding("\(file) includes \(followed.count) lists; the \(count) after the first \(IncludedList.maximumFollowed) were not fetched (\(outcome.unfetched.prefix(3).joined(separator: ", "))\(count > 3 ? ", …" : "")), so their statements are not checked."))
        }
        return outcome
    }

    /// What Android reads for the domain: its file's statements, then those of each included list read.
    public static func mergedDocument(_ document: AssetLinksDocument, _ outcome: Outcome) -> AssetLinksDocument {
        outcome.readable.reduce(document) { $0.including($1.document) }
    }
}

extension AssetLinksIncludeCheck: DomainCheck {
    public static var part: DomainPart { .android }

    public static func check(_ context: DomainCheckContext) -> DomainCheckOutput {
        guard context.android != nil else { return DomainCheckOutput() }
        return DomainCheckOutput(findings: outcome(domain: context.domain, document: context.androidDocument, included: context.androidIncludes).findings)
    }
}
