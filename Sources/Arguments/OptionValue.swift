import Audit
import Fetching
import Foundation
import Reporting

/// The values options take, checked once for every subcommand that takes them.
public enum OptionValue {
    /// `--format LIST`: comma-separated report formats, in the order given.
    public static func formats(_ text: String) throws(UsageError) -> [ReportFormat] {
        let supported = ReportFormat.allCases.map(\.name).joined(separator: ", ")
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard !names.isEmpty else { throw .invalidValue("--format", text, "name at least one of \(supported)") }
        var formats: [ReportFormat] = []
        for name in names {
            guard let format = ReportFormat(rawValue: name) else {
                throw .invalidValue("--format", text, "\"\(name)\" is not a format; choose from \(supported)")
            }
            formats.append(format)
        }
        return formats
    }

    /// A whole number in `range`; `why` explains the range when it is not obvious.
    public static func integer(_ text: String, _ name: String, in range: ClosedRange<Int>, why: String? = nil) throws(UsageError) -> Int {
        guard let number = Int(text) else { throw .invalidValue(name, text, "expected a whole number") }
        guard range.contains(number) else {
            throw .invalidValue(name, text, "expected \(range.lowerBound) to \(range.upperBound)" + (why.map { "; \($0)" } ?? ""))
        }
        return number
    }

    /// Seconds, more than 0 and at most 600.
    public static func seconds(_ text: String, _ name: String) throws(UsageError) -> Double {
        guard let number = Double(text), number > 0, number <= 600 else {
            throw .invalidValue(name, text, "expected seconds, more than 0 and at most 600 (e.g. 2.5)")
        }
        return number
    }

    /// `K/N` with 1 ≤ K ≤ N.
    public static func shard(_ text: String) throws(UsageError) -> Shard {
        do {
            return try Shard(parsing: text)
        } catch {
            throw .invalidValue("--shard", text, error.description)
        }
    }

    /// An https:// base URL ending with "/", to which the domain is appended.
    public static func appleCDN(_ text: String) throws(UsageError) -> String {
        let example = "expected an https:// URL ending with \"/\", e.g. \(AuditOptions.defaultAppleCDNBase)"
        guard let url = URLComponents(string: text), url.scheme?.lowercased() == "https",
              let host = url.host, !host.isEmpty else { throw .invalidValue("--apple-cdn", text, example) }
        guard url.query == nil, url.fragment == nil, text.hasSuffix("/") else {
            throw .invalidValue("--apple-cdn", text, example + " (the domain is appended to it)")
        }
        return text
    }

    /// An https:// base URL without query or fragment, to which `/v1/statements:list?...` is appended
    /// (a trailing "/" is dropped, so it is not doubled).
    public static func googleDALBase(_ text: String) throws(UsageError) -> String {
        let example = "expected an https:// URL, e.g. \(GoogleDAL.defaultBase)"
        guard let url = URLComponents(string: text), url.scheme?.lowercased() == "https",
              let host = url.host, !host.isEmpty else { throw .invalidValue("--google-dal-base", text, example) }
        guard url.query == nil, url.fragment == nil else {
            throw .invalidValue("--google-dal-base", text, example + " without ? or # (/v1/statements:list?... is appended to it)")
        }
        var base = text
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// curl's `HOST:PORT:CONNECT_HOST:CONNECT_PORT` (HOST and PORT may be empty: any; brackets for IPv6).
    public static func connectTo(_ text: String) throws(UsageError) -> String {
        let fields = FetchOptions.splitHostFields(text)
        guard fields.count == 4 else {
            throw .invalidValue("--connect-to", text, "expected HOST:PORT:CONNECT_HOST:CONNECT_PORT, e.g. example.com:443:staging.example.net:443 (empty HOST or PORT means any)")
        }
        for port in [fields[1], fields[3]] where !port.isEmpty && !(Int(port).map { (1...65535).contains($0) } ?? false) {
            throw .invalidValue("--connect-to", text, "\"\(port)\" is not a port number")
        }
        return text
    }

    /// A proxy URL in curl's syntax, or "" for none; refused (with its credentials masked) when
    /// libcurl could not use it.
    public static func proxy(_ text: String) throws(UsageError) -> String {
        guard !text.isEmpty else { return text }
        do {
            _ = try ProxyEndpoint.parse(text)
        } catch {
            throw .invalidValue("--proxy", error.shown, error.reason)
        }
        return text
    }

    /// `--ip-families`: `both`, `4`, `6` or `off`.
    /// `--bodies all|failing|none`.
    public static func bodies(_ text: String, _ name: String) throws(UsageError) -> BodiesPolicy {
        guard let policy = BodiesPolicy(rawValue: text) else { throw .invalidValue(name, text, "it is all, failing or none") }
        return policy
    }

    public static func addressFamilies(_ text: String) throws(UsageError) -> AddressFamilies {
        switch text {
        case "both": return .compare
        case "4": return .only(.ipv4)
        case "6": return .only(.ipv6)
        case "off": return .any
        default: throw .invalidValue("--ip-families", text, "it is both, 4, 6 or off")
        }
    }

    /// curl's `HOST:PORT:ADDR[,ADDR]...`: everything after the second `:` is the address list, so
    /// IPv6 addresses may be given bare (`::1`) or in brackets (`[::1]`), as curl takes them.
    public static func resolve(_ text: String) throws(UsageError) -> String {
        let usage = "expected HOST:PORT:ADDRESS[,ADDRESS]..., e.g. example.com:443:203.0.113.7,2001:db8::7"
        let fields = FetchOptions.splitHostFields(text)
        guard fields.count >= 3, !fields[0].isEmpty, Int(fields[1]).map({ (1...65535).contains($0) }) ?? false else {
            throw .invalidValue("--resolve", text, usage)
        }
        let list = text.dropFirst(fields[0].count + fields[1].count + 2)
        let addresses = list.split(separator: ",", omittingEmptySubsequences: false)
        guard !list.isEmpty else { throw .invalidValue("--resolve", text, usage) }
        for address in addresses where !isAddress(address) {
            throw .invalidValue("--resolve", text, "\"\(address)\" is not an IPv4 or IPv6 address (\(usage))")
        }
        return text
    }

    /// An IPv4 or IPv6 address in the characters it may have (curl and the resolver judge the rest).
    private static func isAddress(_ text: Substring) -> Bool {
        var address = text
        if address.hasPrefix("["), address.hasSuffix("]") { address = address.dropFirst().dropLast() }
        guard !address.isEmpty else { return false }
        if address.contains(":") { return address.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } }
        let parts = address.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in part.count <= 3 && Int(part).map { (0...255).contains($0) } ?? false }
    }
}
