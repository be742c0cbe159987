import CCMS
import Foundation

/// Which served bodies a report stores whole (`--bodies`). A body left out is still described by
/// its location: its size (`bytes`) and SHA-256 (`bodySHA256`), and `bodyOmittedBy` names this policy.
public enum BodiesPolicy: String, Sendable, Equatable, Codable, CaseIterable {
    /// Every body.
    case all
    /// The bodies of every domain that does not pass (its stored verdict `fail` or `warn`): the
    /// evidence a ticket needs. A passing domain's body is the file its owner already has.
    case failing
    /// No body.
    case none

    /// The default of `--bodies`: what a ticket needs, without the passing domains' files that
    /// otherwise make most of a large report (docs/report-format.md, "Bodies").
    public static let `default` = BodiesPolicy.failing
}

/// The SHA-256 a stored body is known by: lower-case hex of its text's UTF-8 bytes.
public enum BodyDigest {
    /// OpenSSL's SHA-256, fetched once: `SHA256()` looks the algorithm up by name on every call, which
    /// cost twice the hashing of a small body (each location's body is hashed). Immutable once fetched,
    /// so the audit's threads share it; nil where the provider has none (then `SHA256()` is used).
    nonisolated(unsafe) private static let sha256Algorithm = EVP_MD_fetch(nil, "SHA256", nil)

    public static func sha256(of text: String) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var text = text
        text.withUTF8 { input in
            digest.withUnsafeMutableBufferPointer { output in
                guard let out = output.baseAddress else { return }
                // An empty text has no base address; OpenSSL takes any pointer for 0 bytes.
                let bytes = input.baseAddress ?? UnsafePointer(out)
                if let md = sha256Algorithm, EVP_Digest(bytes, input.count, out, nil, md, nil) == 1 { return }
                ccms_sha256(bytes, input.count, out)
            }
        }
        return hex(digest)
    }

    /// Lower-case hex of a digest's bytes, two digits a byte (the CA file's digest is written so too).
    public static func hex(_ digest: [UInt8]) -> String {
        var text = [UInt8](repeating: 0, count: 2 * digest.count)
        for (index, byte) in digest.enumerated() {
            text[2 * index] = hexDigits[Int(byte >> 4)]
            text[2 * index + 1] = hexDigits[Int(byte & 0x0F)]
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// True for what `sha256(of:)` writes: 64 lower-case hex digits (a key of report.json's `bodies`).
    public static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

/// A location of a report refers to a body that its report's `bodies` does not hold.
public struct StoredBodyMissing: Error, Equatable, CustomStringConvertible {
    public var domain: String
    public var path: String
    public var sha256: String
    public var description: String {
        "\(domain)'s \(path) refers to a body (SHA-256 \(sha256)) that the report's \"bodies\" does not hold"
    }
}

/// A key of a report's `bodies` that is not the SHA-256 of its text.
public struct BodyTableProblem: Error, Equatable, CustomStringConvertible {
    public var key: String
    public var description: String {
        BodyDigest.isDigest(key) ? "bodies[\"\(key)\"] is not the text of that SHA-256"
                                 : "bodies has a key that is not a SHA-256 (64 lower-case hex digits): \"\(key.prefix(80))\""
    }

    /// Throws when `key` is not `text`'s SHA-256.
    public static func check(key: String, text: String) throws {
        guard BodyDigest.isDigest(key), BodyDigest.sha256(of: text) == key else { throw BodyTableProblem(key: key) }
    }
}

extension LocationResult {
    /// True when the report holds this location's body in its `bodies` table, by `bodySHA256`,
    /// and it is not in hand here (read from a report one domain at a time).
    public var bodyIsStoredApart: Bool { body == nil && bodyOmittedBy == nil && bodySHA256 != nil }
}

extension DomainResult {
    /// Every location of the result: the two Apple ones, the Android file and its included lists.
    mutating func forEachLocation(_ change: (inout LocationResult) throws -> Void) rethrows {
        for index in locations.indices { try change(&locations[index]) }
        if var android {
            try change(&android.location)
            if var includes = android.includes {
                for index in includes.indices { try change(&includes[index]) }
                android.includes = includes
            }
            self.android = android
        }
    }

    /// Leaves out the bodies `policy` does not store, by the stored verdict (never re-judged):
    /// with `failing`, those of a domain that passes; with `none`, all. Each keeps its size and SHA-256.
    public mutating func keepBodies(_ policy: BodiesPolicy) {
        switch policy {
        case .all: return
        case .failing where verdict != .pass: return
        case .failing, .none: break
        }
        forEachLocation { location in
            guard location.body != nil else { return }
            let digest = location.bodySHA256
            location.body = nil
            location.bodySHA256 = digest
            location.bodyOmittedBy = policy
        }
    }

    /// The result as report.json holds it: each body in hand taken out, to be stored once in the
    /// report's `bodies` (the location keeps `bodySHA256`), and handed to `take` with its digest.
    public func bodiesApart(_ take: (_ sha256: String, _ text: String) throws -> Void) rethrows -> DomainResult {
        var result = self
        try result.forEachLocation { location in
            guard let body = location.body else { return }
            let digest = location.bodySHA256 ?? BodyDigest.sha256(of: body)
            try take(digest, body)
            location.body = nil
            location.bodySHA256 = digest
        }
        return result
    }

    /// Puts back each body stored apart (`bodyIsStoredApart`), from `lookup` by its SHA-256;
    /// throws `StoredBodyMissing` for one `lookup` does not have.
    public mutating func resolveBodies(_ lookup: (String) throws -> String?) throws {
        let name = domain
        try forEachLocation { location in
            guard location.bodyIsStoredApart, let digest = location.bodySHA256 else { return }
            guard let text = try lookup(digest) else {
                throw StoredBodyMissing(domain: name, path: location.path, sha256: digest)
            }
            location.body = text
            location.bodySHA256 = digest
        }
    }

    /// The SHA-256 of every body this result refers to without holding it (stored apart).
    public var bodiesStoredApart: [String] {
        var digests: [String] = []
        var copy = self
        copy.forEachLocation { location in
            if location.bodyIsStoredApart, let digest = location.bodySHA256 { digests.append(digest) }
        }
        return digests
    }
}
