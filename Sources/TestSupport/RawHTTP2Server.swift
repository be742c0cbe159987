import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/2 server (RFC 9113) on a loopback socket that answers every request with status 200
/// and then empty DATA frames without END_STREAM, one every `interval` seconds, for as long as the
/// client stays: a response that never ends though bytes keep arriving. nginx will not do this.
///
/// Plain TCP (prior knowledge); `HostileSites` puts nginx's stream module in front of it for TLS,
/// with ALPN "h2" advertised so that curl speaks HTTP/2. Hand-written framing: the connection
/// preface, SETTINGS (and their ACK), HEADERS with a tiny HPACK encoding, DATA. No HPACK decoding:
/// the request's headers are never read, every stream gets the same answer.
public final class RawHTTP2Server: @unchecked Sendable {
    public let port: Int
    private let listener: Int32
    private let interval: Double
    private let lock = NSLock()
    private var streamsSeen = 0

    /// Requests (HTTP/2 streams) answered so far.
    public var requests: Int { lock.withLock { streamsSeen } }

    /// Frame types and flags used here (RFC 9113 §6).
    enum Frame {
        static let data: UInt8 = 0, headers: UInt8 = 1, rstStream: UInt8 = 3, settings: UInt8 = 4, goAway: UInt8 = 7
        static let ack: UInt8 = 0x1, endHeaders: UInt8 = 0x4
    }

    /// Starts listening on a free loopback port; serves until the process ends.
    public init(interval: Double = 0.05) throws {
        self.interval = interval
        (listener, port) = try RawHTTPServer.listen(on: "127.0.0.1")
        let thread = Thread { [self] in acceptLoop() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// One frame's bytes.
    static func frame(type: UInt8, flags: UInt8, stream: UInt32, payload: Data = Data()) -> Data {
        let length = payload.count
        var bytes = Data([UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags])
        bytes.append(contentsOf: [UInt8(stream >> 24 & 0x7F), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF)])
        return bytes + payload
    }

    /// HPACK (RFC 7541) for `:status: 200` (static table entry 8, indexed) and
    /// `content-type: application/json` (literal without indexing, name from static entry 31).
    static let responseHeaderBlock: Data = {
        let value = Array("application/json".utf8)
        return Data([0x88, 0x0F, 31 - 15, UInt8(value.count)] + value)
    }()

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

    /// Streams opened by the client on one connection and not reset, shared by its reader and writer.
    private final class Connection: @unchecked Sendable {
        let lock = NSLock()
        var open: [UInt32] = []
        var answered: Set<UInt32> = []
        var closed = false
        /// Reader and writer both send; whole frames must not interleave.
        let sendLock = NSLock()

        func send(_ fd: Int32, _ data: Data) -> Bool { sendLock.withLock { RawHTTPServer.send(fd, data) } }
    }

    private func serve(_ fd: Int32) {
        let connection = Connection()
        // The reader: the preface, then frames; records HEADERS (new streams) and RST_STREAM.
        let reader = Thread { [self] in
            read(fd, into: connection)
            connection.lock.withLock { connection.closed = true }
        }
        reader.stackSize = 1 << 20
        reader.start()
        defer { close(fd) }
        // The server's SETTINGS (none changed) come first on the connection.
        guard connection.send(fd, Self.frame(type: Frame.settings, flags: 0, stream: 0)) else { return }
        let end = Date().addingTimeInterval(120)
        while Date() < end {
            let (streams, closed) = connection.lock.withLock { (connection.open, connection.closed) }
            if closed { return }
            var out = Data()
            for stream in streams {
                let isNew = connection.lock.withLock { connection.answered.insert(stream).inserted }
                if isNew {
                    out += Self.frame(type: Frame.headers, flags: Frame.endHeaders, stream: stream, payload: Self.responseHeaderBlock)
                }
                out += Self.frame(type: Frame.data, flags: 0, stream: stream)  // empty, no END_STREAM
            }
            if !out.isEmpty, !connection.send(fd, out) { return }
            if interval > 0 { Thread.sleep(forTimeInterval: interval) }
        }
    }

    private func read(_ fd: Int32, into connection: Connection) {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var prefaceRead = false
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { return }
            buffer.append(contentsOf: chunk[0..<count])
            if !prefaceRead {
                guard buffer.count >= 24 else { continue }
                buffer.removeFirst(24)  // "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
                prefaceRead = true
            }
            while buffer.count >= 9 {
                let bytes = [UInt8](buffer.prefix(9))
                let length = Int(bytes[0]) << 16 | Int(bytes[1]) << 8 | Int(bytes[2])
                guard buffer.count >= 9 + length else { break }
                let type = bytes[3], flags = bytes[4]
                let stream = UInt32(bytes[5] & 0x7F) << 24 | UInt32(bytes[6]) << 16 | UInt32(bytes[7]) << 8 | UInt32(bytes[8])
                buffer.removeFirst(9 + length)
                switch type {
                case Frame.settings where flags & Frame.ack == 0:
                    _ = connection.send(fd, Self.frame(type: Frame.settings, flags: Frame.ack, stream: 0))
                case Frame.headers:
                    lock.withLock { streamsSeen += 1 }
                    connection.lock.withLock { connection.open.append(stream) }
                case Frame.rstStream:
                    connection.lock.withLock { connection.open.removeAll { $0 == stream } }
                case Frame.goAway:
                    return
                default:
                    break
                }
            }
        }
    }
}
