import AASA
import Audit
import Foundation

// Apple's CDN copy and Apple's crawler, in a domain's section.
extension HTMLWriter {
    /// `echoes`: the CDN only repeats that Apple can read no file at the server (`DeviceGets.noFile`).
    mutating func cdnBlock(_ cdn: CDNResult, echoes: Bool = false) {
        // A copy the same as the origin's, or no copy because the server serves none, needs no room
        // on paper (report.css: "off-paper").
        raw(cdn.matchesOrigin == true || echoes ? "<div class=\"location cdn off-paper\">\n" : "<div class=\"location cdn\">\n")
        raw("<h3>Apple's CDN <span class=\"label\">what iOS 14+ and macOS 11+ devices read</span></h3>\n")
        raw("<dl class=\"facts\">\n")
        fact("URL") { $0.raw("<code>"); $0.text(cdn.url); $0.raw("</code>") }
        fact("Status") { w in
            if let status = cdn.httpStatus { w.raw("HTTP \(status)") } else { w.raw("no response") }
        }
        if let error = cdn.error {
            fact("Transfer error") { $0.transferFailure(error) }
        }
        fact("Copy") { w in
            switch cdn.matchesOrigin {
            case true?: w.raw("the same file as the origin's")
            case false?: w.raw("<span class=\"bad\">differs from the origin's file</span>")
            case nil: w.raw(cdn.error == nil ? "<span class=\"bad\">no copy</span>" : "not checked")
            }
        }
        if !cdn.differences.isEmpty {
            fact("Differences") { w in
                w.raw("<ul class=\"plain\">")
                for difference in cdn.differences {
                    w.raw("<li>")
                    w.text(difference)
                    w.raw("</li>")
                }
                w.raw("</ul>")
            }
        }
        let headers: [(String, String?)] = [
            ("Apple-Failure-Reason", cdn.appleFailureReason), ("Apple-Failure-Details", cdn.appleFailureDetails),
            ("Apple-From", cdn.appleFrom), ("Apple-Try-Direct", cdn.appleTryDirect),
            ("Apple-Origin-Format", cdn.appleOriginFormat), ("Cache-Control", cdn.cacheControl), ("Age", cdn.age),
        ]
        for (name, value) in headers {
            guard let value else { continue }
            fact(name) { $0.raw("<code>"); $0.text(value); $0.raw("</code>") }
        }
        // How the CDN refreshes is the same for every domain: the summary says it once.
        raw("</dl>\n</div>\n")
    }

    mutating func crawlerBlock(_ crawler: CrawlerResult) {
        // The crawler answered as this tool was: nothing for paper (report.css: "off-paper").
        let fine = crawler.httpStatus != nil && crawler.httpStatus == crawler.toolHTTPStatus && crawler.sameBody != false
        // Answered as this tool was: one sentence, not five facts (on a page of thousands of domains, kilobytes).
        if fine, let status = crawler.httpStatus {
            raw("<div class=\"location crawler off-paper\">\n<h3>Apple's crawler</h3>\n<p>Fetched with the User-Agent Apple's CDN sends, <code>")
            text(crawler.userAgent)
            raw("</code>, <code>")
            text(crawler.path)
            raw("</code> answered HTTP \(status), as it did to this tool\(crawler.sameBody == true ? ", with the same body" : "").</p>\n</div>\n")
            return
        }
        raw("<div class=\"location crawler\">\n")
        raw("<h3>Apple's crawler <span class=\"label\">the file fetched with the User-Agent Apple's CDN sends</span></h3>\n")
        raw("<dl class=\"facts\">\n")
        fact("User-Agent") { $0.raw("<code>"); $0.text(crawler.userAgent); $0.raw("</code>") }
        fact("Location") { $0.raw("<code>"); $0.text(crawler.path); $0.raw("</code>") }
        fact("Crawler got") { w in
            if let status = crawler.httpStatus {
                w.raw(status == crawler.toolHTTPStatus ? "HTTP \(status)" : "<span class=\"bad\">HTTP \(status)</span>")
            } else {
                w.raw("<span class=\"bad\">no response</span>")
                if let error = crawler.error {
                    w.raw(": ")
                    w.transferFailure(error)
                }
            }
        }
        fact("This tool got") { w in
            if let status = crawler.toolHTTPStatus { w.raw("HTTP \(status)") } else { w.raw("no response") }
        }
        if let same = crawler.sameBody {
            fact("Same body") { $0.raw(same ? "yes" : "<span class=\"bad\">no</span>") }
        }
        raw("</dl>\n</div>\n")
    }
}
