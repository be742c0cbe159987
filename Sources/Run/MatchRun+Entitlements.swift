import AASA
import Audit
import Entitlements
import Fetching
import Foundation
import Reporting

// `match --entitlements FILE [--app-id ID] URL...`: for each URL, the app's applinks entry that
// covers its host (an exact entry first, then the longest `*.` wildcard; an entry without `?mode=`
// before one with), the file Apple reads for that entry (the parent's for a wildcard; only
// /.well-known/ for a `?mode=` entry), and the decision for the app under it.
extension MatchRun {
    /// The decisions for `urls` as the app of `path` gets them; nil (told to `notice`) when the
    /// entitlements cannot be used or nothing can be fetched at all (`--cacert`). A URL without a host
    /// is refused on its own line; one whose entry's host serves no file Apple can read stays in the
    /// browser (told, and the other URLs are still decided).
    func runForApp(entitlements path: String, appID option: String?, urls: [(text: String, url: MatchURL)],
                   notice: (String) -> Void) -> Outcome? {
        let claims: AppClaims
        do {
            let stop = self.stop
            claims = try AppClaims.resolve(try EntitlementsFile.read(at: path, limits: .standard, stopped: { stop?.isStopped ?? false }), appID: option)
        } catch let error as AppClaimsError {
            notice(TerminalText.sanitize(error.description))
            return nil
        } catch {
            notice(TerminalText.sanitize("--entitlements \(error)"))
            return nil
        }
        for problem in claims.problems { notice(TerminalText.sanitize("\(problem.place): \"\(problem.text)\": \(problem.reason)")) }
        let app = claims.appID.description
        var files: [String: HostFile] = [:]
        var results: [MatchResult] = []
        var refused = 0
        for (url, given) in urls {
            if stop?.isStopped == true { return nil }
            var parsed = given
            guard let host = parsed.host else {
                notice(TerminalText.sanitize("\(url): give a whole URL (https://host/path): with --entitlements the host picks the entry"))
                refused += 1
                continue
            }
            parsed.host = host
            guard let entry = Self.entry(covering: host, in: claims.entries) else {
                // The first few only: an entitlement may hold thousands, and this is one line per URL.
                let listed = claims.entries.filter { $0.service == .applinks }.map(\.pattern)
                let shown = listed.prefix(Self.shownEntries).joined(separator: ", ")
                    + (listed.count > Self.shownEntries ? " and \(listed.count - Self.shownEntries) more" : "")
                results.append(MatchResult(url: url, decision: .noMatch, appID: app,
                                           reason: "no applinks entry of \(app) covers \(host) (its applinks entries: "
                                               + (listed.isEmpty ? "none" : shown) + ")"))
                continue
            }
            if files[entry.fileHost] == nil {
                guard let fetched = fetchFile(entry.fileHost, notice: notice) else { return nil }
                files[entry.fileHost] = fetched
            }
            let device: DeviceOutcome
            switch files[entry.fileHost] ?? .unreadable("") {
            case .unreadable(let reason):
                results.append(MatchResult(url: url, decision: .noMatch, appID: app,
                                           reason: "\(entry.text) covers \(host), but Apple can read no file from \(entry.fileHost)\(reason)",
                                           deviceFile: DeviceFile.none))
                continue
            case .readable(let outcome):
                device = outcome
            }
            var why = "\(url): \(entry.text) covers \(host); "
            // A ?mode= entry's file is read by the device itself, not by Apple's CDN.
            let reader = entry.mode == nil ? "Apple reads" : "the device reads"
            why += entry.wildcard ? "\(reader) \(entry.fileHost)'s file for it" : "\(reader) its own file"
            if let mode = entry.mode {
                why += "; with ?mode=\(mode.rawValue) only from /.well-known/, straight from the origin, and \(mode.devices)"
            } else if device.release.fromAppleCDN {
                why += "; devices read Apple's CDN copy of it"
            } else if let absence = device.release.absence {
                why += "; devices get no file: \(absence.clause(domain: entry.fileHost))"
            }
            notice(TerminalText.sanitize(why))
            // The file the entry is decided with is what a device gets for it (`DeviceOutcome`).
            guard let result = Self.decideForDevice(parsed, text: url, appID: app, host: host, fileHost: entry.fileHost,
                                                    device: device, modeEntry: entry.mode != nil) else {
                results.append(MatchResult(url: url, decision: .noMatch, appID: app,
                                           reason: "\(entry.text) is read from https://\(entry.fileHost)\(AASAFile.wellKnownPath) alone, "
                                               + "and \(entry.fileHost) serves its file only at the root location",
                                           deviceFile: DeviceFile.none))
                continue
            }
            results.append(result)
        }
        return Outcome(results: results, refusedURLs: refused)
    }

    /// How many of an app's applinks entries a URL that none covers names.
    static let shownEntries = 10

    /// The applinks entry Apple uses for `host`: an exact one, else the wildcard with the longest
    /// host; among equals, one without `?mode=` first.
    static func entry(covering host: String, in entries: [AssociatedDomainEntry]) -> AssociatedDomainEntry? {
        let covering = entries.filter { $0.service == .applinks && $0.covers(host) }
        return covering.min { a, b in
            if a.wildcard != b.wildcard { return !a.wildcard }
            if a.host.count != b.host.count { return a.host.count > b.host.count }
            return a.mode == nil && b.mode != nil
        }
    }

    /// What a host serves for the entries that need its file.
    private enum HostFile {
        /// What a device gets from the host (`DeviceOutcome`); Apple reads a file there.
        case readable(DeviceOutcome)
        /// Apple can read no file there: why (`": https://… answers 404: …"`, or empty).
        case unreadable(String)
    }

    /// The location Apple uses on `host` and its document, fetched as the audit fetches it, or why
    /// Apple can read no file there (also told); nil (told) when nothing can be fetched at all.
    private func fetchFile(_ host: String, notice: (String) -> Void) -> HostFile? {
        guard let (result, device) = fetchAndAudit(host, notice: notice) else { return nil }
        guard device.origin.document != nil else {
            let why = result.firstError.map { ": " + TerminalText.sanitize($0.message + ($0.detail.map { " (\($0))" } ?? "")) } ?? ""
            notice("\(host) serves no file Apple can read\(why)")
            return .unreadable(why)
        }
        return .readable(device)
    }
}
