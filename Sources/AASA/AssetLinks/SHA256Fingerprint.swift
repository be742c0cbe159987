/// A signing-certificate fingerprint as Digital Asset Links writes it: the SHA-256 of the certificate,
/// 32 bytes as upper-case hex pairs separated by colons (`14:6D:E9:…:E5`, what `keytool -printcert`
/// prints). The Digital Asset Links reference calls it "the uppercase SHA-256 fingerprint", and
/// Android's App Links troubleshooting page says the fingerprint must be upper case and match the
/// signing key exactly; a SHA-1 fingerprint (20 bytes, also printed by keytool) never matches.
public enum SHA256Fingerprint {
    public static let lowercase = Rule("assetlinks.fingerprint-lowercase", .error,
        meaning: "A SHA-256 fingerprint has lower-case hex digits; Digital Asset Links fingerprints are upper case and Android's documentation says they must match exactly, so this one may match no certificate.",
        fix: "Write the fingerprint in upper case, as keytool prints it (AA:BB:CC:…).")
    public static let missingColons = Rule("assetlinks.fingerprint-no-colons", .error,
        meaning: "A SHA-256 fingerprint is 64 hex digits without the colons between bytes; Digital Asset Links fingerprints are written AA:BB:…, so this one matches no certificate.",
        fix: "Write the 32 bytes as upper-case hex pairs separated by colons, as keytool -printcert prints them.")
    public static let sha1 = Rule("assetlinks.fingerprint-sha1", .error,
        meaning: "A fingerprint has 20 bytes, the length of a SHA-1 fingerprint; sha256_cert_fingerprints holds SHA-256 fingerprints (32 bytes), so it matches no certificate.",
        fix: "Use the certificate's SHA-256 fingerprint (keytool -list -v, the line SHA256:, or Play Console › App integrity › App signing).")
    public static let malformed = Rule("assetlinks.fingerprint-format", .error,
        meaning: "A fingerprint is not 32 upper-case hex bytes separated by colons; it matches no certificate.",
        fix: "Copy the SHA-256 fingerprint exactly as keytool or Play Console prints it: 32 pairs such as AA:BB:CC:…, separated by colons.")

    public static let rules = [lowercase, missingColons, sha1, malformed]

    /// The rule `text` breaks with the reason in words, or nil when it is a well-formed fingerprint.
    public static func problem(_ text: String) -> (rule: Rule, reason: String)? {
        let scalars = Array(text.unicodeScalars)
        if isCanonical(scalars) { return nil }
        if scalars.isEmpty { return (malformed, "it is empty") }
        if scalars.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
            return (malformed, "it contains whitespace")
        }
        let hex = scalars.filter { $0 != ":" }
        let allHex = hex.allSatisfy(isHexDigit)
        let hasColons = hex.count != scalars.count
        let hasLower = hex.contains { ("a"..."f").contains($0) }
        if allHex && hex.count == 40 && (!hasColons || isPaired(scalars)) {
            return (sha1, "it has 20 bytes, the length of a SHA-1 fingerprint, not 32 (SHA-256)")
        }
        if allHex && hex.count == 64 && !hasColons {
            return (missingColons, "it is 64 hex digits without colons" + (hasLower ? ", in lower case" : ""))
        }
        if allHex && hex.count == 64 && isPaired(scalars) && hasLower {
            return (lowercase, "it has lower-case hex digits")
        }
        if !allHex {
            return (malformed, "it contains characters other than hex digits and colons")
        }
        if hex.count != 64 {
            return (malformed, "it has \(hex.count) hex digits, but a SHA-256 fingerprint has 64 (32 bytes)")
        }
        return (malformed, "its colons do not separate the hex digits into pairs")
    }

    /// `AA:BB:…` with 32 upper-case pairs.
    static func isCanonical(_ scalars: [Unicode.Scalar]) -> Bool {
        guard scalars.count == 95 else { return false }
        for (index, scalar) in scalars.enumerated() {
            if index % 3 == 2 {
                if scalar != ":" { return false }
            } else if !(("0"..."9").contains(scalar) || ("A"..."F").contains(scalar)) {
                return false
            }
        }
        return true
    }

    /// Whether the digits are in pairs separated by single colons (any case, any length).
    static func isPaired(_ scalars: [Unicode.Scalar]) -> Bool {
        guard (scalars.count + 1) % 3 == 0 else { return false }
        for (index, scalar) in scalars.enumerated() where (index % 3 == 2) != (scalar == ":") { return false }
        return true
    }

    static func isHexDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar) || ("A"..."F").contains(scalar) || ("a"..."f").contains(scalar)
    }

    /// The canonical form of a fingerprint written in any case, with or without colons (for comparing
    /// an expectation with the file); nil when it is not 32 bytes of hex.
    public static func normalized(_ text: String) -> String? {
        let hex = text.unicodeScalars.filter { $0 != ":" }
        guard hex.count == 64, hex.allSatisfy(isHexDigit) else { return nil }
        var result = ""
        for (index, scalar) in hex.enumerated() {
            if index > 0 && index % 2 == 0 { result.append(":") }
            result.unicodeScalars.append(scalar)
        }
        return result.uppercased()
    }
}
