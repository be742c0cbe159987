import Foundation

/// What the hostile servers send: malformed bodies, and markup plus terminal escapes in every field
/// that reaches a report (app IDs, paths, comments, header values, certificate subjects, redirect
/// targets). Tests look for the marker texts in reports and for their absence as live markup.
public enum HostileContent {
    /// Sets the page title when run: a report that executes it is caught by the title.
    public static let script = "<script>document.title='pwned'</script>"
    /// Adds a `<pwned>` element when its error handler runs.
    public static let image = "<img src=x onerror=\"document.body.appendChild(document.createElement('pwned'))\">"
    /// Terminal escapes: an OSC 8 hyperlink, an OSC 52 clipboard write, a CSI screen clear and colour,
    /// a bell and a carriage return (which lets a later text overwrite the line).
    public static let escapes = "\u{1B}]8;;https://evil.example/\u{07}click\u{1B}]8;;\u{07}\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}[2J\u{1B}[31mred\u{07}\r"

    /// Subject attributes for the absurd certificate, in `openssl -subj` syntax ("/" escaped) and
    /// within X.509's lengths (64 for O).
    static let subjectScript = "<script>document.title='pwned'<\\/script>"
    static let subjectImage = "<img src=x onerror=\"document.title='pwned'\">"
    static let subjectEscapes = "\u{1B}]8;;https:\\/\\/evil.example\\/\u{07}click\u{1B}[31mred\u{07}\r"

    /// A JSON string literal for `text`, control characters as \u escapes (so the parsed value holds them).
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A valid document of about `bytes` bytes (at most), one `details` entry holding as many
    /// components (`{"/":"/pN/*"}`) as fit: slow to check (every component goes through the schema
    /// and pattern checks and the matcher's lint): 1 MB of it takes seconds, even optimised.
    public static func ruleHeavyDocument(bytes: Int = 1_000_000) -> String {
        let head = "{\"applinks\":{\"details\":[{\"appIDs\":[\"ABQ7KM3X2P.com.exemplo.app\"],\"components\":[{\"/\":\"/a\"}"
        let tail = "]}]}}"
        var parts = [head], length = head.utf8.count + tail.utf8.count, index = 0
        while true {
            let piece = ",{\"/\":\"/p\(index)/*\"}"
            if length + piece.utf8.count > bytes { break }
            parts.append(piece)
            length += piece.utf8.count
            index += 1
        }
        return parts.joined() + tail
    }


    /// A bare URL, a `www.` name and an e-mail address: text that cmark-gfm's autolink extension links.
    public static let bareLinks = " see https://evil.example/phish www.evil.example admin@evil.example"

    /// An AASA file with markup, escapes and bare addresses (`bareLinks`) in app IDs, a path, an
    /// exclusion pattern and a comment.
    public static let injectedDocument: String = """
        {"applinks": {"details": [{
          "appIDs": [\(jsonString(script + bareLinks)), \(jsonString(escapes + "ABQ7KM3X2P.com.example"))],
          "components": [
            {"/": \(jsonString("/" + image + "/*")), "comment": \(jsonString(script + escapes))},
            {"#": \(jsonString(escapes)), "exclude": true, "comment": \(jsonString(image))}
          ]
        }]},
        "webcredentials": {"apps": [\(jsonString(image))]}}

        """

    /// Valid JSON text with bytes that are not UTF-8 inside a string.
    public static let invalidUTF8 = Data("{\"applinks\": {\"details\": [{\"appIDs\": [\"ABQ7KM3X2P.com.ex".utf8)
        + Data([0xFF, 0xFE, 0xC0, 0xAF, 0xED, 0xA0, 0x80]) + Data("ample\"], \"components\": []}]}}\n".utf8)
    /// NUL bytes between tokens and inside a string.
    public static let nulBytes = Data("{\"applinks\":".utf8) + Data([0, 0]) + Data("{\"details\": [{\"appIDs\": [\"A\u{0}B\"]}]}}\n".utf8)

    static func response(status: String, headers: [(String, String)], body: Data) -> Data {
        var head = "HTTP/1.1 \(status)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Data(head.utf8) + body
    }

    /// The raw server's behaviour per host; `secretURL` is where `privateRedirect` points.
    static func rawRoute(host: String, path: String, secretURL: String) -> RawHTTPServer.Behaviour {
        let json = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        let good = Data(ScenarioFiles.good.utf8)
        switch host {
        case HostileSites.endlessTrailers:
            // The whole file in one chunk, the last chunk, then trailer lines without end.
            let chunk = String(good.count, radix: 16) + "\r\n" + ScenarioFiles.good + "\r\n0\r\n"
            return .endless(head: Data((json + "Transfer-Encoding: chunked\r\n\r\n" + chunk).utf8),
                            repeating: Data(("X-Trailer: " + String(repeating: "t", count: 1000) + "\r\n").utf8), interval: 0, limit: 30)
        case HostileSites.endlessInterim:
            return .endless(head: Data(), repeating: Data("HTTP/1.1 102 Processing\r\n\r\n".utf8), interval: 0.1, limit: 30)
        case HostileSites.slowHeaders:
            return .endless(head: Data((json + "X-Slow: ").utf8), repeating: Data("s".utf8), interval: 0.1, limit: 30)
        case HostileSites.longHeaderLine:
            let line = "X-Long: " + String(repeating: "l", count: 1 << 20) + "\r\n"
            return .respond(Data((json + line + "Content-Length: \(good.count)\r\nConnection: close\r\n\r\n").utf8) + good)
        case HostileSites.longLocation:
            return .respond(response(status: "301 Moved Permanently",
                                     headers: [("Location", "https://\(HostileSites.longLocation)/" + String(repeating: "p", count: 200 << 10))],
                                     body: Data()))
        case HostileSites.overflowingLength:
            return .respond(Data((json + "Content-Length: 99999999999999999999999\r\nConnection: close\r\n\r\n").utf8) + good)
        case HostileSites.privateRedirect:
            return .respond(response(status: "302 Found", headers: [("Location", secretURL)], body: Data()))
        case HostileSites.hang:
            return .silence
        case HostileSites.reset:
            // Promises 100 KB, sends 1 KB, then a TCP reset.
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 102400\r\n\r\n"
            return .resetAfter(Data(head.utf8) + Data(repeating: 0x20, count: 1024))
        case HostileSites.hugeHeaders:
            // 8 MB of header lines, then a good file.
            let line = Data(("X-Filler: " + String(repeating: "h", count: 1014) + "\r\n").utf8)
            let body = Data(ScenarioFiles.good.utf8)
            return .stream(head: Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n".utf8), repeating: line,
                           count: HostileSites.hugeHeaderBytes / line.count,
                           tail: Data("Content-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8) + body)
        case HostileSites.injection:
            let markup = [("X-Script", script), ("X-Escapes", escapes), ("Server", image + escapes)]
            if path == "/apple-app-site-association" {
                // A redirect whose target carries markup and escapes (sent raw: a server can).
                return .respond(response(status: "301 Moved Permanently",
                                         headers: [("Location", "https://inject.test/" + script + escapes)] + markup, body: Data()))
            }
            return .respond(response(status: "200 OK", headers: [("Content-Type", "application/json; " + image + escapes)] + markup,
                                     body: Data(injectedDocument.utf8)))
        default:
            return .respond(response(status: "404 Not Found", headers: [], body: Data()))
        }
    }
}
