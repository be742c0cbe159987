import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on loopback that adds network latency: every byte is forwarded unchanged (TLS passes
/// through, nothing is terminated or read), each direction delayed by half the round-trip time.
///
/// The latency model of `make bench` (docs/scaling.md): nginx on loopback answers in microseconds, so
/// without it the benchmark measures CPU; behind this proxy it measures round trips, as a real audit
/// does. The TCP handshake is modelled too: the kernel completes the client's `connect` at once, so the
/// first bytes from the client are held one more round trip (`max(received, opened + RTT) + RTT / 2`),
/// the time a real SYN / SYN-ACK would have taken before they could be sent.
///
/// One thread, non-blocking sockets and `poll`: each connection is a client socket and an upstream
/// socket, each direction a queue of chunks with the time they may be written. A closed side is passed
/// on (shutdown) after the data before it; an error closes both sockets.
public final class LatencyProxy: @unchecked Sendable {
    /// The address and port clients connect to.
    public let address: String
    public let port: Int
    /// The round-trip time added (each direction carries half).
    public let roundTripNanoseconds: UInt64
    private let upstreamAddress: String
    private let upstreamPort: Int
    private let listener: Int32
    private let lock = NSLock()
    private var stopping = false
    private var accepted = 0
    private let finished = DispatchSemaphore(value: 0)

    /// Listens on `address:port` (0: a free port) and forwards each connection to
    /// `upstreamAddress:upstreamPort` with `roundTripMilliseconds` added to every round trip.
    public init(address: String = "127.0.0.1", port: Int = 0, upstreamAddress: String, upstreamPort: Int,
                roundTripMilliseconds: Int) throws {
        self.address = address
        self.upstreamAddress = upstreamAddress
        self.upstreamPort = upstreamPort
        roundTripNanoseconds = UInt64(max(0, roundTripMilliseconds)) * 1_000_000
        (listener, self.port) = try RawHTTPServer.listen(on: address, port: port, nonBlocking: true, backlog: 1024)
        let thread = Thread { [self] in runLoop() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Connections accepted so far.
    public var connectionsAccepted: Int { lock.withLock { accepted } }

    /// Stops accepting, closes every connection and returns once the loop has ended.
    public func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopping = true }
            return !stopping
        }
        if first { finished.wait() }
    }

    // MARK: The loop

    /// Bytes read from one side, to be written to the other at `due` (nanoseconds, monotonic);
    /// empty bytes: the reading side closed, shut the other's writing half down.
    private struct Chunk {
        var due: UInt64
        var bytes: [UInt8]
        var offset = 0
    }

    /// One direction: read from `source`, written to `destination`.
    private struct Direction {
        var chunks: [Chunk] = []
        var head = 0
        var sourceClosed = false
        var destinationShut = false
        var writeBlocked = false

        var nextDue: UInt64? { head < chunks.count ? chunks[head].due : nil }
        var isDone: Bool { destinationShut }

        mutating func push(_ chunk: Chunk) {
            if head > 64 && head * 2 > chunks.count {
                chunks.removeFirst(head)
                head = 0
            }
            chunks.append(chunk)
        }
    }

    private final class Connection {
        let client: Int32
        let upstream: Int32
        let opened: UInt64
        var up = Direction()    // client -> upstream
        var down = Direction()  // upstream -> client
        var failed = false

        init(client: Int32, upstream: Int32, opened: UInt64) {
            self.client = client
            self.upstream = upstream
            self.opened = opened
        }
    }

    private func runLoop() {
        var connections: [Connection] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let half = roundTripNanoseconds / 2
        defer {
            for connection in connections {
                close(connection.client)
                close(connection.upstream)
            }
            close(listener)
            finished.signal()
        }
        // Reused each turn: the proxy's CPU is taken from the programs it measures.
        var fds: [pollfd] = []
        while !lock.withLock({ stopping }) {
            // Write what is due; pass closes on.
            let now = Self.now()
            var ended = false
            for connection in connections where !connection.failed {
                flush(&connection.up, to: connection.upstream, now: now, connection: connection)
                flush(&connection.down, to: connection.client, now: now, connection: connection)
                ended = ended || connection.failed || (connection.up.isDone && connection.down.isDone)
            }
            if ended || connections.contains(where: { $0.failed }) {
                connections.removeAll { connection in
                    guard connection.failed || (connection.up.isDone && connection.down.isDone) else { return false }
                    close(connection.client)
                    close(connection.upstream)
                    return true
                }
            }

            // Wait for input, room to write, or the next chunk to fall due (at most 100 ms, to see `stop`).
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0))
            var wake = now + 100_000_000
            for connection in connections {
                fds.append(pollfd(fd: connection.client, events: events(reading: connection.up, writing: connection.down), revents: 0))
                fds.append(pollfd(fd: connection.upstream, events: events(reading: connection.down, writing: connection.up), revents: 0))
                if !connection.up.writeBlocked, let due = connection.up.nextDue { wake = min(wake, due) }
                if !connection.down.writeBlocked, let due = connection.down.nextDue { wake = min(wake, due) }
            }
            let timeout = wake > now ? Int32((wake - now + 999_999) / 1_000_000) : 0
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR { return }
            guard ready > 0 else { continue }

            let readNow = Self.now()
            for index in connections.indices where !connections[index].failed {
                let connection = connections[index]
                let clientEvents = fds[1 + 2 * index].revents, upstreamEvents = fds[2 + 2 * index].revents
                if clientEvents & Int16(POLLOUT) != 0 { connection.down.writeBlocked = false }
                if upstreamEvents & Int16(POLLOUT) != 0 { connection.up.writeBlocked = false }
                if clientEvents & Int16(POLLIN | POLLHUP | POLLERR) != 0, !connection.up.sourceClosed {
                    // The first bytes wait for the TCP handshake's round trip the kernel skipped.
                    let sent = max(readNow, connection.opened + roundTripNanoseconds)
                    read(connection.client, into: &connection.up, due: sent + half, buffer: &buffer, connection: connection)
                }
                if upstreamEvents & Int16(POLLIN | POLLHUP | POLLERR) != 0, !connection.down.sourceClosed {
                    read(connection.upstream, into: &connection.down, due: readNow + half, buffer: &buffer, connection: connection)
                }
            }
            if fds[0].revents & Int16(POLLIN) != 0, let connection = acceptOne() {
                connections.append(connection)
            }
        }
    }

    private func events(reading: Direction, writing: Direction) -> Int16 {
        (reading.sourceClosed ? 0 : Int16(POLLIN)) | (writing.writeBlocked ? Int16(POLLOUT) : 0)
    }

    private func read(_ fd: Int32, into direction: inout Direction, due: UInt64, buffer: inout [UInt8], connection: Connection) {
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count > 0 {
            direction.push(Chunk(due: due, bytes: Array(buffer[0..<count])))
        } else if count == 0 {
            direction.sourceClosed = true
            direction.push(Chunk(due: due, bytes: []))
        } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
            connection.failed = true
        }
    }

    private func flush(_ direction: inout Direction, to fd: Int32, now: UInt64, connection: Connection) {
        // Never early: the delay is a lower bound. (poll's timeout is rounded up to whole
        // milliseconds, so chunks falling due within one are written on one wake-up.)
        while !direction.writeBlocked, direction.head < direction.chunks.count, direction.chunks[direction.head].due <= now {
            if direction.chunks[direction.head].bytes.isEmpty {
                shutdown(fd, Int32(SHUT_WR))
                direction.destinationShut = true
                direction.head += 1
                continue
            }
            let chunk = direction.chunks[direction.head]
            let written = chunk.bytes.withUnsafeBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return send(fd, base + chunk.offset, bytes.count - chunk.offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if written < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { direction.writeBlocked = true } else if errno != EINTR { connection.failed = true; return }
                continue
            }
            if chunk.offset + written < chunk.bytes.count {
                direction.chunks[direction.head].offset += written
            } else {
                direction.chunks[direction.head].bytes = []  // free it; the slot is skipped below
                direction.head += 1
            }
        }
    }

    private func acceptOne() -> Connection? {
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return nil }
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        let opened = Self.now()
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = in_port_t(UInt16(clamping: upstreamPort).bigEndian)
        target.sin_addr.s_addr = inet_addr(upstreamAddress)
        // A blocking connect on loopback returns at once; the socket is made non-blocking after.
        let connected = upstream >= 0 && withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
        guard connected else {
            close(client)
            if upstream >= 0 { close(upstream) }
            return nil
        }
        _ = fcntl(upstream, F_SETFL, fcntl(upstream, F_GETFL) | O_NONBLOCK)
        var yes: Int32 = 1
        setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(upstream, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        lock.withLock { accepted += 1 }
        return Connection(client: client, upstream: upstream, opened: opened)
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
