import CCurl
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// libcurl's process-wide state, set up once before the first handle.
enum CurlRuntime {
    /// CURL_GLOBAL_SSL | CURL_GLOBAL_WIN32 (CURL_GLOBAL_ALL is a macro Swift cannot import).
    static let isReady: Bool = curl_global_init(3) == CURLE_OK
}

/// One easy handle and what it has received so far. Owned by `TransferLoop`; freed in `deinit`.
final class Transfer {
    let request: FetchRequest
    let completion: (FetchResponse) -> Void
    /// Called once when the connection is up (TCP and TLS) and the request is about to go, with
    /// whether it multiplexes (HTTP/2 by ALPN); see `TransferLoop.submit`.
    private var connected: ((Bool) -> Void)?
    let easy: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let maxBytes: Int
    /// The request headers (`Accept`), owned by the loop, which outlives its transfers.
    private let headerList: UnsafeMutablePointer<curl_slist>?

    private(set) var status: Int?
    private(set) var headers: [HTTPHeader] = []
    private(set) var body = Data()
    private(set) var truncated = false
    private(set) var tlsVersion: String?
    private(set) var tlsCipher: String?
    /// The CA store the transfer verifies with, to tell a publicly trusted chain from a `--cacert` one.
    private let trustStore: TrustStore
    /// When the transfer must be over, by the tool's own clock (`FetchOptions.totalTimeout`);
    /// `TransferLoop` stops it then, whatever the server keeps sending.
    let deadline: ContinuousClock.Instant
    let startedAt: ContinuousClock.Instant
    /// Why the tool itself stopped the transfer, when it did (the curl code then says little).
    var stopReason: StopReason?
    /// Bytes of every header line received so far: all responses (interim 1xx too) and trailers.
    private var headerBytes = 0
    /// The addresses curl tried to connect to, in order, at most `maximumAddresses`.
    private(set) var addresses: [String] = []
    /// True when this transfer may connect only to public addresses (see `FetchRequest.publicAddressesOnly`).
    private let publicAddressesOnly: Bool
    /// True when `--connect-to` or `--resolve` routes the URL's host: the user chose where it goes.
    let routed: Bool
    /// The proxy the transfer goes through (`FetchOptions.proxy`), and where it was set; nil: none.
    /// Then every socket opened is the proxy's: its address is neither recorded as the site's nor
    /// held to `publicAddressesOnly` (the user chose the proxy; the proxy resolves the site's name).
    let proxy: (endpoint: ProxyEndpoint, source: ProxyRoute.Source)?

    /// Header bytes (header lines of every response, interim 1xx, and trailers) kept per transfer.
    /// libcurl caps one response's header section (at 300 KB since 8.3, or Debian's backport of that
    /// fix) but not trailers, which reach the same callback; this cap covers them all together.
    static let maximumHeaderBytes = 256 * 1024
    static let maximumAddresses = 16
    static let curlTimeoutSlackMilliseconds = 1000

    /// Why the tool stopped a transfer itself.
    enum StopReason: Equatable {
        /// `FetchOptions.totalTimeout` passed (seconds).
        case deadline(Double)
        /// Header lines (trailers and interim responses included) passed `maximumHeaderBytes`.
        case headersTooLarge
        /// A Content-Length beyond any size a client can represent (the value, shortened).
        case lengthOverflow(String)
        /// Every address offered was one the transfer may not connect to (text, scope).
        case restrictedAddress(String, AddressScope)
    }

    /// Creates the easy handle and sets every option; fails, with the reason, when libcurl gives no
    /// handle or refuses an option (the transfer is then not made, see `TransferSetupError`).
    init(request: FetchRequest, options: FetchOptions, routing: Routing, header: UnsafeMutablePointer<curl_slist>?,
         connected: ((Bool) -> Void)? = nil, completion: @escaping (FetchResponse) -> Void) throws(TransferSetupError) {
        guard CurlRuntime.isReady, let easy = curl_easy_init() else { throw .noHandle }
        self.easy = easy
        self.headerList = header
        self.request = request
        self.connected = connected
        self.completion = completion
        self.maxBytes = options.maxBytes
        startedAt = .now
        deadline = startedAt + .milliseconds(Self.milliseconds(max(0, options.totalTimeout)))
        routed = routing.routes(url: request.url)
        trustStore = TrustStore(userFile: options.caFile)
        proxy = options.proxy.proxy(for: request.url)
        publicAddressesOnly = request.publicAddressesOnly && !routed && proxy == nil
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        // A throw from here on frees the handle and the buffer in deinit (the object is complete).
        do {
            try configure(CurlEasyOptions(easy: easy), options: options, routing: routing)
        } catch {
            throw .refused(error)
        }
        // Through a proxy only an address written in the URL can be judged (the proxy resolves names).
        if request.publicAddressesOnly && !routed && proxy != nil, let (host, _) = HostKey.hostAndPort(of: request.url),
           let scope = AddressScope(text: host), scope.isRestricted {
            throw .restrictedThroughProxy(host, scope)
        }
    }

    deinit {
        curl_easy_cleanup(easy)
        errorBuffer.deallocate()
    }

    /// Seconds as whole milliseconds for libcurl, held to a range no conversion or sum traps on
    /// (±10⁹ s; NaN is 0). The command line allows only 0 to 600 s; this keeps a library caller's
    /// value from crashing the run.
    static func milliseconds(_ seconds: Double) -> Int {
        guard !seconds.isNaN else { return 0 }
        return Int(min(1e12, max(-1e12, seconds * 1000)))
    }

    private func configure(_ curl: CurlEasyOptions, options: FetchOptions, routing: Routing) throws(CurlOptionError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        try curl.set(CURLOPT_URL, request.url)
        try curl.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        try curl.set(CURLOPT_NOSIGNAL, 1)
        // Apple follows no redirect, so neither does the verdict's fetch; hops are separate transfers.
        try curl.set(CURLOPT_FOLLOWLOCATION, 0)
        try curl.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try curl.set(CURLOPT_USERAGENT, request.userAgent ?? options.userAgent)
        // "" asks for every encoding this libcurl decodes; the write callback sees decoded bytes.
        try curl.set(CURLOPT_ACCEPT_ENCODING, "")
        try curl.set(CURLOPT_HTTPHEADER, list: headerList)
        try curl.set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(options.connectTimeout))
        // The tool's own deadline (`deadline`, enforced by `TransferLoop`) ends the transfer; curl's
        // timeout, a second later, only backs it up.
        try curl.set(CURLOPT_TIMEOUT_MS, Self.milliseconds(options.totalTimeout) + Self.curlTimeoutSlackMilliseconds)
        try curl.set(CURLOPT_LOW_SPEED_LIMIT, options.lowSpeedLimit)
        try curl.set(CURLOPT_LOW_SPEED_TIME, options.lowSpeedTime)
        try curl.set(CURLOPT_CERTINFO, 1)
        try trustStore.apply(to: curl, url: request.url)
        if let family = request.ipFamily ?? options.addressFamilies.forced {
            try curl.set(CURLOPT_IPRESOLVE, family == .ipv4 ? 1 : 2)  // CURL_IPRESOLVE_V4, _V6
        }
        // Always set, so libcurl reads no proxy variable itself: "" is no proxy, and an empty
        // no-proxy list keeps it from reading no_proxy (the route already applied it).
        try curl.set(CURLOPT_PROXY, proxy?.endpoint.curlText ?? "")
        try curl.set(CURLOPT_NOPROXY, "")
        // The proxy's answer to CONNECT is not the site's response: its headers stay out of them.
        if proxy != nil { try curl.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1) }
        if let list = routing.connectTo { try curl.set(CURLOPT_CONNECT_TO, list: list) }
        if let list = routing.resolve { try curl.set(CURLOPT_RESOLVE, list: list) }
        switch request.mode {
        case .verifying:
            try curl.set(CURLOPT_SSL_VERIFYPEER, 1)
            try curl.set(CURLOPT_SSL_VERIFYHOST, 2)
        case .certificateProbe:
            // Only to read the certificate of a handshake that failed verification; never for a verdict.
            try curl.set(CURLOPT_SSL_VERIFYPEER, 0)
            try curl.set(CURLOPT_SSL_VERIFYHOST, 0)
            try curl.set(CURLOPT_NOBODY, 1)
        }
        try curl.set(CURLOPT_WRITEFUNCTION, write: transferWriteBody)
        try curl.set(CURLOPT_WRITEDATA, pointer: me)
        try curl.set(CURLOPT_HEADERFUNCTION, write: transferWriteHeader)
        try curl.set(CURLOPT_HEADERDATA, pointer: me)
        try curl.setOpenSocket(transferOpenSocket)
        try curl.set(CURLOPT_OPENSOCKETDATA, pointer: me)
        if connected != nil {
            try curl.setPrereq(transferPrereq)
            try curl.set(CURLOPT_PREREQDATA, pointer: me)
        }
    }

    /// curl has a connection for the transfer (new or reused) and is about to send the request.
    func connectionReady() {
        guard let connected else { return }
        self.connected = nil
        connected(ccurl_easy_alpn_is_h2(easy) == 1)
    }

    /// Opens the socket for one address curl is about to connect to: records the address, and
    /// refuses (before any packet is sent) a non-public one when the transfer may not go there.
    /// curl then tries its next address, or fails with "couldn't connect".
    func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        let family = address.pointee.family
        let raw = UnsafeMutableRawPointer(address) + MemoryLayout<curl_sockaddr>.offset(of: \curl_sockaddr.addr)!
        var scope = AddressScope.reserved
        var text = "an address of family \(family)"
        if family == AF_INET {
            let bytes = Array(UnsafeRawBufferPointer(start: raw + MemoryLayout<sockaddr_in>.offset(of: \sockaddr_in.sin_addr)!, count: 4))
            scope = AddressScope(ipv4: bytes)
            text = Self.addressText(family: AF_INET, bytes: bytes)
        } else if family == AF_INET6 {
            let bytes = Array(UnsafeRawBufferPointer(start: raw + MemoryLayout<sockaddr_in6>.offset(of: \sockaddr_in6.sin6_addr)!, count: 16))
            scope = AddressScope(ipv6: bytes)
            text = Self.addressText(family: AF_INET6, bytes: bytes)
        }
        if proxy == nil && addresses.count < Self.maximumAddresses { addresses.append(text) }
        if publicAddressesOnly && scope.isRestricted {
            stopReason = .restrictedAddress(text, scope)
            return -1  // CURL_SOCKET_BAD
        }
        return socket(family, address.pointee.socktype, address.pointee.protocol)
    }

    private static func addressText(family: Int32, bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let ok = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) } != nil
        return ok ? String(cString: buffer) : "?"
    }

    /// `body` in a buffer of its own size: appending grew it by doubling (64 KB for a 39 KB file), and
    /// the response is held until its domain is audited.
    static func exactCopy(_ body: Data) -> Data {
        body.count <= 32 ? body : body.withUnsafeBytes { Data($0) }
    }

    /// Keeps decoded body bytes up to the cap; past it, stops the transfer (curl reports a write error).
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        let room = maxBytes - body.count
        if bytes.count > room {
            if room > 0 { body.append(contentsOf: bytes.prefix(room)) }
            truncated = true
            return 0
        }
        body.append(contentsOf: bytes)
        return bytes.count
    }

    /// Records the status line and headers of the latest response (interim 1xx responses are replaced).
    /// Works on the bytes: called for every header line of every transfer, and Foundation's
    /// trimming (through NSString) cost more than the rest of the callback.
    /// Every byte counts towards `maximumHeaderBytes`; past it the transfer stops (curl reports a write
    /// error, told apart by `stopReason`).
    func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Int {
        headerBytes += bytes.count
        if headerBytes > Self.maximumHeaderBytes {
            stopReason = .headersTooLarge
            return 0
        }
        if tlsVersion == nil, let version = ccurl_easy_tls_version(easy) { tlsVersion = String(cString: version) }
        if tlsCipher == nil, let cipher = ccurl_easy_tls_cipher(easy) {
            let name = String(cString: cipher)
            if name != "(NONE)" { tlsCipher = name }
        }
        let all = bytes.bindMemory(to: UInt8.self)
        let line = Self.trimmed(all[...])
        if line.starts(with: Self.httpPrefix) {
            headers = []
            let fields = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: true)
            status = fields.count > 1 ? Int(Self.text(fields[1])) : nil
        } else if let colon = line.firstIndex(of: 0x3A) {
            let name = Self.text(Self.trimmed(line[..<colon]))
            let value = Self.text(Self.trimmed(line[(colon + 1)...]))
            if Self.overflows(name: name, value: value) {
                stopReason = .lengthOverflow(String(value.prefix(40)))
                return 0
            }
            headers.append(HTTPHeader(name: name, value: value))
        }
        return bytes.count
    }

    private static let httpPrefix = Array("HTTP/".utf8)

    /// A Content-Length of digits only that no 64-bit count holds: libcurl then ignores it and reads
    /// to the end of the connection, where an HTTP client that frames by it cannot (RFC 9110 §8.6).
    static func overflows(name: String, value: String) -> Bool {
        guard name.count == 14, name.lowercased() == "content-length", !value.isEmpty,
              value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        return Int64(value) == nil
    }

    /// Without leading and trailing ASCII whitespace (space, tab, CR, LF, VT, FF).
    private static func trimmed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return bytes[start..<end]
    }

    /// The bytes as a string (invalid UTF-8 repaired), through the contiguous fast path.
    private static func text(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes), as: UTF8.self)
    }

    /// The plain values of the finished transfer.
    func response(result: CURLcode) -> FetchResponse {
        // An item libcurl cannot give is unknown, not zero: the parsed status line stands in for the
        // code, and a connection counts as reused only when libcurl says it made none.
        let code = longInfo(CURLINFO_RESPONSE_CODE) ?? 0
        var downloaded: curl_off_t = 0
        if ccurl_easy_getinfo_off(easy, CURLINFO_SIZE_DOWNLOAD_T, &downloaded) != CURLE_OK { downloaded = 0 }
        var redirect: UnsafePointer<CChar>?
        if ccurl_easy_getinfo_string(easy, CURLINFO_REDIRECT_URL, &redirect) != CURLE_OK { redirect = nil }
        let connects = longInfo(CURLINFO_NUM_CONNECTS)

        var primary: UnsafePointer<CChar>?
        if ccurl_easy_getinfo_string(easy, CURLINFO_PRIMARY_IP, &primary) != CURLE_OK { primary = nil }
        let primaryAddress = primary.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }

        let error = transferError(result)
        let (certificate, chain) = readCertificates()
        let attemptedTLS = request.url.lowercased().hasPrefix("https:")
        var tls: TLSFacts?
        if attemptedTLS && (certificate != nil || tlsVersion != nil || error?.kind == .tls) {
            tls = TLSFacts(version: tlsVersion, cipher: tlsCipher, certificate: certificate, chain: chain,
                           trustAnchor: error == nil && certificate != nil ? trustAnchor : nil,
                           verificationError: error?.kind == .tls ? error?.message : nil)
        }
        return FetchResponse(
            url: request.url,
            status: code > 0 ? code : status,
            headers: headers,
            body: Self.exactCopy(body),
            bytes: ByteCounts(transferred: Int(downloaded), decoded: body.count, truncated: truncated, limit: maxBytes),
            redirectURL: redirect.map { String(cString: $0) },
            tls: tls,
            timings: Timings(
                dnsMs: milliseconds(CURLINFO_NAMELOOKUP_TIME_T),
                connectMs: milliseconds(CURLINFO_CONNECT_TIME_T),
                tlsMs: milliseconds(CURLINFO_APPCONNECT_TIME_T),
                firstByteMs: milliseconds(CURLINFO_STARTTRANSFER_TIME_T),
                totalMs: max(milliseconds(CURLINFO_TOTAL_TIME_T), stopReason == nil ? 0 : elapsedMilliseconds),
                reusedConnection: result == CURLE_OK && connects == 0),
            error: error,
            addresses: addresses,
            routed: routed,
            primaryAddress: primaryAddress,
            proxy: proxyUse,
            proxyFailure: proxyFailure(result, error: error))
    }

    /// The store a verified chain of this transfer ended in: `--cacert`'s file, or the system's.
    private var trustAnchor: TLSFacts.TrustAnchor? {
        guard request.mode == .verifying, let bundle = trustStore.bundle(for: request.url) else { return nil }
        return bundle == trustStore.userFile ? .userFile : .systemStore
    }

    /// The proxy the transfer went through and its answer to the tunnel request.
    private var proxyUse: ProxyUse? {
        guard let proxy else { return nil }
        let status = longInfo(CURLINFO_HTTP_CONNECTCODE) ?? 0
        return ProxyUse(proxy: proxy.endpoint.shown, source: proxy.source, tunnelStatus: status > 0 ? status : nil)
    }

    /// What the proxy itself failed at, if it did (then nothing is known of the site): it cannot be
    /// resolved or connected to, wants credentials, or fails its handshake. An error status
    /// answered to one tunnel (a 403 by policy, a 503 for a name the proxy cannot reach) concerns
    /// that site and is the site's finding (`network.proxy`), not this.
    private func proxyFailure(_ result: CURLcode, error: TransferError?) -> ProxyFailure? {
        guard let proxy, result != CURLE_OK || status == 407 else { return nil }
        let endpoint = proxy.endpoint
        let tunnel = longInfo(CURLINFO_HTTP_CONNECTCODE) ?? 0
        func failure(_ reason: ProxyFailure.Reason) -> ProxyFailure {
            ProxyFailure(proxy: endpoint.shown, source: proxy.source, reason: reason, credentialsGiven: endpoint.hasCredentials,
                         curlCode: Int(result.rawValue), detail: endpoint.masking(error?.message ?? ""))
        }
        // A plain http:// transfer gets the proxy's 407 as its own response.
        if tunnel == 407 || (status == 407 && !request.url.lowercased().hasPrefix("https:")) { return failure(.authenticationRequired) }
        if result == CURLE_COULDNT_RESOLVE_PROXY { return failure(.unresolvable) }
        // Before any tunnel answer, a failed connection is the proxy's: the socket is its.
        if result == CURLE_COULDNT_CONNECT && tunnel == 0 { return failure(.unreachable) }
        if result == CURLE_PROXY, let code = longInfo(CURLINFO_PROXY_ERROR), Self.proxyHandshakeErrors.contains(code) {
            return failure(.handshake)
        }
        if endpoint.scheme == .https && tunnel == 0 && error?.kind == .tls { return failure(.tls) }
        return nil
    }

    /// CURLINFO_PROXY_ERROR values that are the SOCKS proxy's own failure whatever the site: its
    /// version, closing, authentication, the user and password (CURLPX_BAD_VERSION, CLOSED,
    /// LONG_PASSWD, LONG_USER, NO_AUTH, RECV_AUTH, SEND_AUTH, USER_REJECTED). The others (a refused
    /// or unreachable host, a name it cannot resolve) concern the site.
    static let proxyHandshakeErrors: Set<Int> = Set([CURLPX_BAD_VERSION, CURLPX_CLOSED, CURLPX_LONG_PASSWD, CURLPX_LONG_USER,
                                                     CURLPX_NO_AUTH, CURLPX_RECV_AUTH, CURLPX_SEND_AUTH, CURLPX_USER_REJECTED]
                                                        .map { Int($0.rawValue) })

    private var elapsedMilliseconds: Double {
        let elapsed = ContinuousClock.now - startedAt
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    /// A timer in milliseconds; 0 when libcurl cannot give it.
    private func milliseconds(_ info: CURLINFO) -> Double {
        var micros: curl_off_t = 0
        guard ccurl_easy_getinfo_off(easy, info, &micros) == CURLE_OK else { return 0 }
        return Double(micros) / 1000
    }

    private func longInfo(_ info: CURLINFO) -> Int? {
        var value = 0
        return ccurl_easy_getinfo_long(easy, info, &value) == CURLE_OK ? value : nil
    }

    /// The leaf and the certificates the server sent after it (CURLINFO_CERTINFO, in its order).
    private func readCertificates() -> (CertificateFacts?, [ChainCertificateFacts]) {
        let count = Int(ccurl_easy_certinfo_count(easy))
        guard count > 0 else { return (nil, []) }
        func lines(_ index: Int) -> [String] {
            var lines: [String] = []
            var node = ccurl_easy_certinfo_lines(easy, Int32(index))
            while let current = node {
                if let data = current.pointee.data { lines.append(String(cString: data)) }
                node = current.pointee.next
            }
            return lines
        }
        let chain = (1..<max(1, min(count, Self.maximumChainLength))).compactMap { CertificateInfoParser.parseChainEntry(lines: lines($0)) }
        return (CertificateInfoParser.parse(lines: lines(0)), chain)
    }

    /// Certificates after the leaf kept per transfer: real chains have two or three.
    static let maximumChainLength = 10

    private func transferError(_ result: CURLcode) -> TransferError? {
        let code = Int(result.rawValue)
        switch stopReason {
        case .deadline(let seconds)?:
            return TransferError(kind: .timeout, curlCode: 28, message: "No complete response within the time limit of "
                + "\(Self.seconds(seconds)) s; the transfer was stopped there (\(body.count) body bytes received)")
        case .headersTooLarge?:
            return TransferError(kind: .tooLarge, curlCode: code, message: "The server sent more than \(Self.maximumHeaderBytes / 1024) KB "
                + "of header lines (headers, interim 1xx responses and trailers together); reading stopped there")
        case .lengthOverflow(let value)?:
            return TransferError(kind: .tooLarge, curlCode: code, message: "The Content-Length \(value) is larger than any "
                + "length an HTTP client can count (2^63 - 1 bytes), so the response cannot be framed")
        // Only when no address was left: a name with a refused address and a public one is fetched
        // from the public one.
        case .restrictedAddress(let address, let scope)? where result == CURLE_COULDNT_CONNECT:
            return TransferError(kind: .other, curlCode: code, message: "Not connected to \(address): it is \(scope.description), "
                + "and the tool connects only to public addresses for a URL the user did not give (a redirect target), "
                + "unless --connect-to or --resolve routes its host")
        case .restrictedAddress?, nil:
            break
        }
        if result == CURLE_OK { return nil }
        // libcurl keeps one header line in a buffer of 100 KB (CURL_MAX_HTTP_HEADER) and, past it, fails
        // with "Out of memory": a header line (a `Location`, a cookie) too long to read.
        if result == CURLE_OUT_OF_MEMORY {
            return TransferError(kind: .tooLarge, curlCode: code, message: "A header line is longer than libcurl accepts "
                + "(\(Int(CURL_MAX_HTTP_HEADER) / 1024) KB); curl reports it as \"\(String(cString: curl_easy_strerror(result)))\"")
        }
        // A body cut at the cap is a size finding, not a transfer failure.
        if result == CURLE_WRITE_ERROR && truncated { return nil }
        let buffered = String(cString: errorBuffer)
        let message = buffered.isEmpty ? String(cString: curl_easy_strerror(result)) : buffered
        var kind = TransferError.Kind(curlCode: Int(result.rawValue))
        // curl before 8.6 reports its cap on the header section (300 KB) as a receive error; its text
        // is the only way to tell it from a broken connection.
        if result == CURLE_RECV_ERROR && message.hasPrefix("Too large response headers") { kind = .tooLarge }
        return TransferError(kind: kind, curlCode: Int(result.rawValue), message: message)
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}

/// curl's write callback for bodies: forwards to the `Transfer` in user data. Non-capturing, as C needs.
private let transferWriteBody: curl_write_callback = { data, size, count, user in
    guard let user else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
    return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
}

/// curl's header callback: one header line per call.
private let transferWriteHeader: curl_write_callback = { data, size, count, user in
    guard let user else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
    return transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
}

/// curl's pre-request callback: the connection is up; forwards to the `Transfer` in user data.
private let transferPrereq: curl_prereq_callback = { user, _, _, _, _ in
    guard let user else { return 0 }
    Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue().connectionReady()
    return 0  // CURL_PREREQFUNC_OK
}

/// curl's open-socket callback: forwards to the `Transfer` in user data.
private let transferOpenSocket: curl_opensocket_callback = { user, _, address in
    guard let user, let address else { return -1 }
    let transfer = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
    return transfer.openSocket(address)
}

/// The curl string lists for --connect-to and --resolve, built once per loop and freed with it.
final class Routing {
    let connectTo: UnsafeMutablePointer<curl_slist>?
    let resolve: UnsafeMutablePointer<curl_slist>?
    /// (host, port) of each entry, lower-cased, without brackets; "" matches any.
    private let routes: [(host: String, port: String)]

    init(options: FetchOptions) {
        connectTo = options.connectTo.reduce(nil) { curl_slist_append($0, $1) }
        resolve = options.resolve.reduce(nil) { curl_slist_append($0, $1) }
        func route(_ entry: String) -> (host: String, port: String) {
            let fields = FetchOptions.splitHostFields(entry)
            var host = fields[0].lowercased()
            if host.hasPrefix("+") || host.hasPrefix("-") { host.removeFirst() }  // --resolve's add/remove marks
            if host == "*" { host = "" }
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            return (host, fields.count > 1 ? fields[1] : "")
        }
        routes = options.connectTo.map(route) + options.resolve.map(route)
    }

    /// True when an entry sends this URL's host and port somewhere of the user's choosing.
    func routes(url: String) -> Bool {
        // HostKey's parser, not URLComponents: this runs for every transfer.
        guard !routes.isEmpty, let (named, port) = HostKey.hostAndPort(of: url) else { return false }
        let host = named.hasPrefix("[") && named.hasSuffix("]") ? String(named.dropFirst().dropLast()) : named
        return routes.contains { ($0.host.isEmpty || $0.host == host) && ($0.port.isEmpty || $0.port == port) }
    }

    deinit {
        curl_slist_free_all(connectTo)
        curl_slist_free_all(resolve)
    }
}
