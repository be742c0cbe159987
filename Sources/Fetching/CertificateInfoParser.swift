import Foundation

/// Turns libcurl's CURLINFO_CERTINFO "Name:value" lines (OpenSSL backend) into `CertificateFacts`.
public enum CertificateInfoParser {
    /// Parses the lines of one certificate; nil when there is no subject (nothing usable).
    public static func parse(lines: [String]) -> CertificateFacts? {
        let fields = self.fields(lines)
        guard let subject = fields["Subject"] else { return nil }
        var sans = (fields["X509v3 Subject Alternative Name"] ?? "")
            .split(separator: ",")
            .map { trimming(String($0), newlines: false) }
            .compactMap { entry -> String? in
                if entry.hasPrefix("DNS:") { return String(entry.dropFirst(4)) }
                if entry.hasPrefix("IP Address:") { return "IP:" + entry.dropFirst(11) }
                return entry.isEmpty ? nil : entry
            }
        // OpenSSL prints every name with its type; anything else is its raw dump of an extension it
        // would not print (a NUL inside a name): read the names from the certificate itself.
        if sans.contains(where: { entry in !knownTypes.contains { entry.hasPrefix($0) } && !isPlainName(entry) }),
           let pem = fields["Cert"], let decoded = SubjectAltNameDecoder.names(pem: pem) {
            sans = decoded
        }
        let key = publicKey(fields)
        return CertificateFacts(
            subject: subject,
            issuer: fields["Issuer"] ?? "",
            subjectAltNames: sans,
            notBefore: fields["Start date"].flatMap(parseDate),
            notAfter: fields["Expire date"].flatMap(parseDate),
            keyAlgorithm: key.algorithm,
            keyBits: key.bits,
            signatureAlgorithm: fields["Signature Algorithm"].map(trimmed),
            extendedKeyUsages: fields["X509v3 Extended Key Usage"].map {
                $0.split(separator: ",").map { trimmed(String($0)) }.filter { !$0.isEmpty }
            },
            hasSubjectAltName: fields["X509v3 Subject Alternative Name"] != nil,
            embeddedSCTs: fields["CT Precertificate SCTs"].map(countSCTs) ?? 0
        )
    }

    /// Parses the lines of a certificate the server sent after its leaf; nil without a subject.
    public static func parseChainEntry(lines: [String]) -> ChainCertificateFacts? {
        let fields = self.fields(lines)
        guard let subject = fields["Subject"] else { return nil }
        let key = publicKey(fields)
        return ChainCertificateFacts(subject: subject, issuer: fields["Issuer"] ?? "", keyAlgorithm: key.algorithm,
                                     keyBits: key.bits, signatureAlgorithm: fields["Signature Algorithm"].map(trimmed))
    }

    /// "Name:value" lines by name; the first of a repeated name is kept. The colon is found on the
    /// bytes: a certificate's lines are parsed on the loop's thread, and its "Cert" line is the
    /// whole PEM.
    ///
    /// Only the names read here are kept (`readNames`): the rest, the signature's hex dump and the
    /// serial number among them, are never copied.
    private static func fields(_ lines: [String]) -> [String: String] {
        var fields = [String: String](minimumCapacity: readNames.count)
        for line in lines {
            let bytes = line.utf8
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let name = String(Substring(bytes[..<colon]))
            guard readNames.contains(name), fields[name] == nil else { continue }
            fields[name] = String(Substring(bytes[bytes.index(after: colon)...]))
        }
        return fields
    }

    /// The fields `parse` and `parseChainEntry` read.
    private static let readNames = ["Subject", "Issuer", "X509v3 Subject Alternative Name", "Cert", "Start date", "Expire date",
                                    "Public Key Algorithm", "RSA Public Key", "Signature Algorithm", "X509v3 Extended Key Usage",
                                    "CT Precertificate SCTs"]

    /// The key's algorithm and size: an RSA key's bits are in OpenSSL's text ("RSA Public Key:2048"),
    /// an EC key's come from its named curve in the DER ("Cert").
    private static func publicKey(_ fields: [String: String]) -> (algorithm: String?, bits: Int?) {
        let algorithm = fields["Public Key Algorithm"].map(trimmed)
        if let rsa = fields["RSA Public Key"], let bits = Int(trimmed(rsa)) { return (algorithm, bits) }
        let bits = fields["Cert"].flatMap(SubjectAltNameDecoder.der(pem:)).flatMap(PublicKeySize.ellipticCurveBits(der:))
        return (algorithm, bits)
    }

    /// The SCTs in OpenSSL's print of the SCT list extension: one "Signed Certificate Timestamp:"
    /// block each (a list OpenSSL cannot parse is printed as bytes, and counts none).
    static func countSCTs(_ text: String) -> Int {
        text.components(separatedBy: "Signed Certificate Timestamp:").count - 1
    }

    private static func trimmed(_ text: String) -> String {
        trimming(text, newlines: true)
    }

    /// `trimmingCharacters(in: .whitespaces)` (or `.whitespacesAndNewlines`), with the ASCII ones
    /// taken off on the bytes: OpenSSL's text is ASCII, and Foundation's trimming goes through
    /// NSString. Only an end that is not ASCII after that is left to Foundation.
    static func trimming(_ text: String, newlines: Bool) -> String {
        func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || (newlines && byte >= 0x0A && byte <= 0x0D)
        }
        let bytes = text.utf8
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        let kept = Substring(bytes[first...last])
        if bytes[first] >= 0x80 || bytes[last] >= 0x80 {
            return kept.trimmingCharacters(in: newlines ? .whitespacesAndNewlines : .whitespaces)
        }
        return String(kept)
    }

    /// True when `name` has only letters, digits and ".-*_": a DNS name as OpenSSL prints it. On the
    /// bytes where they are ASCII (the letters' and digits' Unicode properties cost a lookup each).
    static func isPlainName(_ name: String) -> Bool {
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_"):
                continue
            case 0x80...:
                return !name.contains(where: { !$0.isLetter && !$0.isNumber && !".-*_".contains($0) })
            default:
                return false
            }
        }
        return true
    }

    /// The prefixes OpenSSL's GENERAL_NAME_print gives each name (DNS: is dropped by the parser).
    private static let knownTypes = ["IP:", "email:", "URI:", "DirName:", "othername:", "Registered ID:", "EdiPartyName:", "X400Name:"]

    /// Parses OpenSSL's ASN1_TIME_print form, "Jan  1 00:00:00 2030 GMT" (also ISO 8601 forms some builds print).
    public static func parseDate(_ text: String) -> Date? {
        if let date = text.utf8.withContiguousStorageIfAvailable(printedDate) ?? nil { return date }
        let trimmed = trimming(text, newlines: false)
        let parts = trimmed.split(separator: " ", omittingEmptySubsequences: true)
        if parts.count >= 4, let monthIndex = months.firstIndex(where: { $0 == parts[0] }),
           let day = Int(parts[1]), let year = Int(parts[3]) {
            let clock = parts[2].split(separator: ":").compactMap { Int($0) }
            guard clock.count == 3 else { return nil }
            return utcDate(year: year, month: monthIndex + 1, day: day, hour: clock[0], minute: clock[1], second: clock[2])
        }
        let iso = ISO8601DateFormatter()
        return iso.date(from: trimmed.replacingOccurrences(of: " ", with: "T"))
    }

    /// OpenSSL's usual form read on the bytes ("Jan  1 00:00:00 2030 GMT": day and year as digits, the
    /// time as two digits each; what follows the year is not read); nil for anything else, which
    /// `parseDate` then reads as before. Two dates per handshake, parsed on the loop's thread.
    private static func printedDate(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var index = 0
        // Between the fields only spaces, as `split(separator: " ")` reads them; tabs too at the start.
        func skipSpaces(tabs: Bool = false) -> Bool {
            let start = index
            while index < bytes.count, bytes[index] == 0x20 || (tabs && bytes[index] == 0x09) { index += 1 }
            return index > start
        }
        func digits(_ most: Int) -> Int? {
            var value = 0
            let start = index
            while index < bytes.count, index - start < most, bytes[index] &- 0x30 < 10 {
                value = value * 10 + Int(bytes[index] &- 0x30)
                index += 1
            }
            return index > start && (index == bytes.count || bytes[index] &- 0x30 >= 10) ? value : nil
        }
        func twoDigits(then separator: UInt8?) -> Int? {
            guard index + 2 <= bytes.count, bytes[index] &- 0x30 < 10, bytes[index + 1] &- 0x30 < 10 else { return nil }
            let value = Int(bytes[index] &- 0x30) * 10 + Int(bytes[index + 1] &- 0x30)
            index += 2
            guard let separator else { return value }
            guard index < bytes.count, bytes[index] == separator else { return nil }
            index += 1
            return value
        }
        _ = skipSpaces(tabs: true)
        guard index + 3 <= bytes.count,
              let month = monthBytes.firstIndex(where: { $0[0] == bytes[index] && $0[1] == bytes[index + 1] && $0[2] == bytes[index + 2] })
        else { return nil }
        index += 3
        guard skipSpaces(), let day = digits(2), skipSpaces(),
              let hour = twoDigits(then: UInt8(ascii: ":")), let minute = twoDigits(then: UInt8(ascii: ":")), let second = twoDigits(then: nil),
              skipSpaces(), let year = digits(4), index == bytes.count || bytes[index] == 0x20
        else { return nil }
        return utcDate(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second)
    }

    private static let monthBytes: [[UInt8]] = months.map { Array($0.utf8) }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The UTC date of a civil date and time (proleptic Gregorian), computed, not through `Calendar`:
    /// made twice per certificate, and a Calendar cost more than the rest of the parse.
    static func utcDate(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Date? {
        // A year OpenSSL prints has four digits; a larger one (read from text) would overflow below.
        guard (0...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else {
            return nil
        }
        // Days from 1970-01-01 (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second))
    }
}
