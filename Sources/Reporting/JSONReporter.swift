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
        var data = Data()
        try render(report) { data.append($0) }
        return data
    }

    /// Encodes `report` as `render(_:)` does, handing the bytes to `sink` piece by piece.
    ///
    /// The same bytes as encoding the whole report at once, but built one domain at a time:
    /// Foundation's encoder builds a tree of the whole value first, which for thousands of domains
    /// costs several times the size of the output. The report without its domains is encoded, and
    /// each domain, encoded alone and indented to its depth, goes into the empty `domains` array.
    public static func render(_ report: AuditReport, to sink: (Data) throws -> Void) throws {
        try render(StreamedReport(report), to: sink)
    }

    /// Encodes `streamed` as `render(_:)` encodes the same report held whole, reading its domains
    /// one at a time (a domain stored as report.json holds it is copied, not decoded and encoded again).
    public static func render(_ streamed: StreamedReport, to sink: (Data) throws -> Void) throws {
        let encoder = makeEncoder()
        let domains = streamed.domains
        var head = try encoder.encode(streamed.report)
        // Sorted keys and two-space indentation: the first "\n  \"domains\" : [" is the top-level key.
        guard !domains.isEmpty, let key = head.range(of: Data(Self.domainsKey.utf8)),
              let close = head[key.upperBound...].range(of: Data(Self.emptyArrayEnd.utf8)),
              close.lowerBound == key.upperBound else {
            // No domains (or an encoder that lays out empty arrays differently): encode it whole.
            var whole = streamed.report
            whole.domains = try domains.all()
            return try sink(renderWhole(whole))
        }
        let tail = head[close.upperBound...]
        head.removeSubrange(key.upperBound...)
        head.append(0x0A)
        // The bodies, once each, go where their key sorts: before the first top-level key after
        // "bodies" ("changes" or "complete", which is always there; only top-level keys are indented
        // two spaces). Written one at a time, so the table is never held whole.
        if let next = head.range(of: Data(Self.keyAfterBodies.utf8)) {
            try sink(head[..<next.lowerBound])
            var first = true
            try domains.forEachStoredBody { digest, text in
                var entry = Data((first ? "\n  \"bodies\" : {\n    \"" : ",\n    \"").utf8)
                entry.append(contentsOf: digest.utf8)
                entry.append(contentsOf: "\" : ".utf8)
                entry.append(try encoder.encode(text))
                first = false
                try sink(entry)
            }
            if !first { try sink(Data("\n  },".utf8)) }
            try sink(head[next.lowerBound...])
        } else {
            try sink(head)
        }
        for index in 0..<domains.count {
            // A spool stores each domain as an element of `domains` already (`encodeDomainElement`).
            var chunk = try domains.storedJSON(at: index) ?? encodeDomainElement(domains.result(at: index).bodiesApart { _, _ in })
            if index + 1 < domains.count { chunk.append(contentsOf: [0x2C, 0x0A]) }
            try sink(chunk)
        }
        var end = Data("\n  ]".utf8)
        end.append(contentsOf: tail)
        // A trailing newline, so the file is a well-formed text file.
        end.append(0x0A)
        try sink(end)
    }

    /// One domain as report.json holds it, before it is indented into `domains` (what a results
    /// spool stores, so the report copies it): `JSONEncoder`'s bytes, written by
    /// `PrettySortedJSONEncoder`, or by `JSONEncoder` itself for what that one refuses.
    public static func encodeDomain(_ result: DomainResult) throws -> Data {
        do {
            return try PrettySortedJSONEncoder().encode(result)
        } catch is PrettySortedJSONEncoder.Unsupported {
            return try makeEncoder().encode(result)
        }
    }

    /// One domain as an element of report.json's `domains` holds it: `encodeDomain(_:)`'s bytes four
    /// spaces deeper, each line but an empty one. What a results spool stores, so the report copies
    /// it as it is (indenting each domain's bytes at the end was most of writing report.json).
    public static func encodeDomainElement(_ result: DomainResult) throws -> Data {
        do {
            return try PrettySortedJSONEncoder().encode(result, depth: 2)
        } catch is PrettySortedJSONEncoder.Unsupported {
            // Array elements sit four spaces deep; JSON strings hold no raw newline, so every
            // newline in the encoding starts a line to indent (but the blank line of an empty array).
            return indented(try makeEncoder().encode(result), separator: false)
        }
    }

    /// Reads back one domain encoded by `encodeDomain(_:)` or `encodeDomainElement(_:)`.
    public static func decodeDomain(_ data: Data) throws -> DomainResult {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(DomainResult.self, from: data)
    }

    private static let domainsKey = "\n  \"domains\" : ["
    /// The start of the top-level keys that sort after "bodies" and are in every report.
    private static let keyAfterBodies = "\n  \"c"
    /// How the encoder lays out the empty `domains` array after its key.
    private static let emptyArrayEnd = "\n\n  ]"
    private static let elementIndent: [UInt8] = Array("    ".utf8)

    /// `encoded` four spaces deep, each line of it (but an empty one), and ",\n" after it when
    /// `separator`. The newlines are found with memchr and the copy sized before it is made: the
    /// report copies every domain's bytes, tens of MB in a large run.
    static func indented(_ encoded: Data, separator: Bool) -> Data {
        encoded.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Data in
            let indent = elementIndent.count, count = raw.count
            // The offsets just after each newline that starts a line to indent.
            var starts: [Int] = []
            if let base = raw.baseAddress {
                var start = 0
                while start < count, let found = memchr(base + start, 0x0A, count - start) {
                    let offset = base.distance(to: UnsafeRawPointer(found))
                    if offset + 1 < count, raw[offset + 1] != 0x0A { starts.append(offset + 1) }
                    start = offset + 1
                }
            }
            var chunk = Data(count: indent * (starts.count + 1) + count + (separator ? 2 : 0))
            chunk.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) in
                var written = 0
                func put(_ bytes: UnsafeRawBufferPointer) {
                    guard !bytes.isEmpty else { return }
                    UnsafeMutableRawBufferPointer(rebasing: out[written..<(written + bytes.count)]).copyMemory(from: bytes)
                    written += bytes.count
                }
                elementIndent.withUnsafeBytes { spaces in
                    var from = 0
                    put(spaces)
                    for start in starts {
                        put(UnsafeRawBufferPointer(rebasing: raw[from..<start]))
                        put(spaces)
                        from = start
                    }
                    put(UnsafeRawBufferPointer(rebasing: raw[from...]))
                }
                if separator { out[written] = 0x2C; out[written + 1] = 0x0A }
            }
            return chunk
        }
    }

    private static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// The whole report through one `JSONEncoder` call: what `render` must equal, byte for byte.
    /// For tests.
    /// Also what a report with no domains is written as.
    static func renderWhole(_ report: AuditReport) throws -> Data {
        var whole = WholeReport(report: report, bodies: [:])
        whole.report.domains = report.domains.map { $0.bodiesApart { whole.bodies[$0] = $1 } }
        var data = try makeEncoder().encode(whole)
        data.append(0x0A)
        return data
    }

    /// A report with its bodies stored apart, as one value: the report's own keys and `bodies`
    /// (absent when empty) in one object, sorted by the encoder.
    private struct WholeReport: Encodable {
        var report: AuditReport
        var bodies: [String: String]
        private enum Key: String, CodingKey { case bodies }
        func encode(to encoder: Encoder) throws {
            try report.encode(to: encoder)
            guard !bodies.isEmpty else { return }
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(bodies, forKey: .bodies)
        }
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
        guard AuditReport.readableSchemaVersions.contains(version) else {
            throw UnsupportedSchemaVersion(found: version, supported: AuditReport.currentSchemaVersion)
        }
        return try decoder.decode(AuditReport.self, from: data)
    }

    /// A key of a report's `bodies` that is not the SHA-256 of its text (`Audit.BodyTableProblem`).
    public typealias BodyTableProblem = Audit.BodyTableProblem

    /// A report whose `schemaVersion` this build cannot read.
    public struct UnsupportedSchemaVersion: Error, Equatable, CustomStringConvertible {
        /// The version in the file.
        public var found: Int
        /// The version this build reads and writes.
        public var supported: Int
        /// A sentence for the user.
        public var description: String {
            "report schema version \(found) is not supported (this build reads versions 1 to \(supported))"
        }
    }

    private struct VersionOnly: Decodable {
        var schemaVersion: Int
    }
}
