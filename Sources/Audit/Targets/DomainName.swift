import AASA
import Foundation

/// A validated host name, as fetched (ASCII) and as shown (Unicode).
public struct DomainName: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The form that is fetched and compared: lower-case, Punycode (`xn--`) labels, no trailing dot.
    public let ascii: String
    /// The form people read (equals `ascii` for plain names).
    public let unicode: String

    /// True when some label is Punycode, i.e. `unicode` differs from `ascii`.
    public var isInternationalized: Bool { ascii != unicode }

    /// The Unicode form, with the ASCII form after it when they differ.
    public var description: String { isInternationalized ? "\(unicode) (\(ascii))" : ascii }

    /// Entitlement prefixes people copy out of an `.entitlements` file along with the host.
    static let entitlementServices = ["applinks", "webcredentials", "appclips", "activitycontinuation"]

    /// Parses what a person pastes. Returns the name and, when the input was rewritten in a way worth telling
    /// (host taken from a URL or an entitlement), a note.
    ///
    /// Lower-casing, surrounding whitespace and a trailing dot are normalised silently: they never change which host is meant.
    public static func parse(_ text: String) throws(DomainNameError) -> (name: DomainName, note: String?) {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw .empty }
        // Most lines are a bare ASCII host name: only letters, digits, "-" and ".", so no step before
        // the labels' (characters, entitlement prefix, scheme, path, user, port) has anything to do.
        // Checked on the bytes: those steps walk the text character by character.
        if trimmed.utf8.allSatisfy({ isHostByte($0) || $0 == UInt8(ascii: ".") }) {
            return (try validate(trimmed.lowercased()), nil)
        }
        try checkCharacters(trimmed)

        var rest = Substring(trimmed)
        var source: String?
        if let (service, remainder) = entitlementPrefix(of: rest) {
            rest = remainder
            source = "the entitlement \(service):\(remainder)"
        } else if let schemeEnd = rest.range(of: "://") {
            let scheme = rest[..<schemeEnd.lowerBound].lowercased()
            guard scheme == "https" || scheme == "http" else { throw .unsupportedScheme(String(scheme)) }
            rest = rest[schemeEnd.upperBound...]
            source = "the URL"
        } else if rest.hasPrefix("//") {
            // A scheme-relative URL, as copied out of HTML.
            rest = rest.dropFirst(2)
            source = "the URL"
        }
        // The authority ends at the path, query or fragment, with or without a scheme.
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            rest = rest[..<end]
            if source == nil { source = "the URL" }
        }
        let host = rest
        if let at = host.lastIndex(of: "@") {
            // Only the user name goes into the reason: a password must not end up in a report.
            throw .userInfo(String(host[..<at].prefix { $0 != ":" }))
        }
        if host.hasPrefix("[") || host.filter({ $0 == ":" }).count > 1 {
            throw .ipAddress(String(host))
        }
        if let colon = host.firstIndex(of: ":") {
            throw .port(String(host[host.index(after: colon)...]))
        }
        guard !host.isEmpty else { throw .empty }

        let name = try validate(normalized(host))
        let note = source.map { "used the host \(name.unicode) from \($0)" }
        return (name, note)
    }

    /// Builds a name from already-validated parts; only `validate` calls it.
    private init(ascii: String, unicode: String) {
        self.ascii = ascii
        // One storage for both forms of an ASCII name (most of a list): held per domain for the run.
        self.unicode = unicode == ascii ? ascii : unicode
    }

    /// Encoded as the ASCII string; decoding re-validates, so a report cannot smuggle in an invalid name.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try DomainName.parse(text).name
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text): \(error.description)")
        }
    }

    /// Encodes the ASCII form, the one that is fetched.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(ascii)
    }

    /// Equality is by the ASCII form: the Unicode form is derived from it.
    public static func == (lhs: DomainName, rhs: DomainName) -> Bool { lhs.ascii == rhs.ascii }

    /// Hashes the ASCII form, matching `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(ascii) }

    // MARK: - Steps

    /// Rejects control characters (binary junk), invisible formatting characters (zero-width spaces
    /// pasted from web pages) and inner whitespace (several domains on one line).
    private static func checkCharacters(_ text: String) throws(DomainNameError) {
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                throw .whitespace(scalar.value)
            }
            switch scalar.properties.generalCategory {
            case .control:
                throw .notText(scalar.value)
            case .format where scalar.value != 0x200C && scalar.value != 0x200D:
                // ZWNJ and ZWJ are legitimately part of some scripts' labels.
                throw .invisibleCharacter(scalar.value)
            default:
                continue
            }
        }
    }

    /// An ASCII letter, digit or "-": the host-name rule (RFC 952/1123), on a byte.
    fileprivate static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// Strips `applinks:` and friends, and the `?mode=developer` suffix along with any query.
    private static func entitlementPrefix(of text: Substring) -> (service: String, rest: Substring)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let service = text[..<colon].lowercased()
        guard entitlementServices.contains(service) else { return nil }
        let rest = text[text.index(after: colon)...]
        // `applinks://x` is a URL scheme someone invented, not an entitlement; leave it to the URL rules.
        guard !rest.hasPrefix("//") else { return nil }
        return (service, rest)
    }

    /// Lower-cases an ASCII host (the ASCII labels of a non-ASCII one are lower-cased one by one); in a
    /// non-ASCII one, maps the full stops UTS #46 maps to "."
    /// (ideographic, full-width, half-width) so labels can be named in errors. Everything else about
    /// internationalised labels (case, width, compatibility forms, NFC) is libidn2's, label by label.
    private static func normalized(_ host: Substring) -> String {
        if host.utf8.allSatisfy({ $0 < 0x80 }) {
            return host.lowercased()
        }
        return String(host.map { $0 == "\u{3002}" || $0 == "\u{FF0E}" || $0 == "\u{FF61}" ? "." : $0 })
    }

    /// Checks labels and lengths, and builds both forms.
    private static func validate(_ host: String) throws(DomainNameError) -> DomainName {
        var host = Substring(host)
        // One trailing dot is the DNS root; dropped after normalisation so a full-width dot counts too.
        if host.hasSuffix(".") { host = host.dropLast() }
        guard !host.isEmpty else { throw .empty }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.contains(where: \.isEmpty) { throw .emptyLabel(String(host)) }
        if ASCIISearch.contains("*", in: host) { throw .wildcard(String(host)) }
        if labels.allSatisfy(\.isASCIIDigits) { throw .ipAddress(String(host)) }

        var asciiLabels: [String] = []
        var unicodeLabels: [String] = []
        asciiLabels.reserveCapacity(labels.count)
        unicodeLabels.reserveCapacity(labels.count)
        for label in labels {
            let (ascii, unicode) = label.utf8.allSatisfy({ $0 < 0x80 })
                ? try asciiLabel(label.lowercased()) : try internationalLabel(String(label))
            guard ascii.utf8.count <= 63 else {
                throw .labelTooLong(label: unicode, length: ascii.utf8.count)
            }
            asciiLabels.append(ascii)
            unicodeLabels.append(unicode)
        }
        let ascii = asciiLabels.joined(separator: ".")
        guard ascii.utf8.count <= 253 else { throw .nameTooLong(length: ascii.utf8.count) }
        guard labels.count > 1 else { throw .notFullyQualified(String(host)) }
        if let last = labels.last, last.isASCIIDigits { throw .numericTopLevel(String(last)) }
        return DomainName(ascii: ascii, unicode: unicodeLabels.joined(separator: "."))
    }

    /// An ASCII label (already lower-case): letters, digits and "-" (STD3), and an `xn--` label must be
    /// an A-label libidn2 accepts, whose Unicode form is what reports show.
    private static func asciiLabel(_ label: String) throws(DomainNameError) -> (ascii: String, unicode: String) {
        if !label.utf8.allSatisfy(isHostByte), let bad = label.unicodeScalars.first(where: { !Character($0).isHostCharacter }) {
            throw .invalidCharacter(Character(bad), label: label)
        }
        if label.hasPrefix("-") || label.hasSuffix("-") {
            throw .hyphenAtLabelEdge(label: label)
        }
        guard label.hasPrefix("xn--") else { return (label, label) }
        switch IDNA.ascii(label) {
        case .success(let checked) where checked == label:
            break
        case .success:
            throw .invalidPunycode(label: label)
        case .failure(let refusal):
            guard !refusal.isBadPunycode, refusal.isDisallowedCharacter,
                  let decoded = IDNA.unicode(label), let culprit = disallowedScalar(in: decoded) else {
                throw .invalidPunycode(label: label)
            }
            throw .disallowedCharacter(culprit.value, label: label)
        }
        // A decoded A-label must contain something non-ASCII, or it was never a real one; the decoded
        // form is what reports and the terminal show, so it must pass the rules typed text does
        // (`xn--amp` decodes to three C1 control characters; found by fuzzing).
        guard let decoded = IDNA.unicode(label), !decoded.unicodeScalars.allSatisfy(\.isASCII) else {
            throw .invalidPunycode(label: label)
        }
        do {
            try checkCharacters(decoded)
        } catch {
            throw .invalidPunycode(label: label)
        }
        if decoded.contains(where: { $0 == "." || ($0.isASCII && !$0.isHostCharacter) }) {
            throw .invalidPunycode(label: label)
        }
        return (label, decoded)
    }

    /// A label with non-ASCII characters, as typed: libidn2 maps and checks it (IDNA2008, UTS #46
    /// non-transitional) and encodes it; each refusal becomes a reason that names the culprit.
    private static func internationalLabel(_ label: String) throws(DomainNameError) -> (ascii: String, unicode: String) {
        if label.lowercased().hasPrefix("xn--") { throw .invalidPunycode(label: label) }
        let ascii: String
        switch IDNA.ascii(label) {
        case .success(let encoded):
            ascii = encoded
        case .failure(let refusal):
            if refusal.isTooLong { throw .internationalLabelTooLong(label: label) }
            if refusal.isHyphenAtEdge { throw .hyphenAtLabelEdge(label: label) }
            if let culprit = disallowedScalar(in: label) {
                if culprit.isASCII { throw .invalidCharacter(Character(culprit), label: label) }
                throw .disallowedCharacter(culprit.value, label: label)
            }
            throw .invalidInternationalLabel(label: label, reason: refusal.text)
        }
        // Without STD3 rules libidn2 lets "_" and other ASCII through (and maps some characters to
        // them, U+02DA to a space); a host name allows letters, digits and "-" only.
        if ascii.contains(".") || ascii.unicodeScalars.contains(where: { !Character($0).isHostCharacter }) {
            let culprit = disallowedScalar(in: label) ?? label.unicodeScalars.first { $0.isASCII && !Character($0).isHostCharacter }
            guard let culprit else { throw .invalidInternationalLabel(label: label, reason: "it maps to \"\(ascii)\"") }
            if culprit.isASCII { throw .invalidCharacter(Character(culprit), label: label) }
            throw .disallowedCharacter(culprit.value, label: label)
        }
        guard let unicode = IDNA.unicode(ascii) else { throw .invalidInternationalLabel(label: label, reason: "its ASCII form \(ascii) does not decode") }
        return (ascii, unicode)
    }

    /// The first character of `label` that is not allowed on its own (after a letter, so a combining
    /// mark is not blamed for coming first) or maps to something other than letters, digits and "-".
    /// Looks at the first 256 characters only: it names a culprit, it does not decide validity.
    private static func disallowedScalar(in label: String) -> Unicode.Scalar? {
        label.unicodeScalars.prefix(256).first { scalar in
            if scalar.isASCII { return !Character(scalar).isHostCharacter }
            switch IDNA.ascii("a" + String(scalar)) {
            case .success(let ascii):
                return ascii.unicodeScalars.contains { !Character($0).isHostCharacter }
            case .failure(let refusal):
                return refusal.isDisallowedCharacter
            }
        }
    }
}

/// Why a text is not a host name that can be audited. `description` is the reason shown to people.
public enum DomainNameError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing left once whitespace, scheme, path and trailing dot are gone.
    case empty
    /// A control character (the scalar value): binary data, not a line of text.
    case notText(UInt32)
    /// Whitespace inside the name (the scalar value), usually several domains on one line.
    case whitespace(UInt32)
    /// An invisible formatting character such as a zero-width space (the scalar value).
    case invisibleCharacter(UInt32)
    /// A URL whose scheme is not http or https.
    case unsupportedScheme(String)
    /// A `user@` (or `user:password@`) part before the host.
    case userInfo(String)
    /// An IPv4 or IPv6 literal.
    case ipAddress(String)
    /// A `:port` after the host (the port text).
    case port(String)
    /// Two dots in a row or a leading dot (the host).
    case emptyLabel(String)
    /// Longer than 253 characters in ASCII form.
    case nameTooLong(length: Int)
    /// A label longer than 63 characters in ASCII form.
    case labelTooLong(label: String, length: Int)
    /// A label that starts or ends with "-".
    case hyphenAtLabelEdge(label: String)
    /// A character other than a letter, digit or "-" in a label.
    case invalidCharacter(Character, label: String)
    /// A `*` wildcard (the host).
    case wildcard(String)
    /// A single label such as `localhost`.
    case notFullyQualified(String)
    /// An all-digit last label that is not part of an IP address.
    case numericTopLevel(String)
    /// An `xn--` label that is not valid Punycode (or whose decoded form is not a valid label).
    case invalidPunycode(label: String)
    /// A character (the scalar value) IDNA2008 does not allow in a domain name, in the label as given
    /// (for an `xn--` label: in its decoded form).
    case disallowedCharacter(UInt32, label: String)
    /// A label with non-ASCII characters whose ASCII (`xn--`) form would be longer than 63 characters.
    case internationalLabelTooLong(label: String)
    /// A label libidn2 refuses for a reason other than the above (bidirectional or joiner rules); the reason is libidn2's.
    case invalidInternationalLabel(label: String, reason: String)

    /// A clear human reason, naming the culprit.
    public var description: String {
        switch self {
        case .empty:
            return "empty: no host name"
        case .notText(let value):
            return value < 0x80 ? "not text: contains byte \(hexByte(value))" : "not text: contains control character \(codePoint(value))"
        case .whitespace(0x20):
            return "contains a space: one domain per line"
        case .whitespace(0x09):
            return "contains a tab: one domain per line"
        case .whitespace(let value):
            return "contains whitespace (\(codePoint(value))): one domain per line"
        case .invisibleCharacter(let value):
            return "contains an invisible character (\(codePoint(value))), often pasted from a web page or document"
        case .unsupportedScheme(let scheme):
            return "a \(shown(scheme)): URL; give the host name (associated-domain files are fetched over https)"
        case .userInfo(let user):
            return "has user info \"\(shown(user))@\" before the host; give the host name alone"
        case .ipAddress(let host):
            return "\(shown(host)) is an IP address, not a domain name: Apple matches associated domains by host name"
        case .port(let port):
            return "has a port (:\(shown(port))); Apple's associated domains carry no port"
        case .emptyLabel(let host):
            return "\(shown(host)) has an empty label: two dots in a row, or a leading dot"
        case .nameTooLong(let length):
            return "is \(length) characters long in ASCII form; a domain name has at most 253"
        case .labelTooLong(let label, let length):
            return "the label \"\(shown(label))\" is \(length) characters long in ASCII form; a label has at most 63"
        case .hyphenAtLabelEdge(let label):
            let edge = label.hasPrefix("-") ? "starts" : "ends"
            return "the label \"\(shown(label))\" \(edge) with \"-\"; labels must start and end with a letter or digit"
        case .invalidCharacter(let character, let label):
            let what = character == "_" ? "an underscore \"_\"" : "the character \"\(character)\""
            return "the label \"\(shown(label))\" contains \(what); host names allow only letters, digits and \"-\""
        case .wildcard(let host):
            let apex = host.hasPrefix("*.") && !host.dropFirst(2).contains("*") ? String(host.dropFirst(2)) : "example.com"
            let pattern = apex == "example.com" ? "*.example.com" : host
            return "\(shown(host)) is a wildcard; audit the concrete host, e.g. the apex \(shown(apex)) for \(shown(pattern))"
        case .notFullyQualified(let host):
            return "\"\(shown(host))\" is not a fully qualified domain name (only one label); Apple fetches from public host names"
        case .numericTopLevel(let label):
            return "the top-level label \"\(shown(label))\" is all digits; no top-level domain is numeric"
        case .invalidPunycode(let label):
            return "the label \"\(shown(label))\" starts with xn-- but is not valid Punycode"
        case .disallowedCharacter(let value, let label):
            // The character itself only when it is visible: a control or bidi character must not reach a terminal.
            let character = Unicode.Scalar(value).flatMap { $0.isVisible ? " \"\(Character($0))\"" : nil } ?? ""
            let contains = label.hasPrefix("xn--") ? "decodes to text that contains" : "contains"
            return "the label \"\(shown(label))\" \(contains) \(codePoint(value))\(character), which IDNA2008 does not allow in a domain name"
        case .internationalLabelTooLong(let label):
            return "the label \"\(shown(label))\" is longer than 63 characters in ASCII (xn--) form; a label has at most 63"
        case .invalidInternationalLabel(let label, let reason):
            return "the label \"\(shown(label))\" is not a valid internationalised label: \(reason)"
        }
    }
}

/// Keeps reasons readable when the culprit is a megabyte of junk.
private func shown(_ text: String) -> String {
    text.count > 80 ? text.prefix(77) + "…" : text
}

private func hexByte(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + (digits.count < 2 ? "0" + digits : digits)
}

private func codePoint(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

extension StringProtocol {
    /// Whitespace trimmed at both ends, without Foundation's CharacterSet bridging.
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }

    /// True for a non-empty run of ASCII digits.
    var isASCIIDigits: Bool {
        !isEmpty && utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}

extension Unicode.Scalar {
    /// A letter, mark, number, punctuation or symbol: safe to quote in a reason (no control, format,
    /// separator, private-use or unassigned character).
    var isVisible: Bool {
        switch properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .spaceSeparator, .lineSeparator, .paragraphSeparator:
            return false
        default:
            return true
        }
    }
}

extension Character {
    /// Letters, digits and "-": the host-name rule (RFC 952/1123) for ASCII.
    var isHostCharacter: Bool {
        asciiValue.map(DomainName.isHostByte) ?? false
    }
}
