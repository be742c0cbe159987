import AASA
import Foundation

/// libFuzzer entry point for the document pipeline: bytes in, as a served body would arrive, through
/// the signed-file unwrap, the strict JSON parser and every schema check. A crash, a trap (bad index,
/// overflow, force-unwrap), a stack overflow or a hang here is a bug; findings of any kind are fine.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDocument(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let validation = DocumentValidator.validate(bytes)
    // The parse-only path the CDN and crawler comparisons use must agree with the full validation.
    let root = DocumentValidator.root(of: .init(bytes))
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

/// Where URL matching joins the target: each parsed document is handed here with the raw input, from
/// which a matcher can take paths to match against the document's patterns.
func exerciseMatching(_ document: AASADocument, input: [UInt8]) {
    _ = document
    _ = input
}
