import Fetching

/// The HTTP status must be 200 (TN3155 reads 403/404 as "your site denied access"; 5xx is a
/// temporary failure Apple retries later). Also flags slow answers.
public enum StatusCheck: LocationCheck {
    /// The check's stable id, stored in each of its findings (`Finding.check`).
    public static let id = "status"
    public static let notFound = Rule("http.not-found", .error, check: id,
        meaning: "The server has no file at this URL (404 or 410).",
        fix: "Publish the file at /.well-known/apple-app-site-association (no extension), and check that the build or host does not drop dot-folders.")
    public static let denied = Rule("http.denied", .error, check: id,
        meaning: "The server denies access (401 or 403), often a WAF, bot rule or login wall.",
        fix: "Allow anonymous GET requests to the file from any client and region, including Apple's crawler (AASA-Bot).")
    public static let clientError = Rule("http.client-error", .error, check: id,
        meaning: "The server answered with a 4xx status other than 401, 403, 404 or 410.",
        fix: "Serve the file with status 200 to a plain anonymous GET.")
    public static let serverError = Rule("http.server-error", .error, check: id,
        meaning: "The server answered with a 5xx status; Apple treats it as a temporary failure and retries later.",
        fix: "Fix the server error; check the server's logs for this path.")
    public static let unexpectedStatus = Rule("http.unexpected-status", .error, check: id,
        meaning: "The status is neither 200 nor a redirect or error that Apple understands.",
        fix: "Serve the file with status 200 and the file as the body.")
    public static let slow = Rule("http.slow", .warning, check: id,
        meaning: "The file took longer than the slow threshold to arrive; Apple's fetch may time out.",
        fix: "Serve the file as a static file close to the edge (a CDN or the web server itself, not an application).")

    public static let rules = [notFound, denied, clientError, serverError, unexpectedStatus, slow]

    public static func findings(for location: FetchedLocation) -> [Finding] {
        guard location.gotResponse, let status = location.response.status else { return [] }
        var findings: [Finding] = []
        let url = location.response.url
        let android = location.kind == .assetLinks
        switch status {
        // A redirect is `RedirectCheck`'s (`FetchResponse.isRedirect`).
        case _ where status == 200 || FetchResponse.isRedirect(status: status): break
        case 404, 410:
            findings.append(notFound.finding("\(url) answers \(status): there is no file there.",
                                             fix: android ? "Publish the statement list at /.well-known/assetlinks.json, and check that the build or host does not drop dot-folders." : nil))
        case 401, 403:
            findings.append(denied.finding("\(url) answers \(status): access is denied.",
                                           fix: android ? "Allow anonymous GET requests to /.well-known/assetlinks.json from any client and region." : nil))
        case 400...499: findings.append(clientError.finding("\(url) answers \(status)."))
        case 500...599: findings.append(serverError.finding("\(url) answers \(status), a server error."))
        default: findings.append(unexpectedStatus.finding("\(url) answers \(status) instead of 200."))
        }
        let total = location.response.timings.totalMs
        if total > location.settings.slowThresholdMs {
            findings.append(slow.finding("The answer took \(Int(total)) ms (threshold \(Int(location.settings.slowThresholdMs)) ms)."))
        }
        return findings
    }
}
