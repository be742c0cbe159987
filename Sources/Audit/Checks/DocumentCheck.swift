import AASA
import Fetching
import Foundation

/// The body of a 200, validated as an AASA document (JSON, then schema: see `DocumentValidator`) or,
/// at the Android location, as a Digital Asset Links statement list (`AssetLinksValidator`), and
/// recognised as an HTML page when one is served in the file's place.
public enum DocumentCheck: LocationCheck {
    /// The check's stable id, stored in each of its findings (`Finding.check`).
    public static let id = "document"
    public static let htmlPage = Rule("http.html-page", .error, check: id,
        meaning: "The URL answers 200 with an HTML page, typically a single-page app's catch-all route, a login or a bot-challenge page.",
        fix: "Serve the real file at this path before the catch-all route (e.g. a static file or an exact location rule).")

    /// This check's own rule.
    public static let rules = [htmlPage]
    /// The document rules it reports on a served file: the validators', but the size limit (`SizeCheck`'s).
    public static let coreRules = (DocumentValidator.rules + AssetLinksValidator.rules)
        .filter { $0.id != FileSizeCheck.tooLarge.id && $0.id != AssetLinksValidator.tooLarge.id }.map { $0.reported(by: id) }

    public static func findings(for location: FetchedLocation) -> [Finding] {
        if location.kind == .assetLinks {
            guard let validation = location.assetLinks else { return [] }
            if validation.document == nil, let page = htmlPageFinding(location) { return [page] }
            // SizeCheck reports Android's size limit, with the transfer's details.
            return validation.findings.filter { $0.id != AssetLinksValidator.tooLarge.id }.map { $0.reported(by: id) }
        }
        guard let validation = location.validation else { return [] }
        // An HTML page is named as such rather than as a JSON syntax error.
        if validation.json == nil, !validation.wasSigned, let page = htmlPageFinding(location) { return [page] }
        // SizeCheck reports the size of a served file, with the transfer's details; once is enough.
        return validation.findings.filter { $0.id != FileSizeCheck.tooLarge.id }.map { $0.reported(by: id) }
    }

    /// An HTML page served in the file's place.
    private static func htmlPageFinding(_ location: FetchedLocation) -> Finding? {
        let head = String(decoding: location.response.body.prefix(2048), as: UTF8.self)
        let start = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }.prefix(200).lowercased()
        let type = ContentTypeCheck.mediaType(of: location.response.header("content-type") ?? "")
        let looksHTML = ["<!doctype html", "<html", "<head", "<body", "<!--"].contains { start.hasPrefix($0) }
            || (type == "text/html" && start.hasPrefix("<"))
        guard looksHTML else { return nil }
        var what = "an HTML page"
        let lowered = head.lowercased()
        if lowered.contains("just a moment") || lowered.contains("challenge") || lowered.contains("captcha") {
            what = "an HTML bot-challenge page"
        } else if lowered.contains("login") || lowered.contains("sign in") {
            what = "an HTML login page"
        } else if lowered.contains("id=\"root\"") || lowered.contains("id=\"app\"") || lowered.contains("<script") {
            what = "an HTML page that looks like a single-page app's catch-all route"
        }
        let title = htmlTitle(in: head).map { " titled \"\($0)\"" } ?? ""
        return htmlPage.finding("\(location.response.url) answers 200 with \(what)\(title) instead of the JSON file.")
    }

    private static func htmlTitle(in head: String) -> String? {
        guard let open = head.range(of: "<title>", options: .caseInsensitive),
              let close = head.range(of: "</title>", options: .caseInsensitive, range: open.upperBound..<head.endIndex) else { return nil }
        let title = head[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        return title.isEmpty ? nil : String(title.prefix(80))
    }
}
