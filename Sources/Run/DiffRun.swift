import AASA
import Fetching
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `diff OLD NEW`: the two documents (a local file, or the file a device gets from a live domain,
/// read as `match` reads them) → `DocumentDiff`: what changed, and which URLs' decisions change.
public struct DiffRun: Sendable {
    /// The old and the new version: a file path, "-", or a domain.
    public var old: String
    public var new: String
    /// `--urls FILE`: the URLs to decide, one per line; nil: one sample URL per rule.
    public var urlsFile: String?
    /// How a domain is fetched.
    public var fetch: FetchOptions

    public init(old: String, new: String, urlsFile: String? = nil, fetch: FetchOptions) {
        self.old = old
        self.new = new
        self.urlsFile = urlsFile
        self.fetch = fetch
    }

    /// Whether `text` names a file or a domain: "-", anything with a `/`, a name ending in `.json`
    /// or a path that exists is a file; anything else is a domain (a domain has no `/`, and one
    /// named like `old.json` would be a file on disk far more often than a host).
    /// - Parameter exists: whether a path names something on disk (the file system by default).
    public static func source(of text: String, exists: (String) -> Bool = Self.exists) -> MatchRun.Source {
        if text == "-" || text.contains("/") || text.lowercased().hasSuffix(".json") { return .file(text) }
        return exists(text) ? .file(text) : .domain(text)
    }

    /// Whether `path` names anything on disk.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The URLs of a `--urls` file: one per line, blank lines and lines starting with `#` skipped.
    public static func urls(in text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// The comparison; nil (with the reason told to `notice`) when a version cannot be read, is no
    /// document Apple reads, or a URL of `--urls` is neither an http(s) URL nor a path: exit status 2.
    public func run(notice: (String) -> Void) -> DocumentDiff? {
        var urls: [String]?
        if let urlsFile {
            do {
                urls = Self.urls(in: String(decoding: try LocalFile.read(urlsFile), as: UTF8.self))
            } catch {
                notice("cannot read --urls \(urlsFile): \(error)")
                return nil
            }
        }
        let oldRun = MatchRun(source: Self.source(of: old), urls: [], fetch: fetch)
        let newRun = MatchRun(source: Self.source(of: new), urls: [], fetch: fetch)
        guard let before = oldRun.document(notice: notice),
              let after = newRun.document(notice: notice)
        else { return nil }
        let (diff, invalid) = DocumentDiff.compare(before.document, after.document, urls: urls)
        if let first = invalid.first {
            notice("--urls \(urlsFile ?? ""): \(first) is neither an http(s) URL nor a path starting with /")
            return nil
        }
        return diff
    }
}
