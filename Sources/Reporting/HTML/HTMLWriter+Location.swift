import AASA
import Audit
import Foundation

// One location of a domain: its facts (status, headers, size, timings) and findings.
extension HTMLWriter {
    /// `findings`: the location's own findings (those both locations report are listed once above,
    /// `alsoShared` of them, only notes when `sharedNotesOnly`); `sameBodyAs`: an earlier location that served the same body;
    /// `sameTLSAs`: an earlier location whose certificate and TLS facts are these, shown there.
    mutating func locationBlock(_ location: LocationResult, of domain: DomainResult, findings own: [Finding],
                                alsoShared: Int, sharedNotesOnly: Bool = false, sameBodyAs: String?, sameTLSAs: String? = nil) {
        let role = domain.role(of: location)
        // A fallback Apple does not read changes nothing for devices: left off paper (report.css).
        raw(role == .fallbackNotRead ? "<div class=\"location not-read\">\n<h3><code>" : "<div class=\"location\">\n<h3><code>")
        text(location.path)
        raw("</code> ")
        // A root Apple does not read (it uses /.well-known/) neither passes nor fails anything.
        if role == .fallbackNotRead {
            raw("<span class=\"badge muted\">not read</span>")
        } else if location.verdict == .pass && domain.verdict != .pass {
            // Its file passes, the domain does not: a green "pass" here would read as if it worked.
            raw("<span class=\"badge muted\">file checks pass</span>")
        } else {
            badge(location.verdict)
        }
        raw(" <span class=\"label\">")
        raw(label(location, of: domain))
        raw("</span></h3>\n<dl class=\"facts\">\n")

        fact("URL") { $0.raw("<code>"); $0.text(location.url); $0.raw("</code>") }
        fact("Status") { w in
            if let status = location.httpStatus { w.raw("HTTP \(status)") } else { w.raw("no response") }
        }
        if let error = location.error {
            fact("Transfer error") { $0.transferFailure(error) }
        }
        let shown = location.headers.filter { Self.headersThatMatter.contains($0.name) }
        fact("Headers") { w in
            if shown.isEmpty {
                w.raw("<span class=\"muted\">none of content-type, content-encoding, content-length, location, cache-control, age</span>")
            }
            for header in shown {
                w.raw("<code>")
                w.text(header.name)
                w.raw(": ")
                w.text(header.value)
                w.raw("</code><br>")
            }
        }
        fact("Size") { w in
            if location.httpStatus == nil && location.bytes.transferred == 0 && !location.bytes.truncated {
                w.raw("nothing received")
            } else {
                w.bytes(location.bytes)
            }
        }
        if let redirect = location.redirect {
            let reader = location.path == AssetLinksFile.path ? LocationKind.assetLinks.reader : LocationKind.appleAppSiteAssociation.reader
            fact("Redirect") { $0.redirect(redirect, reader: reader) }
        }
        if let sameTLSAs {
            fact("Certificate") { w in
                w.raw("the same as at <code>")
                w.text(sameTLSAs)
                w.raw("</code>, above")
            }
        } else if let tls = location.tls {
            fact("Certificate") { $0.certificate(tls) }
        }
        fact("Timings", kind: "timings") { $0.timings(location.timings) }
        raw("</dl>\n")
        if !own.isEmpty {
            if role == .fallbackNotRead {
                raw("<p class=\"muted\">Apple does not read this fallback, because it uses <code>/.well-known/</code>; ")
                raw("what is found here changes nothing for devices and needs no fix:</p>\n")
                findings(own, read: false)
            } else {
                findings(own)
            }
        }
        if alsoShared > 0 {
            raw(sharedNotesOnly ? "<p class=\"muted screen-only\">" : "<p class=\"muted\">")
            raw("Also \(alsoShared == 1 ? "the finding" : "the \(alsoShared) findings") under “At both locations”, above.</p>\n")
        }
        if let sameBodyAs {
            raw("<p class=\"muted\">Served body: the same bytes as <code>")
            text(sameBodyAs)
            raw("</code>, shown above.</p>\n")
        } else {
            body(location)
        }
        raw("</div>\n")
    }

    /// A transfer failure in words, curl's own text (which names its internals) folded under it.
    mutating func transferFailure(_ error: TransferFailure) {
        raw(Formatting.words(error.kind))
        raw(" <details class=\"curl\"><summary>curl's words</summary><code>curl error \(error.curlCode): ")
        text(error.message)
        raw("</code></details>")
    }

    /// True when both locations served the same body, byte for byte (compared as UTF-8 bytes, not
    /// as Unicode-equivalent strings, and with the same decoded size, so a byte-order mark counts).
    static func sameBody(_ a: LocationResult, _ b: LocationResult) -> Bool {
        guard let x = a.body, let y = b.body, !x.isEmpty, a.bytes.decoded == b.bytes.decoded else { return false }
        return x.utf8.elementsEqual(y.utf8)
    }

    static let headersThatMatter: Set<String> = [
        "content-type", "content-encoding", "content-length", "location", "cache-control", "age",
    ]

    /// What role a location plays for its reader, in words: the role Apple's choice gave it
    /// (`LocationResult.role`), never worked out here.
    func label(_ location: LocationResult, of domain: DomainResult) -> String {
        domain.role(of: location).label
    }

    mutating func bytes(_ b: BodySize) {
        if b.truncated {
            raw("<span class=\"bad\">larger than \(Self.size(b.limit))</span>: reading stopped at the limit ")
            raw("(\(Self.size(b.transferred)) transferred)")
        } else if b.transferred == b.decoded {
            raw(Self.size(b.decoded))
        } else {
            raw("\(Self.size(b.transferred)) transferred, \(Self.size(b.decoded)) after decoding")
        }
    }

    /// "412 bytes", or "131072 bytes (128 KB)" once kilobytes help.
    static func size(_ n: Int) -> String {
        n < 1024 ? (n == 1 ? "1 byte" : "\(n) bytes") : "\(n) bytes (\(String(format: "%.0f", Double(n) / 1024)) KB)"
    }

    mutating func timings(_ t: TransferTimings) {
        // A reused connection had no lookup, connection or handshake of its own: no zeros for them.
        if !t.reusedConnection {
            raw("DNS \(Formatting.ms(t.dnsMs)) · connect \(Formatting.ms(t.connectMs)) · TLS \(Formatting.ms(t.tlsMs)) · ")
        }
        raw("first byte \(Formatting.ms(t.firstByteMs)) · total \(Formatting.ms(t.totalMs))")
        if t.reusedConnection { raw(" (reused connection)") }
    }
}
