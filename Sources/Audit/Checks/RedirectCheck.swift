import Fetching

/// Any 3xx at the file URL. Apple follows no redirect (swcd logs "Denying redirect"), nor does
/// Android's verifier (assetlinks.json must be served "without any redirects", *Verify Android App
/// Links*), so the file must be served directly; the chain is followed only to tell the user where it leads.
public enum RedirectCheck: LocationCheck {
    /// The check's stable id, stored in each of its findings (`Finding.check`).
    public static let id = "redirect"
    public static let present = Rule("redirect.present", .error, check: id,
        meaning: "The file URL answers with a redirect; Apple does not follow redirects, and neither does Android's App Links verifier.",
        fix: "Serve the file itself, with status 200, at this exact URL (exempt it from apex→www and similar redirect rules).")

    public static let rules = [present]

    public static func findings(for location: FetchedLocation) -> [Finding] {
        let response = location.response
        guard location.gotResponse, response.isRedirect, let status = response.status else { return [] }
        let target = response.header("location") ?? response.redirectURL ?? "(no Location header)"
        var message = "\(response.url) answers \(status) and points to \(target)."
        if let last = location.fetch.redirectHops.last {
            if location.redirectEndServesObject {
                message += " The file exists at \(last.url), behind \(Counted.noun(location.fetch.redirectHops.count, "redirect")); \(location.kind.reader) will not go there."
            } else if let end = location.fetch.redirectEnd {
                message += " Following it ends at \(last.url) with \(last.status.map(String.init) ?? "no response") (\(end))."
            }
        }
        return [present.finding(message)]
    }
}
