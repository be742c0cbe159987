import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on a loopback socket, for misbehaviour nginx will not produce: answering
/// nothing, resetting mid-body, a header section of megabytes, control bytes in header values.
///
/// Plain TCP; `HostileSites` puts nginx's stream module in front of it for TLS. Each connection gets
/// its own thread, reads one request head and acts as `route(host, path)` says, then closes.
public final class RawHTTPServer: @unchecked Sendable {
    /// What to do with one request.
    public enum Behaviour: Sendable {
        /// Send these bytes (a whole response, head and body), then close.
        case respond(Data)
        /// Send nothing; keep the connection open until the client gives up.
        case silence
        /// Send these bytes, then reset the connection (RST, not FIN).
        case resetAfter(Data)
        /// Send `head`, then `repeating` `count` times (a huge header section without building it in memory).
        case stream(head: Data, repeating: Data, count: Int, tail: Data)
        /// Send `head`, then `repeating` every `interval` seconds until the client goes away or
        /// `limit` seconds pass (endless trailers, endless 1xx responses, a header a byte at a time).
        case endless(head: Data, repeating: Data, interval: Double, limit: Double)
    }

    public let port: Int
    /// The loopback address listened on ("127.0.0.1" unless given).
    public let address: String
    private let listener: Int32
    private let route: @Sendable (_ host: String, _ path: String) -> Behaviour
    private let lock = NSLock()
    private var served: [String] = []

    /// Paths requested so far, in order (to prove a place was never reached).
    public var requestedPaths: [String] { lock.withLock { served } }

    /// Starts listening on a free port of `address` (any of 127/8); serves until the process ends.
    public init(address: String = "127.0.0.1", route: @escaping @Sendable (_ host: String, _ path: String) -> Behaviour) throws {
        self.route = route
        self.address = address
        (listener, port) = try Self.listen(on: address)
        let thread = Thread { [self] in acceptLoop() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// A listening TCP socket on `text:port` (0: a free port), and its port. `nonBlocking` also
    /// closes it on exec, for a poll loop (`LatencyProxy`); the accept threads block.
    static func listen(on text: String, port: Int = 0, nonBlocking: Bool = false, backlog: Int32 = 128) throws -> (Int32, Int) {
        let flags = nonBlocking ? SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue : SOCK_STREAM.rawValue
        let fd = socket(AF_INET, Int32(flags), 0)
        guard fd >= 0 else { throw HarnessError.serverDidNotStart("socket failed: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = LocalSites.loopback(port: Int(UInt16(clamping: port)))
        address.sin_addr.s_addr = inet_addr(text)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
            close(fd)
            throw HarnessError.serverDidNotStart("bind/listen on \(text):\(port) failed: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            let thread = Thread { [self] in serve(client) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        guard let (host, path) = readRequestHead(fd) else { return }
        lock.withLock { served.append(path) }
        switch route(host, path) {
        case .respond(let data):
            _ = send(fd, data)
            shutdown(fd, Int32(SHUT_WR))
            drain(fd)
        case .silence:
            drain(fd)
        case .resetAfter(let data):
            _ = send(fd, data)
            // Linger 0: close() sends RST and drops what is unsent.
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        case .stream(let head, let repeating, let count, let tail):
            guard send(fd, head) else { return }
            for _ in 0..<count where !send(fd, repeating) { return }
            _ = send(fd, tail)
            shutdown(fd, Int32(SHUT_WR))
            drain(fd)
        case .endless(let head, let repeating, let interval, let limit):
            guard send(fd, head) else { return }
            let end = Date().addingTimeInterval(limit)
            while Date() < end, send(fd, repeating) {
                if interval > 0 { Thread.sleep(forTimeInterval: interval) }
            }
        }
    }

    /// Reads up to the blank line ending the request head (at most 64 KB); returns Host (lower-case,
    /// without port) and the path.
    private func readRequestHead(_ fd: Int32) -> (String, String)? {
        var head = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 65_536 {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            head.append(contentsOf: buffer[0..<count])
            if let end = head.firstRange(of: [13, 10, 13, 10]) {
                let text = String(decoding: head[..<end.lowerBound], as: UTF8.self)
                let lines = text.components(separatedBy: "\r\n")
                let parts = lines.first?.split(separator: " ") ?? []
                let path = parts.count > 1 ? String(parts[1]) : "/"
                let hostLine = lines.dropFirst().first { $0.lowercased().hasPrefix("host:") } ?? ""
                let host = hostLine.dropFirst(5).trimmingCharacters(in: .whitespaces).lowercased()
                    .split(separator: ":").first.map(String.init) ?? ""
                return (host, path)
            }
        }
        return nil
    }

    private func send(_ fd: Int32, _ data: Data) -> Bool { Self.send(fd, data) }

    /// Sends everything; false when the peer went away (no SIGPIPE: MSG_NOSIGNAL).
    static func send(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    /// Reads until the peer closes (or 60 s pass), so the connection stays open as long as the client wants.
    private func drain(_ fd: Int32) {
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while recv(fd, &buffer, buffer.count, 0) > 0 {}
    }
}
