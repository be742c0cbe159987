import Foundation

/// Headless Chromium, to check an HTML report the way a person sees it: the text it shows once
/// rendered (printed to PDF, read back with pdftotext) and the DOM after any script would have run.
///
/// Chromium exits 0 and prints nothing when a page fails to load, so both readers throw unless the
/// page really rendered (it has a body and shows `marker`): a check that something is absent from an
/// empty page would otherwise pass.
public enum HeadlessBrowser {
    /// The heading every aasa-audit HTML report shows (audit and merge alike).
    public static let reportMarker = "Apple App Site Association audit"

    static func chromium() throws -> String {
        guard let path = ShellCommand.which("chromium") ?? ShellCommand.which("chromium-browser") else {
            throw HarnessError.missingProgram("chromium")
        }
        return path
    }

    static let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                        "--disable-background-networking", "--hide-scrollbars"]

    /// The text a reader sees on the rendered page (all pages of its print form), whitespace folded.
    /// Throws when the page shows nothing, or not `marker`.
    public static func visibleText(of html: URL, marker: String = reportMarker) throws -> String {
        guard let pdftotext = ShellCommand.which("pdftotext") else { throw HarnessError.missingProgram("pdftotext (poppler-utils)") }
        let pdf = html.deletingPathExtension().appendingPathExtension("rendered.pdf")
        try ShellCommand.run(try chromium(), flags + ["--no-pdf-header-footer", "--print-to-pdf=\(pdf.path)", html.absoluteString],
                             environment: environment())
        guard FileManager.default.fileExists(atPath: pdf.path) else {
            throw HarnessError.nothingRendered(page: html.path, why: "chromium wrote no PDF")
        }
        let text = try ShellCommand.run(pdftotext, ["-enc", "UTF-8", pdf.path, "-"]).stdout
        let folded = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard folded.contains(marker) else {
            throw HarnessError.nothingRendered(page: html.path, why: folded.isEmpty ? "the printed page has no text" : "the printed page does not show \"\(marker)\"")
        }
        return folded
    }

    /// The page printed to `pdf` as a person printing it would (the print stylesheet applies), and
    /// the number of pages of that PDF, read by `pdfinfo`.
    @discardableResult
    public static func printedPageCount(of html: URL, to pdf: URL) throws -> Int {
        guard let pdfinfo = ShellCommand.which("pdfinfo") else { throw HarnessError.missingProgram("pdfinfo (poppler-utils)") }
        try ShellCommand.run(try chromium(), flags + ["--no-pdf-header-footer", "--print-to-pdf=\(pdf.path)", html.absoluteString],
                             environment: environment())
        guard FileManager.default.fileExists(atPath: pdf.path) else {
            throw HarnessError.nothingRendered(page: html.path, why: "chromium wrote no PDF")
        }
        let info = try ShellCommand.run(pdfinfo, [pdf.path]).stdout
        guard let line = info.split(separator: "\n").first(where: { $0.hasPrefix("Pages:") }),
              let pages = Int(line.dropFirst("Pages:".count).trimmingCharacters(in: .whitespaces)) else {
            throw UnreadablePageCount(pdfinfoOutput: String(info.prefix(500)))
        }
        return pages
    }

    /// The DOM as serialised after loading (and after any script ran).
    /// `width`, when given, is the window's width in pixels (the layout any script measured).
    /// Throws when the output has no body, or no `marker`.
    public static func renderedDOM(of html: URL, width: Int? = nil, marker: String = reportMarker) throws -> String {
        let size = width.map { ["--window-size=\($0),1200"] } ?? []
        let dom = try ShellCommand.run(try chromium(), flags + size + ["--dump-dom", html.absoluteString], environment: environment()).stdout
        guard dom.contains("<body") else {
            throw HarnessError.nothingRendered(page: html.path, why: dom.isEmpty ? "chromium printed nothing" : "the DOM chromium printed has no <body>")
        }
        guard dom.contains(marker) else {
            throw HarnessError.nothingRendered(page: html.path, why: "the DOM does not contain \"\(marker)\"")
        }
        return dom
    }

    /// A PNG screenshot of the page, for a person to look at.
    public static func screenshot(of html: URL, to png: URL, width: Int = 1200, height: Int = 1800) throws {
        try ShellCommand.run(try chromium(), flags + ["--window-size=\(width),\(height)", "--screenshot=\(png.path)", html.absoluteString],
                             environment: environment())
    }

    /// Chromium wants a writable HOME for its profile; give it a throw-away one.
    private static func environment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-audit-chromium-home")
        try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment["HOME"] = home.path
        return environment
    }
}

/// pdfinfo printed no "Pages:" line.
public struct UnreadablePageCount: Error, CustomStringConvertible {
    public var pdfinfoOutput: String
    public var description: String { "pdfinfo gave no page count; it printed: \(pdfinfoOutput)" }
}
