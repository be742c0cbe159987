import Entitlements
import Foundation

/// libFuzzer entry point for the Mach-O code-signature reader: bytes in, as an executable would be
/// read from disk or from an .ipa. A crash, a trap (bad index, overflow), a hang or a huge allocation
/// here is a bug; an error of any kind is fine.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMachO(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let limits = EntitlementsReadLimits.standard
    do {
        let outcome = try MachOSignatureReader.entitlements(in: MemoryByteSource(bytes, name: "fuzz"), limits: limits)
        if case .propertyList(let plist) = outcome {
            // The blob comes from inside the input and within the limit, never from elsewhere.
            precondition(plist.count <= bytes.count && plist.count <= limits.propertyListBytes, "an entitlements blob larger than its input")
            _ = try? EntitlementsPropertyList.entitlements(from: plist, source: "fuzz", kind: .machO)
        }
    } catch {
        precondition(!error.reason.isEmpty, "an error without a reason")
    }
    // What EntitlementsFile would decide from the head agrees with what the reader does with a universal header.
    _ = MachOSignatureReader.looksLikeMachO(Array(bytes.prefix(64)), limits: limits)
    return 0
}
