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
