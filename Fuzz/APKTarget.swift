import AndroidPackage
import Foundation

/// libFuzzer entry point for the APK readers that take bytes from the file: the binary XML manifest
/// (and what the manifest reader and Android's host rules make of it), and the APK Signing Block
/// found from the end of the same bytes read as a whole APK. A crash, a trap (bad index, overflow),
/// a hang or a huge allocation is a bug; an error of any kind is fine.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPK(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let limits = APKReadLimits.standard
    do {
        let manifest = try AndroidManifest.read(try BinaryXML.nodes(in: bytes, source: "fuzz", limits: limits), source: "fuzz")
        let hosts = AppLinkHosts(manifest, limits: limits)
        precondition(hosts.hosts.allSatisfy { !$0.fileHost.hasPrefix("*.") }, "a wildcard left in the host whose file is fetched")
    } catch {
        precondition(!error.reason.isEmpty, "an error without a reason")
    }
    do {
        _ = try APKSigningBlock.signers(in: MemoryAPKBytes(bytes, name: "fuzz"), limits: limits)
    } catch {
        precondition(!error.reason.isEmpty, "an error without a reason")
    }
    return 0
}
