import AASA
import Foundation
import SignedFiles

/// libFuzzer entry point for the document pipeline: bytes in, as a served body would arrive, through
/// the signed-file unwrap, the strict JSON parser and every schema check. A crash, a trap (bad index,
/// overflow, force-unwrap), a stack overflow or a hang here is a bug; findings of any kind are fine.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDocument(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    // As the audit does: OpenSSL unwraps a CMS-signed file first, the core checks what comes out.
    let served = SignedFile.open(bytes)
    let validation = DocumentValidator.validate(served)
    // The parse-only path the CDN and crawler comparisons use must agree with the full validation.
    let root = DocumentValidator.root(of: served)
    precondition((root != nil) == (validation.document != nil), "root(of:) and validate disagree on the root object")
    // Every finding carries a registered id, so reports and docs/findings.md can name it.
    let registered = Set(DocumentValidator.rules.map(\.id))
    for finding in validation.findings {
        precondition(registered.contains(finding.id), "unregistered finding id \(finding.id)")
    }
    if let document = validation.document {
        exerciseMatching(document, input: bytes)
    }
    return 0
}

/// URL matching on every parsed document: the patterns are compiled once, then URLs made from the
/// input itself (each line, as a path and as a URL with a query and a fragment) and a few fixed ones
/// are decided, for every app and for an unknown one. Invariants: `match` and `exclude` name the
/// rule that decided, `no_match` names none, and a decision for one app never admits an app the
/// decision for all of them does not list.
func exerciseMatching(_ document: AASADocument, input: [UInt8]) {
    let matcher = URLMatcher(document)
    var urls = ["/", "/a", "https://example.com/", "https://example.com/buy/1?a=b#c", "/%E2%82%AC?x=1&x=2"]
    for line in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).prefix(8) {
        let text = String(decoding: line.prefix(256), as: UTF8.self)
        urls.append(text.hasPrefix("/") ? text : "/" + text)
        urls.append("https://example.com/" + text + "?q=" + text + "#" + text)
    }
    for url in urls {
        guard let result = try? matcher.decide(url) else { continue }
        precondition((result.decision == .noMatch) == (result.rule == nil), "a decision without its rule: \(result)")
        for appID in result.appIDs.prefix(4) + ["ZZZZZ99999.unknown.app"] {
            guard let forApp = try? matcher.decide(url, appID: appID) else { continue }
            precondition(forApp.decision != .match || result.appIDs.contains(appID), "\(appID) matched but is not among \(result.appIDs)")
        }
    }
}
