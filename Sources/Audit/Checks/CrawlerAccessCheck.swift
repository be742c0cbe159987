import AASA
import Fetching
import Foundation
import SignedFiles

/// The origin answers Apple's crawler (`AASA-Bot/1.0.0`, which fills Apple's CDN) differently from
/// this tool: the classic WAF or bot-protection rule that lets browsers and curl through and
/// answers the crawler 403 or a challenge page. Compared at the location Apple would use.
public enum CrawlerAccessCheck {
    /// The check's stable id, stored in each of its findings (`Finding.check`).
    public static let id = "crawler"
    public static let blocksApple = Rule("access.blocks-apple", .error, check: id,
        meaning: "The origin answers Apple's crawler User-Agent (AASA-Bot) differently from an ordinary client: another status or another body. Apple's CDN then caches that answer, and devices get no file.",
        fix: "Allow the User-Agents AASA-Bot and CFNetwork (and every IP address and region) to GET the file in the WAF, bot-protection or CDN rules in front of the site.")
    public static let blocksTool = Rule("access.blocks-tool", .info, check: id,
        meaning: "The origin serves Apple's crawler User-Agent a file but not this tool's User-Agent; the location findings describe what this tool got.",
        fix: "Nothing to fix for Apple; to see what other clients get, rerun with --user-agent.")

    public static let botWall = Rule("access.bot-wall", .error, check: id,
        meaning: "A bot-management service in front of the site (Cloudflare, Akamai, AWS WAF, Imperva, Sucuri, DataDome: recognised by its own headers and page) answers Apple's crawler with its challenge or block page where the file should be, and no client gets a file Apple can read there either. Apple's crawler cannot pass a challenge; Apple's CDN caches the answer, and devices get no file even once the file is served.",
        fix: "The site's CDN/WAF team: in the bot-management and WAF rules, allow the User-Agent AASA-Bot (Apple's crawler) to GET /.well-known/apple-app-site-association with no challenge or block, then serve the file there.")

    public static let rules = [blocksApple, botWall, blocksTool]

    /// The comparison and its findings. `usedLocation` is the path Apple would take the file from (nil:
    /// none); `tool` and `crawler` map a path to what each User-Agent got there.
    public static func check(usedLocation: String?, tool: [String: FetchedLocation], crawler: [String: FetchResponse],
                             crawlerUserAgent: String, toolUserAgent: String) -> (result: CrawlerResult?, findings: [Finding]) {
        var compared = compare(usedLocation: usedLocation, tool: tool, crawler: crawler, crawlerUserAgent: crawlerUserAgent, toolUserAgent: toolUserAgent)
        // The crawler's transfer failed: curl's words are the findings' technical detail, not their sentence.
        if let error = crawler[usedLocation ?? AASAFile.wellKnownPath]?.error {
            for index in compared.findings.indices { compared.findings[index].detail = NetworkCheck.technicalDetail(error) }
        }
        return compared
    }

    private static func compare(usedLocation: String?, tool: [String: FetchedLocation], crawler: [String: FetchResponse],
                                crawlerUserAgent: String, toolUserAgent: String) -> (result: CrawlerResult?, findings: [Finding]) {
        let path = usedLocation ?? AASAFile.wellKnownPath
        guard let mine = tool[path], let theirs = crawler[path] else { return (nil, []) }
        let toolStatus = mine.response.status
        let crawlerStatus = theirs.error == nil ? theirs.status : nil
        // The crawler's body is read once, for its content only (the location checks judge the file);
        // the same bytes as the tool's (the usual case) have the root the tool's validation read.
        let crawledRoot: JSONObject?
        let sharesValidation = crawlerStatus == 200 && mine.validation != nil && mine.response.body == theirs.body
        if crawlerStatus != 200 {
            crawledRoot = nil
        } else if sharesValidation, let validation = mine.validation {
            crawledRoot = validation.root
        } else {
            crawledRoot = DocumentValidator.root(of: SignedFile.open(theirs.body))
        }
        var sameBody: Bool?
        if toolStatus == 200, crawlerStatus == 200 {
            let first = mine.validation?.root
            // The same root read from the same bytes: equal without walking both trees.
            sameBody = sharesValidation ? true
                : first != nil || crawledRoot != nil ? first == crawledRoot : mine.response.body == theirs.body
        }
        // A wall is looked for only where the file is not: another status, or a body that is not a JSON object.
        let crawlerWall = crawlerStatus != nil && (crawlerStatus != 200 || crawledRoot == nil) ? BotWallSignature.recognise(theirs) : nil
        let toolWall = toolStatus != nil && (toolStatus != 200 || mine.validation?.root == nil) ? BotWallSignature.recognise(mine.response) : nil
        let result = CrawlerResult(userAgent: crawlerUserAgent, path: path, httpStatus: crawlerStatus,
                                   toolHTTPStatus: toolStatus, sameBody: sameBody, error: theirs.error.map(TransferFailure.init),
                                   botWall: crawlerWall, toolBotWall: toolWall)
        let theirAnswer = crawlerStatus.map { "HTTP \($0)" } ?? "no answer"
        let myAnswer = toolStatus.map { "HTTP \($0)" } ?? "no answer"
        if usedLocation != nil {
            // This tool got the file Apple uses (readable, whatever its entries say); the crawler must get the same.
            if let crawlerWall {
                return (result, [blocksApple.finding(
                    "\(theirs.url) answers Apple's crawler (User-Agent \(crawlerUserAgent)) with \(theirAnswer) and \(crawlerWall.phrase) (\(crawlerWall.proof)), but this tool (User-Agent \(toolUserAgent)) with \(myAnswer) and a file Apple can read. \(crawlerWall.vendor.name) stops Apple's crawler before it reaches the file; Apple's CDN caches what the crawler gets and serves devices no file.",
                    fix: wallFix(crawlerWall, path: path))])
            }
            if crawlerStatus != 200 {
                return (result, [blocksApple.finding(
                    "\(theirs.url) answers Apple's crawler (User-Agent \(crawlerUserAgent)) with \(theirAnswer), but this tool (User-Agent \(toolUserAgent)) with \(myAnswer) and a file Apple can read. Apple's CDN gets the \(theirAnswer) and serves devices no file.")])
            }
            if sameBody == false {
                return (result, [blocksApple.finding(
                    "\(theirs.url) answers both Apple's crawler (User-Agent \(crawlerUserAgent)) and this tool (User-Agent \(toolUserAgent)) with HTTP 200, but the crawler gets a different body\(DocumentValidator.servesObject(theirs.body) ? " (another JSON file)" : " (not the JSON file, perhaps a challenge page)"). Apple's CDN stores what the crawler gets.")])
            }
            return (result, [])
        }
        if let crawlerWall {
            let mineToo = toolWall.map { $0.vendor == crawlerWall.vendor ? "this tool (User-Agent \(toolUserAgent)) gets the same wall (\(myAnswer))" : "this tool (User-Agent \(toolUserAgent)) gets \($0.phrase) (\(myAnswer))" }
                ?? "this tool (User-Agent \(toolUserAgent)) gets \(myAnswer)"
            return (result, [botWall.finding(
                "\(theirs.url) answers Apple's crawler (User-Agent \(crawlerUserAgent)) with \(theirAnswer) and \(crawlerWall.phrase) (\(crawlerWall.proof)); \(mineToo). Apple's crawler cannot get past the wall, so Apple's CDN caches that answer and serves devices no file, even once the file is served there.",
                fix: wallFix(crawlerWall, path: path))])
        }
        if crawledRoot != nil, toolStatus != 200 || sameBody == false {
            let walled = toolWall.map { " (\($0.phrase): \($0.proof))" } ?? ""
            return (result, [blocksTool.finding(
                "\(theirs.url) answers Apple's crawler (User-Agent \(crawlerUserAgent)) with HTTP 200 and a JSON file, but this tool (User-Agent \(toolUserAgent)) with \(myAnswer)\(toolStatus == 200 ? " and another body" : "")\(walled); the findings above are about what this tool got.")])
        }
        return (result, [])
    }

    /// Who acts on a wall, and what they allow: the vendor's rules are the site's CDN/WAF team's.
    static func wallFix(_ wall: BotWall, path: String) -> String {
        "The site's CDN/WAF team, in \(wall.vendor.name)'s bot-management and WAF rules: allow the User-Agent AASA-Bot (Apple's crawler, which fills the CDN devices read) to GET \(path) with no challenge or block (an allow or skip rule for that path), then run the audit again."
    }
}

extension CrawlerAccessCheck: DomainCheck {
    /// The comparison at the location Apple uses; nothing when the crawler did not fetch there.
    public static func check(_ context: DomainCheckContext) -> DomainCheckOutput {
        let access = check(usedLocation: context.usedLocation, tool: context.fetched, crawler: context.crawled,
                           crawlerUserAgent: context.settings.crawlerUserAgent, toolUserAgent: context.settings.userAgent)
        return DomainCheckOutput(findings: access.findings, facts: access.result.map(DomainCheckFacts.crawler))
    }
}
