import Audit
import Fetching
import Foundation

/// Builds fetched locations from plain values, so every check can be tested without a network.
enum CheckFixtures {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let url = "https://example.com/.well-known/apple-app-site-association"
    static let goodJSON = #"{"applinks":{"details":[{"appIDs":["ABQ7KM3X2P.com.exemplo.app"],"components":[{"/":"/buy/*"}]}]}}"#

    static func certificate(daysLeft: Double) -> CertificateFacts {
        CertificateFacts(subject: "CN = example.com", issuer: "CN = Test CA", subjectAltNames: ["example.com"],
                         notBefore: now - 30 * 86_400, notAfter: now + daysLeft * 86_400,
                         keyAlgorithm: "id-ecPublicKey", keyBits: 256, signatureAlgorithm: "ecdsa-with-SHA256",
                         extendedKeyUsages: ["TLS Web Server Authentication"])
    }

    static func response(status: Int? = 200, contentType: String? = "application/json", body: String = goodJSON,
                         headers: [HTTPHeader] = [], error: TransferError? = nil, tls: TLSFacts? = TLSFacts(version: "TLSv1.3", certificate: certificate(daysLeft: 90)),
                         truncated: Bool = false, totalMs: Double = 40, url: String = url) -> FetchResponse {
        var all = headers
        if let contentType { all.insert(HTTPHeader(name: "Content-Type", value: contentType), at: 0) }
        let data = Data(body.utf8)
        return FetchResponse(url: url, status: status, headers: all, body: data,
                             bytes: ByteCounts(transferred: data.count, decoded: data.count, truncated: truncated, limit: 1 << 20),
                             tls: tls, timings: Timings(totalMs: totalMs), error: error)
    }

    static func bodyResponse(_ data: Data, contentType: String = "application/json") -> FetchResponse {
        var response = self.response(contentType: contentType, body: "")
        response.body = data
        response.bytes = ByteCounts(transferred: data.count, decoded: data.count, truncated: false, limit: 1 << 20)
        return response
    }

    static func located(_ response: FetchResponse, hops: [FetchResponse] = [], end: String? = nil,
                        settings: AuditSettings = AuditSettings(), path: String = AASAFile.wellKnownPath) -> FetchedLocation {
        FetchedLocation(path: path, fetch: LocationFetch(response: response, redirectHops: hops, redirectEnd: end), now: now, settings: settings)
    }

    /// The error and warning ids every location check reports for `response`, in order (info
    /// findings, such as the document's `schema.components-only`, are left to `allIDs`).
    static func ids(_ response: FetchResponse, hops: [FetchResponse] = [], settings: AuditSettings = AuditSettings()) -> [String] {
        findings(response, hops: hops, settings: settings).filter { $0.severity != .info }.map(\.id)
    }

    /// Every id, info included.
    static func allIDs(_ response: FetchResponse) -> [String] {
        findings(response).map(\.id)
    }

    static func findings(_ response: FetchResponse, hops: [FetchResponse] = [], settings: AuditSettings = AuditSettings()) -> [Finding] {
        let location = located(response, hops: hops, settings: settings)
        return RuleRegistry.locationChecks.flatMap { $0.findings(for: location) }
    }

    static func failure(_ kind: TransferError.Kind, _ code: Int, _ message: String) -> TransferError {
        TransferError(kind: kind, curlCode: code, message: message)
    }
}
