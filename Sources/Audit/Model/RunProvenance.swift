import Foundation

/// Where and how a report was made (`run` in report.json): the machine, how the run ended, how long
/// it took, and the route its transfers took. So a report attached to a ticket says whether it is a
/// production check or one through a staging address and a private CA. Set by the run that writes
/// the report (`Run`); nil in a report written before it was recorded.
public struct RunProvenance: Sendable, Equatable, Codable {
    /// The machine's name (`gethostname`); nil when it has none.
    public var host: String?
    /// The exit status the run decided as it wrote its reports (`ExitPolicy`, asked in the same
    /// order as for the process's status): 0, 1, 2, or 130/143 when a signal stopped the run before
    /// the reports were written (the report is then partial). A signal that arrives while they are
    /// written is not in it (the process then exits 130/143 with this report whole).
    public var exitStatus: Int
    /// Seconds from the start of the run's work (an audit: once it held the reports folder's lock;
    /// a merge: from reading its shards) to its reports being written; a merge's own time, not its shards'.
    public var durationSeconds: Double
    /// How the transfers reached the servers; nil when no route option and no proxy were used (for
    /// a merge: when none of its shards used one).
    public var route: RunRoute?

    public init(host: String?, exitStatus: Int, durationSeconds: Double, route: RunRoute?) {
        self.host = host
        self.exitStatus = exitStatus
        self.durationSeconds = durationSeconds
        self.route = route
    }

    /// The exit statuses a run writes.
    public static let exitStatuses: Set<Int> = [0, 1, 2, 130, 143]
}

/// The route options of a run (`--connect-to`, `--resolve`, `--cacert`) and its proxy, as given:
/// what made the run's transfers reach other servers, or trust other certificates, than a
/// device's would.
public struct RunRoute: Sendable, Equatable, Codable {
    /// `--connect-to` values, as given (empty: none).
    public var connectTo: [String]
    /// `--resolve` values, as given (empty: none).
    public var resolve: [String]
    /// `--cacert`: the file's path and the SHA-256 of its bytes, never its content.
    public var caFile: CAFile?
    /// The proxy of `https://` transfers (`scheme://host:port`, never its credentials) and where it
    /// was set (`--proxy` or the variable's name); nil: none.
    public var proxy: String?
    public var proxySource: String?

    public init(connectTo: [String] = [], resolve: [String] = [], caFile: CAFile? = nil, proxy: String? = nil, proxySource: String? = nil) {
        self.connectTo = connectTo
        self.resolve = resolve
        self.caFile = caFile
        self.proxy = proxy
        self.proxySource = proxySource
    }

    /// A `--cacert` file as the report names it.
    public struct CAFile: Sendable, Equatable, Codable {
        public var path: String
        /// Lower-case hex of the SHA-256 of the file's bytes; nil when it could not be read again.
        public var sha256: String?

        public init(path: String, sha256: String?) {
            self.path = path
            self.sha256 = sha256
        }
    }

    /// True when a route option sent the transfers elsewhere than DNS would, or trusted a private
    /// CA: the report shows a staging route, not what devices get. A proxy alone is not one (it
    /// reaches the same servers).
    public var isStaging: Bool { !connectTo.isEmpty || !resolve.isEmpty || caFile != nil }

    /// Nil when nothing routes the run: no option and no proxy.
    public var orNilWhenDirect: RunRoute? { isStaging || proxy != nil ? self : nil }
}
