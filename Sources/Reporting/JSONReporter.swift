import Audit
import Foundation

/// The machine-readable report: `AuditReport` as JSON. The format is described in docs/report-format.md.
///
/// Keys are sorted and the output is pretty-printed so that two reports diff cleanly. Optional
/// fields that are nil are left out (Swift's synthesized `Codable` omits them) rather than written
/// as `null`; readers must treat a missing key as "not known / not applicable".
public enum JSONReporter {
    /// Encodes `report` as UTF-8 JSON: pretty-printed, sorted keys, slashes not escaped (URLs stay
    /// readable), dates as ISO 8601 in UTC without fractional seconds (`2026-11-29T19:00:00Z`).
    public static func render(_ report: AuditReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        var data = try encoder.encode(report)
        // A trailing newline, so the file is a well-formed text file.
        data.append(0x0A)
        return data
    }

    /// Reads back a report written by `render`, so that a previous run can be compared or re-rendered.
    ///
    /// Uses the same date format; fractional seconds are not part of it, so dates round-trip to the second.
    /// Throws `JSONReporter.UnsupportedSchemaVersion` for a report written with another schema
    /// version, before trying to read the rest: a clearer message than a missing-key error.
    public static func decode(_ data: Data) throws -> AuditReport {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let version = try decoder.decode(VersionOnly.self, from: data).schemaVersion
        guard version == AuditReport.currentSchemaVersion else {
            throw UnsupportedSchemaVersion(found: version, supported: AuditReport.currentSchemaVersion)
        }
        return try decoder.decode(AuditReport.self, from: data)
    }

    /// A report whose `schemaVersion` this build cannot read.
    public struct UnsupportedSchemaVersion: Error, Equatable, CustomStringConvertible {
        /// The version in the file.
        public var found: Int
        /// The version this build reads and writes.
        public var supported: Int
        /// A sentence for the user.
        public var description: String {
            "report schema version \(found) is not supported (this build reads version \(supported))"
        }
    }

    private struct VersionOnly: Decodable {
        var schemaVersion: Int
    }
}
