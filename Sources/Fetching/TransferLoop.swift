import CCurl
import Foundation

/// libcurl's multi interface on one event loop: many transfers in flight, one connection cache
/// (so transfers to the same host reuse connections), bounded concurrency.
///
/// Single-threaded: `submit` and the completions run on the thread that calls `run`.
public final class TransferLoop {
    private let multi: UnsafeMutableRawPointer
    private let options: FetchOptions
    private let routing: Routing
    private var pending = ServerQueues()
    /// Transfers submitted by completions (a domain's second location, redirect hops, probes) start
    /// before new work, so a domain finishes while its connection is still in curl's cache.
    private var followUps = ServerQueues()
    private var active: [UnsafeMutableRawPointer: (transfer: Transfer, server: String)] = [:]
    /// (deadline, handle) of each transfer in the order they started (`stopOverdue`).
    private var deadlines = Deque<(ContinuousClock.Instant, UnsafeMutableRawPointer)>()
    /// The Accept header of every transfer: one list for the loop, not one per transfer.
    private let acceptHeader: UnsafeMutablePointer<curl_slist>?
    /// Transfers in flight per host name and port (`HostKey`), held at `options.maxPerHost` or below.
    private var hosts: HostLimit

    /// Creates a loop; fails when libcurl cannot be initialised or refuses the multi handle's option.
    public init(options: FetchOptions) throws(FetchSetupError) {
        guard CurlRuntime.isReady, let multi = curl_multi_init() else { throw .curlUnavailable }
        self.multi = multi
        self.options = options
        self.routing = Routing(options: options)
        self.hosts = HostLimit(limit: options.maxPerHost)
        acceptHeader = curl_slist_append(nil, "Accept: application/json, */*;q=0.8")
        // Keep enough idle connections that each domain's later transfers find its first one's, and
        // no more: a domain's connection serves no other domain, and each kept one holds curl's,
        // nghttp2's and OpenSSL's buffers. One per transfer in flight: with the 39 KB file,
        // 5,000 loopback domains made 5,000 handshakes with 64 kept at --concurrency 64 (RSS 57 MB,
        // 67 MB with 128 kept), 5,830 with 32 and 8,639 with 16; with 64 kept, make bench's small file
        // also made one handshake a domain, and so did its latency model at 50 ms.
        // (A throw from here on frees the multi handle and the header in deinit.)
        let connections = max(64, options.concurrency)
        let code = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, connections)
        guard code == CURLM_OK else { throw .option(CurlOptionError(multiOption: "CURLMOPT_MAXCONNECTS", code: code)) }
        // maxPerHost is enforced by the loop (see ServerQueues), not by CURLMOPT_MAX_HOST_CONNECTIONS:
        // curl's limit queues the excess inside curl and closes idle connections to make room, which
        // now and then closes a domain's connection just before its second location would reuse it.
    }

    deinit {
        for easy in active.keys { curl_multi_remove_handle(multi, easy) }
        active.removeAll()
        curl_multi_cleanup(multi)
        curl_slist_free_all(acceptHeader)
    }

    /// Queues a transfer; `completion` runs on the loop when it finishes and may submit more.
    /// Transfers submitted from a completion start before those submitted from outside the loop.
    ///
    /// `connected`, when given, runs on the loop once the transfer's connection is up (TCP and TLS
    /// done, or a connection reused) and its request about to be sent, with whether the connection
    /// multiplexes (HTTP/2): transfers to the same host submitted from it then share that connection
    /// at once (as follow-ups) instead of waiting for this one to end. It may submit more.
    public func submit(_ request: FetchRequest, connected: ((Bool) -> Void)? = nil, completion: @escaping (FetchResponse) -> Void) {
        let server = HostKey.key(for: request.url)
        if isDraining {
            followUps.append((request, connected, completion), server: server)
        } else {
            pending.append((request, connected, completion), server: server)
        }
    }

    private var isDraining = false
    /// Set by `stop()`: the loop ends at its next turn, as when the stop switch is flipped.
    private var stopRequested = false

    /// Ends `run` at the loop's next turn, dropping what is in flight and queued (their completions
    /// are not called). For a completion that learns every further transfer is futile (the proxy
    /// cannot be used); on the loop's thread only.
    public func stop() {
        stopRequested = true
    }

    /// Runs until every submitted transfer (and every one submitted by completions) has finished, or
    /// until `stopSwitch` is flipped: the transfers in flight are then removed and the queued ones
    /// dropped, without their completions being called.
    ///
    /// `feed`, when given, is called on the loop to submit more work as room appears (it may submit
    /// nothing for now, e.g. while the consumer of the results is behind); it returns false once it
    /// has nothing more to give. The loop then runs until `feed` is done and every transfer finished.
    public func run(until stopSwitch: StopSwitch?, feed: (() -> Bool)? = nil) {
        var feeding = feed != nil
        while feeding || !pending.isEmpty || !followUps.isEmpty || !active.isEmpty {
            if stopRequested || stopSwitch?.isStopped == true {
                abandonAll()
                return
            }
            if feeding, let feed { feeding = feed() }
            startPending()
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            drainFinished()
            stopOverdue()
            // A finished transfer may have finished a unit of work and so made room for more.
            if feeding, let feed { feeding = feed() }
            // Wait for the network unless a finished transfer made room for waiting work (work held
            // back by maxPerHost does not count: it waits for a transfer of its server to finish).
            let canStart = active.count < max(1, options.concurrency) && (followUps.hasReady || pending.hasReady)
            if !active.isEmpty && !canStart {
                var ready: Int32 = 0
                curl_multi_poll(multi, nil, 0, pollMilliseconds(), &ready)
            } else if active.isEmpty && !canStart && feeding {
                // Nothing in flight and the feed holds back: look again shortly.
                var ready: Int32 = 0
                curl_multi_poll(multi, nil, 0, 10, &ready)
            }
        }
    }

    /// Drops every queued and active transfer (their completions are not called).
    private func abandonAll() {
        for easy in active.keys { curl_multi_remove_handle(multi, easy) }
        active.removeAll()
        deadlines = Deque()
        hosts.removeAll()
        pending = ServerQueues()
        followUps = ServerQueues()
    }

    private func hasRoom(_ server: String) -> Bool {
        hosts.hasRoom(server)
    }

    private func startPending() {
        while active.count < max(1, options.concurrency),
              let ((request, connected, completion), server) = followUps.popFirst(where: hasRoom) ?? pending.popFirst(where: hasRoom) {
            // Runs inside curl_multi_perform: what it submits only queues (as follow-ups), started after.
            let ready = connected.map { connected in
                { [unowned self] (multiplexes: Bool) in
                    let was = isDraining
                    isDraining = true
                    connected(multiplexes)
                    isDraining = was
                }
            }
            let transfer: Transfer
            do {
                transfer = try Transfer(request: request, options: options, routing: routing, header: acceptHeader, connected: ready,
                                        completion: completion)
            } catch {
                // Not made: answered at once, as a failed transfer that says why (a follow-up of its own).
                let was = isDraining
                isDraining = true
                completion(FetchResponse(url: request.url, error: error.transferError))
                isDraining = was
                continue
            }
            active[transfer.easy] = (transfer, server)
            deadlines.append((transfer.deadline, transfer.easy))
            hosts.started(server)
            curl_multi_add_handle(multi, transfer.easy)
        }
    }

    private func drainFinished() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            finish(easy, result: message.pointee.data.result)
        }
    }

    /// The tool's own deadline: a transfer past `FetchOptions.totalTimeout` is stopped here, whatever
    /// the server keeps sending (HTTP/2 frames that never end the stream, endless trailers, 1xx
    /// responses, a header a byte at a time), not only by libcurl's CURLOPT_TIMEOUT.
    ///
    /// Every transfer gets the same time, so deadlines fall in the order transfers started: the
    /// earliest is at the head of `deadlines` (entries of finished transfers are skipped there), and
    /// neither this nor `pollMilliseconds` looks at every transfer on each turn of the loop.
    private func stopOverdue() {
        let now = ContinuousClock.now
        while let (deadline, easy) = earliestDeadline(), deadline <= now {
            _ = deadlines.popFirst()
            guard let entry = active[easy] else { continue }
            entry.transfer.stopReason = .deadline(options.totalTimeout)
            finish(easy, result: CURLE_OPERATION_TIMEDOUT)
        }
    }

    /// The deadline of the transfer that started first among those still active.
    private func earliestDeadline() -> (ContinuousClock.Instant, UnsafeMutableRawPointer)? {
        while let (deadline, easy) = deadlines.first {
            if let entry = active[easy], entry.transfer.deadline == deadline { return (deadline, easy) }
            _ = deadlines.popFirst()  // finished (or its handle reused by a later transfer)
        }
        return nil
    }

    /// How long to wait for the network: at most 200 ms, and no later than the next deadline.
    private func pollMilliseconds() -> Int32 {
        guard let (next, _) = earliestDeadline() else { return 200 }
        let left = (next - ContinuousClock.now).components
        let milliseconds = left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000 + 1
        return Int32(clamping: max(0, min(200, milliseconds)))
    }

    /// Takes a transfer off the multi handle and hands its response to its completion.
    private func finish(_ easy: UnsafeMutableRawPointer, result: CURLcode) {
        guard let (transfer, server) = active.removeValue(forKey: easy) else { return }
        hosts.finished(server)
        followUps.unblock(server)
        pending.unblock(server)
        let response = transfer.response(result: result)
        curl_multi_remove_handle(multi, easy)
        isDraining = true
        transfer.completion(response)
        isDraining = false
    }
}

/// Transfers waiting to start, FIFO per server, servers taken in the order they first had work.
///
/// `popFirst(where:)` skips a server that has no room (`FetchOptions.maxPerHost`) and parks it until
/// `unblock` says one of its transfers finished, so a start costs O(1) amortised even with thousands
/// of waiting names and no scan of the whole queue.
struct ServerQueues {
    private var queues: [String: TransferQueue] = [:]
    /// Servers with waiting transfers that are not parked; each once.
    private var order = Deque<String>()
    /// Servers found full, with waiting transfers, out of `order` until `unblock`.
    private var parked: Set<String> = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }
    /// True when some server with waiting work may have room (parked servers have none).
    var hasReady: Bool { !order.isEmpty }

    mutating func append(_ item: TransferQueue.Item, server: String) {
        if queues[server] == nil, !parked.contains(server) { order.append(server) }
        queues[server, default: TransferQueue()].append(item)
        count += 1
    }

    /// The first waiting transfer of the first server that `hasRoom`, and its server.
    mutating func popFirst(where hasRoom: (String) -> Bool) -> (TransferQueue.Item, String)? {
        while let server = order.first {
            guard hasRoom(server) else {
                _ = order.popFirst()
                parked.insert(server)
                continue
            }
            guard let item = queues[server]?.popFirst() else {
                _ = order.popFirst()
                queues[server] = nil
                continue
            }
            if queues[server]?.isEmpty ?? true {
                _ = order.popFirst()
                queues[server] = nil
            }
            count -= 1
            return (item, server)
        }
        return nil
    }

    /// A transfer of `server` finished: its waiting transfers may start again.
    mutating func unblock(_ server: String) {
        guard parked.remove(server) != nil, queues[server] != nil else { return }
        order.append(server)
    }
}

/// A FIFO of values; amortised O(1) at both ends without shifting the array.
struct Deque<Element> {
    typealias Item = Element
    private var items: [Element] = []
    private var head = 0

    var isEmpty: Bool { head >= items.count }
    var first: Element? { isEmpty ? nil : items[head] }

    mutating func append(_ item: Element) {
        items.append(item)
    }

    mutating func popFirst() -> Element? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        // Drop what was consumed now and then, so a long run does not keep every finished item.
        if head > 1024 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }
}

/// A FIFO of transfers to start.
typealias TransferQueue = Deque<(FetchRequest, ((Bool) -> Void)?, (FetchResponse) -> Void)>
