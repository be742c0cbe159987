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
    private var pending = TransferQueue()
    /// Transfers submitted by completions (a domain's second location, redirect hops, probes) start
    /// before new work, so a domain finishes while its connection is still in curl's cache.
    private var followUps = TransferQueue()
    private var active: [UnsafeMutableRawPointer: Transfer] = [:]

    /// Creates a loop; nil when libcurl cannot be initialised.
    public init?(options: FetchOptions) {
        guard CurlRuntime.isReady, let multi = curl_multi_init() else { return nil }
        self.multi = multi
        self.options = options
        self.routing = Routing(options: options)
        // Keep enough idle connections that each domain's second location finds its first one's.
        ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(64, options.concurrency * 2))
    }

    deinit {
        for (easy, _) in active { curl_multi_remove_handle(multi, easy) }
        active.removeAll()
        curl_multi_cleanup(multi)
    }

    /// Queues a transfer; `completion` runs on the loop when it finishes and may submit more.
    /// Transfers submitted from a completion start before those submitted from outside the loop.
    public func submit(_ request: FetchRequest, completion: @escaping (FetchResponse) -> Void) {
        if isDraining {
            followUps.append((request, completion))
        } else {
            pending.append((request, completion))
        }
    }

    private var isDraining = false

    /// Runs until every submitted transfer (and every one submitted by completions) has finished.
    public func run() {
        run(until: nil)
    }

    /// Runs like `run()`, but returns early once `stopSwitch` is flipped: the transfers in flight are
    /// removed and the queued ones dropped, without their completions being called.
    public func run(until stopSwitch: StopSwitch?) {
        while !pending.isEmpty || !followUps.isEmpty || !active.isEmpty {
            if let stopSwitch, stopSwitch.isStopped {
                abandonAll()
                return
            }
            startPending()
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            drainFinished()
            let waiting = !pending.isEmpty || !followUps.isEmpty
            if !active.isEmpty && (!waiting || active.count >= options.concurrency) {
                var ready: Int32 = 0
                curl_multi_poll(multi, nil, 0, 200, &ready)
            }
        }
    }

    /// Drops every queued and active transfer (their completions are not called).
    private func abandonAll() {
        for (easy, _) in active { curl_multi_remove_handle(multi, easy) }
        active.removeAll()
        pending = TransferQueue()
        followUps = TransferQueue()
    }

    private func startPending() {
        while active.count < max(1, options.concurrency), let (request, completion) = followUps.popFirst() ?? pending.popFirst() {
            guard let transfer = Transfer(request: request, options: options, routing: routing, completion: completion) else {
                completion(FetchResponse(url: request.url, error: TransferError(kind: .other, curlCode: -1, message: "libcurl could not create a transfer handle")))
                continue
            }
            active[transfer.easy] = transfer
            curl_multi_add_handle(multi, transfer.easy)
        }
    }

    private func drainFinished() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                  let transfer = active.removeValue(forKey: easy) else { continue }
            let result = message.pointee.data.result
            let response = transfer.response(result: result)
            curl_multi_remove_handle(multi, easy)
            isDraining = true
            transfer.completion(response)
            isDraining = false
        }
    }
}

/// A FIFO of transfers to start; amortised O(1) at both ends without shifting the array.
struct TransferQueue {
    typealias Item = (FetchRequest, (FetchResponse) -> Void)
    private var items: [Item] = []
    private var head = 0

    var isEmpty: Bool { head >= items.count }

    mutating func append(_ item: Item) {
        items.append(item)
    }

    mutating func popFirst() -> Item? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        // Drop what was consumed now and then, so a long run does not keep every finished request.
        if head > 4096 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }
}
