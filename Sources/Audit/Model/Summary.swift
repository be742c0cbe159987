import Foundation

/// Counts of domains by verdict.
public struct Summary: Sendable, Equatable, Codable {
    public var domains: Int
    public var pass: Int
    public var warn: Int
    public var fail: Int
    /// The Android parts counted by their own verdict (`AndroidResult.verdict`); nil when no domain
    /// had its assetlinks.json audited.
    public var android: AndroidSummary?

    public init(domains results: [DomainResult]) {
        domains = results.count
        pass = results.filter { $0.verdict == .pass }.count
        warn = results.filter { $0.verdict == .warn }.count
        fail = results.filter { $0.verdict == .fail }.count
        let androids = results.compactMap(\.android)
        android = androids.isEmpty ? nil : AndroidSummary(androids)
    }
}
