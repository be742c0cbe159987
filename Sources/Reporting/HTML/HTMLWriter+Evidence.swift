import AASA
import Audit
import Foundation

// The evidence of a location: the redirect chain, the certificate and the served body.
extension HTMLWriter {
    mutating func redirect(_ r: RedirectChain, reader: String = "Apple") {
        raw("Redirects to <code>")
        text(r.location)
        raw("</code>; \(reader) does not follow redirects. Followed here for diagnosis:\n<ol class=\"hops\">\n")
        for hop in r.hops {
            raw("<li><code>")
            text(hop.url)
            raw("</code>: ")
            if let status = hop.status { raw("HTTP \(status)") } else { raw("no response") }
            if let location = hop.location {
                raw(", location <code>")
                text(location)
                raw("</code>")
            }
            if let type = hop.contentType {
                raw(", content-type <code>")
                text(type)
                raw("</code>")
            }
            if let error = hop.error {
                raw(", error: ")
                text(error)
            }
            raw("</li>\n")
        }
        raw("</ol>\nChain ended: ")
        text(r.end)
        raw(".")
        if r.endServesJSONObject {
            raw(" The end of the chain serves a JSON object: the file exists, but only behind the redirect.")
        }
    }

    mutating func certificate(_ tls: TLSConnection) {
        if tls.certificateFromProbe {
            raw("<p class=\"note\">The verifying connection failed; these facts come from a second, ")
            raw("non-verifying connection made only to read the certificate.</p>\n")
        }
        raw("<dl class=\"facts inner\">\n")
        if let cert = tls.certificate {
            fact("Subject") { $0.raw("<code>"); $0.text(cert.subject); $0.raw("</code>") }
            fact("Issuer") { $0.raw("<code>"); $0.text(cert.issuer); $0.raw("</code>") }
            fact("Names (SAN)") { w in
                if cert.subjectAltNames.isEmpty { w.raw("<span class=\"muted\">none</span>") }
                for (i, name) in cert.subjectAltNames.prefix(HTMLReporter.maxSubjectAltNames).enumerated() {
                    if i > 0 { w.raw(", ") }
                    w.raw("<code>")
                    w.text(name)
                    w.raw("</code>")
                }
                let more = cert.subjectAltNames.count - HTMLReporter.maxSubjectAltNames
                if more > 0 { w.raw(" and \(more) more") }
            }
            if let notBefore = cert.notBefore {
                fact("Valid from", kind: "policy") { $0.raw(Formatting.utc(notBefore)) }
            }
            if let notAfter = cert.notAfter {
                fact("Valid until") { w in
                    w.raw(Formatting.utc(notAfter))
                    if let days = cert.daysLeft {
                        w.raw(days < 0 ? " <span class=\"bad\">(" : " (")
                        w.raw(Formatting.daysLeftText(days))
                        w.raw(days < 0 ? ")</span>" : ")")
                    }
                }
            }
            // The facts Apple's certificate rules judge, shown when the report recorded them (on screen:
            // on paper their findings say what matters, class "policy" in report.css).
            if let algorithm = cert.keyAlgorithm {
                fact("Key", kind: "policy") { $0.text(algorithm + (cert.keyBits.map { ", \($0) bits" } ?? "")) }
            }
            if let signature = cert.signatureAlgorithm { fact("Signature", kind: "policy") { $0.text(signature) } }
            if cert.keyAlgorithm != nil {
                fact("Extended Key Usage", kind: "policy") { w in
                    if let usages = cert.extendedKeyUsages { w.text(usages.joined(separator: ", ")) } else { w.raw("<span class=\"muted\">none</span>") }
                }
            }
            if let days = cert.validityDays { fact("Validity", kind: "policy") { $0.raw("\(days) days") } }
            if let scts = cert.embeddedSCTs { fact("Embedded SCTs", kind: "policy") { $0.raw("\(scts)") } }
        } else {
            fact("Certificate") { $0.raw("<span class=\"muted\">could not be read</span>") }
        }
        if let version = tls.version {
            fact("TLS version", kind: "policy") { $0.text(version + (tls.cipher.map { ", \($0)" } ?? "")) }
        }
        if let anchor = tls.trustAnchor {
            fact("Trusted by") { $0.raw(anchor == .systemStore ? "the system's CA store (publicly trusted)" : "a CA of --cacert (private)") }
        }
        if let error = tls.verificationError {
            fact("Verification error") { $0.raw("<span class=\"bad\">"); $0.text(error); $0.raw("</span>") }
        }
        raw("</dl>")
    }

    /// The served body, cut after `maxBodyLines` lines; walks the text once.
    mutating func body(_ location: LocationResult) {
        guard let body = location.body, !body.isEmpty else {
            raw("<p class=\"muted\">")
            // The true reason (`LocationResult.bodyOmission`): a large ASCII file is not "not UTF-8".
            switch location.bodyOmission ?? .empty {
            case .noResponse:
                raw("No response body.")
            case .empty:
                raw("The response had no body.")
            case .cutAtLimit(let limit):
                raw("Body not shown: it is larger than the limit of \(Self.size(limit)) (<code>--max-bytes</code>); reading stopped there.")
            case .tooLargeToShow(let bytes):
                raw("Body not shown: it is too large to show (\(Self.size(bytes)), over Apple's limit of \(Self.size(LocationResult.maxShownBodyBytes))).")
            case .signed(let readable):
                raw(readable ? "Body not shown: it is a CMS-signed file (binary); the JSON inside was unwrapped and checked."
                             : "Body not shown: it looks like a CMS-signed file (binary) whose content could not be read.")
            case .notUTF8:
                raw("Body not shown: it is not UTF-8 text.")
            case .notStored(let policy, let bytes, let sha256):
                if let policy {
                    raw("Body not stored (<code>--bodies \(policy.rawValue)</code>): \(Self.size(bytes)), SHA-256 <code>")
                } else {
                    raw("Body not read with this domain (it is in the report's <code>bodies</code>): \(Self.size(bytes)), SHA-256 <code>")
                }
                text(sha256)
                raw("</code>.")
            }
            raw("</p>\n")
            return
        }
        // A JSON document is shown pretty-printed (keys in served order), so a one-line file can be read.
        let pretty = (try? JSONParser.parse(Data(body.utf8)))?.root.formatted()
        let shown = pretty ?? body
        var lines = shown.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        var limit = form == .compact ? HTMLReporter.maxBodyLinesCompact : HTMLReporter.maxBodyLines
        // On a compact page also at most `maxBodyBytesCompact` bytes: a file that is not JSON can be one long line.
        var cutLine: Substring?
        if form == .compact {
            var room = HTMLReporter.maxBodyBytesCompact
            for (i, line) in lines.prefix(limit).enumerated() {
                if line.utf8.count < room {
                    room -= line.utf8.count + 1
                    continue
                }
                var end = line.startIndex
                while end < line.endIndex, line[end].utf8.count <= room {
                    room -= line[end].utf8.count
                    end = line.index(after: end)
                }
                limit = i + 1
                // The last line, whole, is no cut.
                if end < line.endIndex || i < lines.count - 1 { cutLine = line[..<end] }
                break
            }
        }
        raw("<p class=\"muted\">Served body")
        if pretty != nil && pretty != body && pretty.map({ $0 + "\n" }) != body { raw(", pretty-printed") }
        if cutLine != nil {
            raw(" (showing its first \(Self.size(HTMLReporter.maxBodyBytesCompact)); the rest is cut)")
        } else if lines.count > limit {
            raw(" (showing the first \(limit) of \(lines.count) lines; the rest is cut)")
        }
        raw(":</p>\n<pre class=\"body\">")
        // On paper only the first lines: the rest is in a span the print stylesheet hides, and said so.
        let printed = HTMLReporter.maxPrintedBodyLines
        for (i, line) in lines.prefix(limit).enumerated() {
            if i == printed { raw("<span class=\"screen-only\">") }
            if i > 0 { raw("\n") }
            content(i == limit - 1 ? cutLine ?? line : line)
        }
        if lines.count > printed && limit > printed { raw("</span>") }
        raw("</pre>\n")
        if lines.count > printed && limit > printed {
            raw("<p class=\"muted print-only\">Printed: the first \(printed) lines of the body; the HTML file shows more.</p>\n")
        }
        if cutLine != nil {
            raw("<p class=\"muted\">… the rest of the body is not shown.</p>\n")
        } else if lines.count > limit {
            raw("<p class=\"muted\">… \(lines.count - limit) more lines not shown.</p>\n")
        }
    }
}
