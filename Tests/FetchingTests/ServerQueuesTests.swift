import Testing
@testable import Fetching

/// The loop's waiting room: FIFO per server, a full server parked until one of its transfers ends.
@Suite struct ServerQueuesTests {
    static func item(_ url: String) -> TransferQueue.Item { (FetchRequest(url: url), nil, { _ in }) }

    @Test func aFullServerIsSkippedAndResumesInOrderWhenUnblocked() {
        var queues = ServerQueues()
        queues.append(Self.item("https://a/1"), server: "a:443")
        queues.append(Self.item("https://a/2"), server: "a:443")
        queues.append(Self.item("https://b/1"), server: "b:443")
        var full: Set<String> = ["a:443"]
        let hasRoom = { (server: String) in !full.contains(server) }
        #expect(queues.popFirst(where: hasRoom).map { $0.0.0.url } == "https://b/1")
        #expect(queues.popFirst(where: hasRoom) == nil, "a is full, b is empty")
        #expect(!queues.hasReady && queues.count == 2)
        queues.append(Self.item("https://a/3"), server: "a:443")
        #expect(!queues.hasReady, "more work for a parked server stays parked")
        full = []
        queues.unblock("b:443")
        #expect(!queues.hasReady, "only the server whose transfer ended is woken")
        queues.unblock("a:443")
        #expect(queues.hasReady)
        let order = (0..<3).compactMap { _ in queues.popFirst(where: hasRoom)?.0.0.url }
        #expect(order == ["https://a/1", "https://a/2", "https://a/3"])
        #expect(queues.isEmpty && !queues.hasReady)
    }

    @Test func serversAreTakenInTheOrderTheyFirstHadWork() {
        var queues = ServerQueues()
        for index in 0..<1000 { queues.append(Self.item("https://d\(index)/"), server: "d\(index):443") }
        let urls = (0..<1000).compactMap { _ in queues.popFirst { _ in true }?.0.0.url }
        #expect(urls == (0..<1000).map { "https://d\($0)/" })
        #expect(queues.popFirst { _ in true } == nil)
    }
}
