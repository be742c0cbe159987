import Foundation

/// Shard `index` of `count` (1-based): a stable subset of a domain list, for spreading one list over
/// several machines (`--shard K/N`) and combining their reports (`aasa-audit merge`).
///
/// A domain belongs to the shard chosen by a hash of its ASCII name, not by its position in the
/// list, so adding or removing other lines never moves a domain to another shard, and every domain
/// is in exactly one shard of N. The hash is FNV-1a (64 bit), written out here because Swift's
/// `Hasher` is seeded per process and would give every machine a different split.
public struct Shard: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// 1-based: 1 ≤ index ≤ count.
    public var index: Int
    /// How many shards the list is split into (≥ 1).
    public var count: Int

    /// A shard; nil unless 1 ≤ index ≤ count.
    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `K/N` (e.g. `2/8`), as given to `--shard`.
    public init(parsing text: String) throws(ShardSyntaxError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else {
            throw ShardSyntaxError(reason: "expected K/N, two whole numbers with 1 ≤ K ≤ N, e.g. 1/4")
        }
        guard count >= 1 else { throw ShardSyntaxError(reason: "N must be at least 1") }
        guard index >= 1 else { throw ShardSyntaxError(reason: "K counts from 1, e.g. 1/\(count) to \(count)/\(count)") }
        guard index <= count else { throw ShardSyntaxError(reason: "K must be at most N (\(count))") }
        guard count <= Self.maximumCount else { throw ShardSyntaxError(reason: "N must be at most \(Self.maximumCount)") }
        self.index = index
        self.count = count
    }

    /// The most shards a list is split into: a report's counts stay within `ReportRange.count`.
    public static let maximumCount = ReportRange.count.upperBound

    /// "2/8".
    public var description: String { "\(index)/\(count)" }

    private enum CodingKeys: String, CodingKey { case index, count }

    /// Decodes a shard from a report, which may be any file (`merge`, `--baseline`): a shard that
    /// breaks 1 ≤ index ≤ count is refused, as `--shard` refuses it, rather than carried along.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let index = try container.decode(Int.self, forKey: .index)
        let count = try container.decode(Int.self, forKey: .count)
        // N is a count like any other of a report (`ReportRange.count`): one beyond it is refused
        // with the reason, as an out-of-range number is.
        guard (1...Self.maximumCount).contains(count), (1...count).contains(index) else {
            let problem = ReportValueOutOfRange(field: "shard", value: "\(index)/\(count)", allowed: "K/N with 1 ≤ K ≤ N ≤ \(Self.maximumCount)")
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: problem.description, underlyingError: problem))
        }
        self.index = index
        self.count = count
    }

    /// True when `domain` (ASCII, as fetched) belongs to this shard. Case does not matter.
    public func contains(_ domain: String) -> Bool {
        Self.shardIndex(of: domain, count: count) == index
    }

    /// True when a name whose `fnv1a` hash (of the lower-case ASCII name) is `hash` belongs to this shard.
    public func contains(hash: UInt64) -> Bool {
        Self.shardIndex(ofHash: hash, count: count) == index
    }

    /// The 1-based shard of `domain` among `count` shards.
    public static func shardIndex(of domain: String, count: Int) -> Int {
        shardIndex(ofHash: fnv1a(domain.lowercased()), count: count)
    }

    /// The 1-based shard of a name whose `fnv1a` hash is `hash`, among `count` shards.
    static func shardIndex(ofHash hash: UInt64, count: Int) -> Int {
        Int(hash % UInt64(max(1, count))) + 1
    }

    /// The domains of `list` in this shard; rejected lines (input problems) are kept whole, so every
    /// shard reports them. (A list read for a shard, `DomainList.parse(_:file:keeping:)`, already is one.)
    public func subset(of list: DomainList) -> DomainList {
        var subset = DomainList(entries: list.entries.filter { contains($0.name.ascii) }, problems: list.problems,
                                duplicates: list.duplicates.filter { contains($0.name.ascii) }, problemsOmitted: list.problemsOmitted)
        subset.inOtherShards = list.inOtherShards + list.entries.count - subset.entries.count
        return subset
    }

    /// 64-bit FNV-1a over the UTF-8 bytes.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}

/// Why a `--shard` value is not `K/N`.
public struct ShardSyntaxError: Error, Equatable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
