import Foundation

/// A number or date of a report read from a file that is outside what any run writes: such a
/// report is unusable, with this as its reason (never a trap when it is rendered, merged, compared
/// or recorded).
public struct ReportValueOutOfRange: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where in the object being decoded (`summary.pass`, `locations[0].tls.certificate.daysLeft`).
    public var field: String
    /// The value as read.
    public var value: String
    /// What the field may hold, in words.
    public var allowed: String

    public var description: String { "\(field) is \(value), outside \(allowed)" }
}

/// The ranges every number and date of a report is checked against when a report is decoded. Far
/// beyond any real run, and far enough inside Int64 that the tool's sums, differences and
/// negations of them cannot overflow.
public enum ReportRange {
    /// Domains, runs, counts of anything: 0 to Int32.max.
    public static let count = 0...Int(Int32.max)
    /// Days left on a certificate, and days between dates: ±4,000,000 days covers years 0000 to 9999.
    public static let days = -4_000_000...4_000_000
    /// An HTTP status (0 when there was none).
    public static let status = 0...999
    /// A body's size or limit in bytes: up to 2⁵³ (exact as a Double).
    public static let bytes = 0...(1 << 53)
    /// A curl result code.
    public static let curlCode = 0...100_000
    /// Unix seconds of 0000-01-01 to the end of 9999-12-31: every date a certificate's four-digit
    /// year can say, so no report the tool writes falls outside.
    public static let seconds: ClosedRange<Double> = -62_167_219_200...253_402_300_799
    /// A timing in milliseconds: 10¹² (31 years) at most, far past any timeout.
    public static let milliseconds: ClosedRange<Double> = 0...1_000_000_000_000
    /// A run's duration in seconds: 10⁹ (31 years) at most.
    public static let durationSeconds: ClosedRange<Double> = 0...1_000_000_000

    /// Collects the first value out of range while a decoded value is walked.
    struct Checker {
        private(set) var problem: ReportValueOutOfRange?

        mutating func count(_ value: Int?, _ field: @autoclosure () -> String) { int(value, ReportRange.count, field(), "0…\(Int32.max)") }
        mutating func days(_ value: Int?, _ field: @autoclosure () -> String) { int(value, ReportRange.days, field(), "±4000000 days") }
        mutating func status(_ value: Int?, _ field: @autoclosure () -> String) { int(value, ReportRange.status, field(), "0…999") }
        mutating func bytes(_ value: Int?, _ field: @autoclosure () -> String) { int(value, ReportRange.bytes, field(), "0…2^53 bytes") }

        mutating func int(_ value: Int?, _ range: ClosedRange<Int>, _ field: @autoclosure () -> String, _ allowed: String) {
            guard problem == nil, let value, !range.contains(value) else { return }
            problem = ReportValueOutOfRange(field: field(), value: String(value), allowed: allowed)
        }

        mutating func date(_ value: Date?, _ field: @autoclosure () -> String) {
            guard problem == nil, let value, !ReportRange.seconds.contains(value.timeIntervalSince1970) else { return }
            problem = ReportValueOutOfRange(field: field(), value: String(value.timeIntervalSince1970) + " s since 1970",
                                            allowed: "the years 0000 to 9999")
        }

        mutating func milliseconds(_ value: Double, _ field: @autoclosure () -> String) {
            guard problem == nil, !ReportRange.milliseconds.contains(value) else { return }
            problem = ReportValueOutOfRange(field: field(), value: String(value), allowed: "0…10^12 ms")
        }

        /// A duration in seconds: the same bound as a timing, 10⁹ s (31 years).
        mutating func seconds(_ value: Double, _ field: @autoclosure () -> String) {
            guard problem == nil, !ReportRange.durationSeconds.contains(value) else { return }
            problem = ReportValueOutOfRange(field: field(), value: String(value), allowed: "0…10^9 s")
        }

        /// Throws the problem found, as a decoding error at `decoder`'s path.
        func throwProblem(at decoder: Decoder) throws {
            guard let problem else { return }
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: problem.description, underlyingError: problem))
        }

        mutating func location(_ location: LocationResult, _ name: String) {
            status(location.httpStatus, "\(name).httpStatus")
            bytes(location.bytes.transferred, "\(name).bytes.transferred")
            bytes(location.bytes.decoded, "\(name).bytes.decoded")
            bytes(location.bytes.limit, "\(name).bytes.limit")
            for (index, hop) in (location.redirect?.hops ?? []).enumerated() { status(hop.status, "\(name).redirect.hops[\(index)].status") }
            if let certificate = location.tls?.certificate {
                date(certificate.notBefore, "\(name).tls.certificate.notBefore")
                date(certificate.notAfter, "\(name).tls.certificate.notAfter")
                days(certificate.daysLeft, "\(name).tls.certificate.daysLeft")
                count(certificate.keyBits, "\(name).tls.certificate.keyBits")
                days(certificate.validityDays, "\(name).tls.certificate.validityDays")
                count(certificate.embeddedSCTs, "\(name).tls.certificate.embeddedSCTs")
            }
            for (index, certificate) in (location.tls?.chain ?? []).enumerated() { count(certificate.keyBits, "\(name).tls.chain[\(index)].keyBits") }
            let timings = location.timings
            for (value, key) in [(timings.dnsMs, "dnsMs"), (timings.connectMs, "connectMs"), (timings.tlsMs, "tlsMs"),
                                 (timings.firstByteMs, "firstByteMs"), (timings.totalMs, "totalMs")] {
                milliseconds(value, "\(name).timings.\(key)")
            }
            int(location.error?.curlCode, ReportRange.curlCode, "\(name).error.curlCode", "0…100000")
            findings(location.findings, "\(name).findings")
        }

        /// A finding's line and column (only `validate` sets them; a report read back may hold any).
        mutating func finding(_ finding: Finding?, _ name: @autoclosure () -> String) {
            count(finding?.line, "\(name()).line")
            count(finding?.column, "\(name()).column")
        }

        mutating func findings(_ findings: [Finding], _ name: @autoclosure () -> String) {
            for (index, finding) in findings.enumerated() where finding.line != nil || finding.column != nil {
                self.finding(finding, "\(name())[\(index)]")
            }
        }

        mutating func domain(_ domain: DomainResult) {
            date(domain.certificate?.notAfter, "certificate.notAfter")
            days(domain.certificate?.daysLeft, "certificate.daysLeft")
            for (index, location) in domain.locations.enumerated() { self.location(location, "locations[\(index)]") }
            findings(domain.findings, "findings")
            finding(domain.headline, "headline")
            if let android = domain.android {
                location(android.location, "android.location")
                findings(android.findings, "android.findings")
                for (index, included) in (android.includes ?? []).enumerated() { location(included, "android.includes[\(index)]") }
            }
            status(domain.cdn?.httpStatus, "cdn.httpStatus")
            int(domain.cdn?.error?.curlCode, ReportRange.curlCode, "cdn.error.curlCode", "0…100000")
            status(domain.crawler?.httpStatus, "crawler.httpStatus")
            status(domain.crawler?.toolHTTPStatus, "crawler.toolHTTPStatus")
            for (index, claim) in (domain.claims ?? []).enumerated() { count(claim.index, "claims[\(index)].index") }
            for (index, family) in (domain.addressFamilies?.families ?? []).enumerated() {
                status(family.status, "addressFamilies.families[\(index)].status")
                bytes(family.bodyBytes, "addressFamilies.families[\(index)].bodyBytes")
            }
        }

        mutating func report(_ report: AuditReport) {
            date(report.generatedAt, "generatedAt")
            let summary = report.summary
            for (value, key) in [(summary.domains, "domains"), (summary.pass, "pass"), (summary.warn, "warn"), (summary.fail, "fail")] {
                count(value, "summary.\(key)")
            }
            if let android = summary.android {
                for (value, key) in [(android.domains, "domains"), (android.pass, "pass"), (android.warn, "warn"), (android.fail, "fail")] {
                    count(value, "summary.android.\(key)")
                }
            }
            count(report.inputErrorsOmitted, "inputErrorsOmitted")
            count(report.appLinkHosts?.shared, "appLinkHosts.shared")
            count(report.expiryWarningDays, "expiryWarningDays")
            if let run = report.run {
                if problem == nil, !RunProvenance.exitStatuses.contains(run.exitStatus) {
                    problem = ReportValueOutOfRange(field: "run.exitStatus", value: String(run.exitStatus), allowed: "0, 1, 2, 130 or 143")
                }
                seconds(run.durationSeconds, "run.durationSeconds")
            }
            for (index, shard) in (report.missingShards ?? []).enumerated() { int(shard, 1...Int(Int32.max), "missingShards[\(index)]", "1…\(Int32.max)") }
            count(report.missingShardsOmitted, "missingShardsOmitted")
            for (index, problem) in report.inputErrors.enumerated() { count(problem.line, "inputErrors[\(index)].line") }
            if let changes = report.changes {
                date(changes.baselineGeneratedAt, "changes.baselineGeneratedAt")
                for (list, key) in [(changes.newlyFailing, "newlyFailing"), (changes.recovered, "recovered"), (changes.otherVerdictChanges, "otherVerdictChanges")] {
                    for (index, change) in list.enumerated() { finding(change.reason, "changes.\(key)[\(index)].reason") }
                }
                for (index, change) in changes.certificates.enumerated() {
                    days(change.daysLeftBefore, "changes.certificates[\(index)].daysLeftBefore")
                    days(change.daysLeft, "changes.certificates[\(index)].daysLeft")
                    date(change.notAfter, "changes.certificates[\(index)].notAfter")
                }
            }
            if let history = report.history {
                count(history.earlierListRuns, "history.earlierListRuns")
                count(history.expiryWarningDays, "history.expiryWarningDays")
                for (index, streak) in history.failingSince.enumerated() {
                    date(streak.since, "history.failingSince[\(index)].since")
                    count(streak.runs, "history.failingSince[\(index)].runs")
                }
                for (index, fixed) in history.fixed.enumerated() { count(fixed.afterRuns, "history.fixed[\(index)].afterRuns") }
                for (index, flapping) in history.flapping.enumerated() { count(flapping.changes, "history.flapping[\(index)].changes") }
                for (index, expiring) in history.expiringCertificates.enumerated() {
                    date(expiring.notAfter, "history.expiringCertificates[\(index)].notAfter")
                    days(expiring.daysLeft, "history.expiringCertificates[\(index)].daysLeft")
                }
                for (index, tally) in history.trend.enumerated() {
                    date(tally.generatedAt, "history.trend[\(index)].generatedAt")
                    for (value, key) in [(tally.pass, "pass"), (tally.warn, "warn"), (tally.fail, "fail")] { count(value, "history.trend[\(index)].\(key)") }
                }
            }
            for (index, app) in (report.apps ?? []).enumerated() {
                count(app.notAudited, "apps[\(index)].notAudited")
                count(app.skippedEntries, "apps[\(index)].skippedEntries")
                for (entry, claim) in app.entries.enumerated() { count(claim.index, "apps[\(index)].entries[\(entry)].index") }
                findings(app.findings, "apps[\(index)].findings")
            }
        }
    }
}

extension Int {
    /// `self + other`, held at Int.max or Int.min rather than trapping: the second guard on sums of
    /// counts read from files (which decoding has range-checked first).
    public func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
