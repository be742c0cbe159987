import Foundation

/// What one of the two file locations served, and what is wrong with it.
public struct LocationResult: Sendable, Equatable, Codable {
    /// "/.well-known/apple-app-site-association" or "/apple-app-site-association".
    public var path: String
    public var url: String
    public var verdict: Verdict
    /// True when Apple can read a document from this location (a 200 whose body is a JSON object of
    /// at most 128 KB, fetched without a transfer failure), whatever its entries say; false when it
    /// has a finding of `LocationUsability.unusableRules`. Reports written before it was recorded get
    /// it from the location's status and findings when read.
    public var usable: Bool
    public var httpStatus: Int?
    public var contentType: String?
    /// Headers that matter for diagnosis (content-type, content-encoding, content-length, location,
    /// cache-control, age, server, ...), names lower-cased.
    public var headers: [HeaderField]
    public var bytes: BodySize
    /// Set when the location answered with a redirect (which Apple does not follow).
    public var redirect: RedirectChain?
    public var tls: TLSConnection?
    public var timings: TransferTimings
    /// The transfer failure, when there was one (curl's code and text).
    public var error: TransferFailure?
    /// The served body as text, when it is UTF-8 and was read whole; for people to read in reports.
    public var body: String? {
        // Whoever sets a body sets the file it is: the digest follows (kept by `BodiesPolicy`'s
        // helpers where a body is taken out and only its digest stays).
        didSet { bodySHA256 = body.map(BodyDigest.sha256(of:)) }
    }
    /// The SHA-256 of the body's text (lower-case hex of its UTF-8 bytes), set whenever there is a
    /// text body: where the report stores the body apart (its `bodies` table, by this key) or leaves
    /// it out (`bodyOmittedBy`), this still says which file it was, so a change shows.
    public var bodySHA256: String?
    /// Set when `--bodies` left the text body out of the report (`BodiesPolicy`).
    public var bodyOmittedBy: BodiesPolicy?
    public var findings: [Finding]
    /// What the location is to the device that reads it (used by Apple, a fallback Apple does not
    /// read, shadowed, unreadable ...), decided by `LocationChoice.role` once Apple's choice is made:
    /// set for every location of a `DomainResult` (and its Android part) when the result is made or
    /// read, nil only on a location not yet part of a domain's result.
    public var role: LocationRole?
    /// The proxy the location was fetched through (`scheme://host:port`, never its credentials);
    /// absent when it was fetched directly. Through a proxy the site's addresses are not seen (the
    /// proxy resolves the name), so `network.private-address` was not judged for it.
    public var proxy: String?
    /// The address the transfer's connection was made to (curl's primary IP): the site's server,
    /// or the one `--connect-to`/`--resolve` named; through a proxy, the proxy's. Nil when no
    /// connection was made, and in a report written before it was recorded.
    public var connectedAddress: String?

    /// `usable` defaults to what the status and findings say (`LocationUsability.isUsable`).
    public init(path: String, url: String, verdict: Verdict, usable: Bool? = nil, httpStatus: Int?, contentType: String?,
                headers: [HeaderField], bytes: BodySize, redirect: RedirectChain?, tls: TLSConnection?,
                timings: TransferTimings, error: TransferFailure?, body: String?, findings: [Finding], proxy: String? = nil,
                connectedAddress: String? = nil) {
        self.proxy = proxy
        self.connectedAddress = connectedAddress
        self.path = path
        self.url = url
        self.verdict = verdict
        self.usable = usable ?? LocationUsability.isUsable(httpStatus: httpStatus, findings: findings)
        self.httpStatus = httpStatus
        self.contentType = contentType
        self.headers = headers
        self.bytes = bytes
        self.redirect = redirect
        self.tls = tls
        self.timings = timings
        self.error = error
        self.body = body
        self.bodySHA256 = body.map(BodyDigest.sha256(of:))
        self.findings = findings
    }

    /// Reads a location of report.json; one written before `usable` was recorded gets it from its
    /// status and findings (`LocationUsability.isUsable`).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        url = try container.decode(String.self, forKey: .url)
        verdict = try container.decode(Verdict.self, forKey: .verdict)
        httpStatus = try container.decodeIfPresent(Int.self, forKey: .httpStatus)
        contentType = try container.decodeIfPresent(String.self, forKey: .contentType)
        headers = try container.decode([HeaderField].self, forKey: .headers)
        bytes = try container.decode(BodySize.self, forKey: .bytes)
        redirect = try container.decodeIfPresent(RedirectChain.self, forKey: .redirect)
        tls = try container.decodeIfPresent(TLSConnection.self, forKey: .tls)
        timings = try container.decode(TransferTimings.self, forKey: .timings)
        error = try container.decodeIfPresent(TransferFailure.self, forKey: .error)
        body = try container.decodeIfPresent(String.self, forKey: .body)
        // A report written before bodies were stored apart has the body inline and no digest.
        bodySHA256 = try container.decodeIfPresent(String.self, forKey: .bodySHA256) ?? body.map(BodyDigest.sha256(of:))
        bodyOmittedBy = try container.decodeIfPresent(BodiesPolicy.self, forKey: .bodyOmittedBy)
        findings = try container.decode([Finding].self, forKey: .findings)
        proxy = try container.decodeIfPresent(String.self, forKey: .proxy)
        connectedAddress = try container.decodeIfPresent(String.self, forKey: .connectedAddress)
        usable = try container.decodeIfPresent(Bool.self, forKey: .usable)
            ?? LocationUsability.isUsable(httpStatus: httpStatus, findings: findings)
        // An older report's locations get theirs from the domain (`DomainResult.assignRoles`).
        role = try container.decodeIfPresent(LocationRole.self, forKey: .role)
    }
}
