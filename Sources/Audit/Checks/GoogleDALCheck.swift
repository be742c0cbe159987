import AASA
import Fetching

/// Google's view of the site's statements (`--google-dal`), compared with the origin's file as Apple's
/// CDN copy is (`CDNCheck`).
///
/// Google's Digital Asset Links API answers `statements:list` from Google's own fetch of the site,
/// cached for `maxAge`; Android's documentation tells developers to check it. What it says is Google's
/// view, which may lag the origin: the origin's own file is audited separately (`assetlinks.*`).
public enum GoogleDALCheck {
    /// The check's stable id, stored in each of its findings (`Finding.check`).
    public static let id = "dal"
    public static let error = Rule("dal.error", .warning, check: id,
        meaning: "Google's Digital Asset Links API reports error codes for its fetch of the site's assetlinks.json (a fetch failure, a redirect, a wrong Content-Type, malformed content…): Google's view of the site has none of the statements it could not read.",
        fix: "Fix what each error code names at the origin (the assetlinks.* findings of the file say what this tool sees now); Google fetches the file again once its answer's maxAge has passed.")
    public static let differs = Rule("dal.differs", .warning, check: id,
        meaning: "Google's Digital Asset Links API holds other App Links statements for the site than its assetlinks.json serves (with the lists it includes): an app and fingerprint only one of them lists.",
        fix: "When the origin's file is the one you want, wait: Google's answer holds until its maxAge passes, then Google fetches the file again. Otherwise fix the file.")
    public static let ok = Rule("dal.ok", .info, check: id,
        meaning: "Google's Digital Asset Links API holds the same App Links statements for the site as its assetlinks.json serves, with no error code; the finding says how long Google's answer holds (maxAge).",
        fix: "Nothing to do.")
    public static let unreachable = Rule("dal.unreachable", .warning, check: id,
        meaning: "Google's Digital Asset Links API did not answer usably (no answer, a status other than 200, or a body that is not its JSON answer), so Google's view was not checked; this says nothing about the site.",
        fix: "Check this machine's access to digitalassetlinks.googleapis.com (proxy, firewall, DNS) or --google-dal-base, or run without --google-dal.")

    public static let rules = [error, differs, ok, unreachable]

    /// The result and findings for the API's answer. `origin`: the grants of the statements Android
    /// reads from the site (nil when it reads no statement list there).
    public static func check(answer response: FetchResponse, domain: String, origin: [AndroidGrant]?) -> (result: GoogleDALResult, findings: [Finding]) {
        var result = GoogleDALResult(url: response.url, httpStatus: response.error == nil ? response.status : nil,
                                     error: response.error.map(TransferFailure.init))
        if let failure = response.error {
            return (result, [unreachable.finding(
                "Google's Digital Asset Links API could not be reached from here, so Google's view of \(domain) was not checked. This is about this machine's network, not the site.",
                detail: NetworkCheck.technicalDetail(failure))])
        }
        guard let status = response.status, status == 200 else {
            let answered = response.status.map { "answered HTTP \($0)" } ?? "sent no HTTP response"
            return (result, [unreachable.finding("Google's Digital Asset Links API \(answered) for \(domain), so Google's view of the site was not checked. This says nothing about the site.")])
        }
        let list: GoogleStatementList
        do throws(GoogleStatementList.ReadError) {
            guard !response.bytes.truncated else { throw .notJSON("the answer is larger than the byte limit") }
            list = try GoogleStatementList.read(Array(response.body))
        } catch {
            let why: String
            switch error {
            case .notJSON(let reason): why = "is not JSON (\(reason))"
            case .notObject: why = "is not a JSON object"
            }
            return (result, [unreachable.finding("Google's Digital Asset Links API answer for \(domain) \(why), so Google's view of the site was not checked.")])
        }
        result.grants = list.grants
        result.errorCodes = list.errorCodes.isEmpty ? nil : list.errorCodes
        result.debugString = list.debugString
        result.maxAge = list.maxAge
        result.maxAgeSeconds = list.maxAgeSeconds
        let originGrants = origin ?? []
        let onlyAtGoogle = list.grants.filter { !originGrants.contains($0) }
        let onlyAtOrigin = originGrants.filter { !list.grants.contains($0) }
        result.matchesOrigin = onlyAtGoogle.isEmpty && onlyAtOrigin.isEmpty
        result.onlyAtGoogle = onlyAtGoogle.isEmpty ? nil : onlyAtGoogle
        result.onlyAtOrigin = onlyAtOrigin.isEmpty ? nil : onlyAtOrigin
        let holds = maxAgeSentence(list)
        var findings: [Finding] = []
        if !list.errorCodes.isEmpty {
            let named = list.errorCodes.map { code in GoogleStatementList.meaning(ofErrorCode: code).map { "\(code) (\($0))" } ?? code }
            var message = "Google's Digital Asset Links API reports \(named.joined(separator: ", ")) for its fetch of https://\(domain)'s statements"
            message += list.debugString.map { "; its explanation: \"\(Self.shortened($0))\"" } ?? ""
            message += ". Google's view of the site has only the statements it could read (\(list.grants.count)). \(holds)"
            findings.append(error.finding(message))
        }
        if onlyAtGoogle.isEmpty && onlyAtOrigin.isEmpty {
            if findings.isEmpty {
                findings.append(ok.finding("Google's Digital Asset Links API holds the same App Links statements for \(domain) as its assetlinks.json serves (\(count(list.grants.count))). \(holds)"))
            }
            return (result, findings)
        }
        var parts: [String] = []
        if !onlyAtGoogle.isEmpty {
            parts.append("Google has \(names(onlyAtGoogle)), which \(origin == nil ? "the origin serves no statement list Android reads for" : "the origin's file does not list")")
        }
        if !onlyAtOrigin.isEmpty {
            parts.append("the origin lists \(names(onlyAtOrigin)), which Google's answer does not have")
        }
        findings.append(differs.finding("Google's Digital Asset Links API and https://\(domain)/.well-known/assetlinks.json differ: \(parts.joined(separator: "; ")). \(holds)"))
        return (result, findings)
    }

    /// "Google says its answer holds for another 1 h (maxAge 3600s); a change at the origin may not show before then."
    static func maxAgeSentence(_ list: GoogleStatementList) -> String {
        guard let maxAge = list.maxAge else { return "Google sent no maxAge, so how long its answer holds is unknown." }
        guard let seconds = list.maxAgeSeconds else { return "Google's maxAge \"\(shortened(maxAge))\" is not a duration, so how long its answer holds is unknown." }
        return "Google says its answer holds for another \(CDNCheck.duration(seconds)) (maxAge \(maxAge)); a change at the origin may not show there before then."
    }

    static func names(_ grants: [AndroidGrant]) -> String {
        let shown = grants.prefix(5).map(\.description).joined(separator: ", ")
        return grants.count > 5 ? shown + " and \(grants.count - 5) more" : shown
    }

    static func count(_ grants: Int) -> String { grants == 1 ? "1 app and fingerprint" : "\(grants) apps and fingerprints" }

    /// Text from the API, shown in a message: at most 300 characters.
    static func shortened(_ text: String) -> String { text.count > 300 ? String(text.prefix(300)) + "…" : text }
}

extension GoogleDALCheck: DomainCheck {
    public static var part: DomainPart { .android }

    /// Google's answer against the statements Android reads from the site; nothing when it was not asked.
    public static func check(_ context: DomainCheckContext) -> DomainCheckOutput {
        guard context.android != nil, let response = context.googleDAL else { return DomainCheckOutput() }
        let origin = context.androidDocument.map { document in
            AndroidGrant.grants(in: AssetLinksIncludeCheck.mergedDocument(
                document, AssetLinksIncludeCheck.outcome(domain: context.domain, document: document, included: context.androidIncludes)))
        }
        let answer = check(answer: response, domain: context.domain, origin: origin)
        return DomainCheckOutput(findings: answer.findings, facts: .googleDAL(answer.result))
    }
}
