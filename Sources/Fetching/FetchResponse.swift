import Foundation

/// What one HTTP transfer produced: plain facts, no verdicts.
public struct FetchResponse: Sendable, Equatable {
    /// The URL that was requested.
    public var url: String
    /// The HTTP status, or nil when no response arrived.
    public var status: Int?
    /// Response headers of the final response, names lower-cased, in arrival order.
    public var headers: [HTTPHeader]
    /// The decoded body, cut at the byte cap.
    public var body: Data
    /// Byte counts of the body.
    public var bytes: ByteCounts
    /// The absolute redirect target curl computed from `Location`, when the response is a redirect.
    public var redirectURL: String?
    /// TLS facts of the connection, when a TLS handshake was attempted.
    public var tls: TLSFacts?
    /// Where the time went.
    public var timings: Timings
    /// Why the transfer failed, when it did (a cut body is not a failure).
    public var error: TransferError?
    /// The IP addresses curl tried to connect to, in order (at most 16): those DNS gave, or the
    /// ones `--connect-to` / `--resolve` named. Empty when a kept-alive connection was reused.
    public var addresses: [String]
    /// True when `--connect-to` or `--resolve` routes this URL's host: the user chose the server.
    public var routed: Bool

    public init(
        url: String, status: Int? = nil, headers: [HTTPHeader] = [], body: Data = Data(),
        bytes: ByteCounts = ByteCounts(), redirectURL: String? = nil, tls: TLSFacts? = nil,
        timings: Timings = Timings(), error: TransferError? = nil, addresses: [String] = [], routed: Bool = false
    ) {
        self.addresses = addresses
        self.routed = routed
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.bytes = bytes
        self.redirectURL = redirectURL
        self.tls = tls
        self.timings = timings
        self.error = error
    }

    /// The value of the first header with this name (case-insensitive), if any.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name == wanted }?.value
    }
}

/// One response header; the name is lower-cased.
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String
    public init(name: String, value: String) {
        self.name = name.lowercased()
        self.value = value
    }
}

/// Sizes of a response body.
public struct ByteCounts: Sendable, Equatable {
    /// Body bytes as they crossed the wire (before content decoding).
    public var transferred: Int
    /// Body bytes after content decoding (gzip, br ...), counted up to the cap.
    public var decoded: Int
    /// True when reading stopped at `limit`: the decoded body is larger than `limit`.
    public var truncated: Bool
    /// The cap that was in force.
    public var limit: Int

    public init(transferred: Int = 0, decoded: Int = 0, truncated: Bool = false, limit: Int = 0) {
        self.transferred = transferred
        self.decoded = decoded
        self.truncated = truncated
        self.limit = limit
    }
}

/// Facts about the TLS connection and the server's certificate.
public struct TLSFacts: Sendable, Equatable {
    /// Negotiated protocol, such as "TLSv1.3", when known.
    public var version: String?
    /// The leaf certificate, when it could be read (from this transfer or a non-verifying probe).
    public var certificate: CertificateFacts?
    /// True when the certificate facts came from a second, non-verifying probe
    /// because the verifying handshake failed.
    public var certificateFromProbe: Bool
    /// curl's verification error text when the verifying handshake failed.
    public var verificationError: String?

    public init(version: String? = nil, certificate: CertificateFacts? = nil,
                certificateFromProbe: Bool = false, verificationError: String? = nil) {
        self.version = version
        self.certificate = certificate
        self.certificateFromProbe = certificateFromProbe
        self.verificationError = verificationError
    }
}

/// The leaf certificate as curl reports it.
public struct CertificateFacts: Sendable, Equatable {
    public var subject: String
    public var issuer: String
    /// DNS names (and IP addresses, as "IP:...") from subjectAltName.
    public var subjectAltNames: [String]
    public var notBefore: Date?
    public var notAfter: Date?

    public init(subject: String, issuer: String, subjectAltNames: [String], notBefore: Date?, notAfter: Date?) {
        self.subject = subject
        self.issuer = issuer
        self.subjectAltNames = subjectAltNames
        self.notBefore = notBefore
        self.notAfter = notAfter
    }
}

/// Phases of a transfer, in milliseconds from its start (curl's cumulative timers).
public struct Timings: Sendable, Equatable {
    public var dnsMs: Double
    public var connectMs: Double
    public var tlsMs: Double
    public var firstByteMs: Double
    public var totalMs: Double
    /// True when the transfer used an already open connection.
    public var reusedConnection: Bool

    public init(dnsMs: Double = 0, connectMs: Double = 0, tlsMs: Double = 0, firstByteMs: Double = 0,
                totalMs: Double = 0, reusedConnection: Bool = false) {
        self.dnsMs = dnsMs
        self.connectMs = connectMs
        self.tlsMs = tlsMs
        self.firstByteMs = firstByteMs
        self.totalMs = totalMs
        self.reusedConnection = reusedConnection
    }
}

/// Why a transfer failed: curl's own code and text, kept verbatim, and what kind of failure it is.
public struct TransferError: Sendable, Equatable, Error {
    /// The kind of failure, derived from the curl code.
    public enum Kind: String, Sendable {
        case dns, refused, timeout, reset, tls, tooLarge, other
    }
    public var kind: Kind
    /// The CURLcode number.
    public var curlCode: Int
    /// curl's error buffer text (or curl_easy_strerror when the buffer was empty).
    public var message: String

    public init(kind: Kind, curlCode: Int, message: String) {
        self.kind = kind
        self.curlCode = curlCode
        self.message = message
    }
}
