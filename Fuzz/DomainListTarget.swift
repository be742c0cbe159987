import Audit
import Foundation

/// libFuzzer entry point for the `domains.txt` parser: any bytes are a possible file. Besides not
/// crashing or hanging, what it accepts must be safe to fetch and to print: a lower-case ASCII host
/// (letters, digits, '-', '.'), never a path, a port, a control character or a name that could
/// address a file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDomainList(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let list = DomainList.parse(data, file: "domains.txt")
    var seen = Set<String>()
    for entry in list.entries {
        let ascii = entry.name.ascii
        precondition(!ascii.isEmpty && ascii.count <= 253, "accepted an empty or over-long name")
        precondition(ascii.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E },
                     "accepted a name with a character outside [a-z0-9.-]: \(ascii.debugDescription)")
        precondition(ascii != "." && ascii != ".." && !ascii.hasPrefix(".") && !ascii.contains(".."), "accepted a dot path")
        precondition(entry.name.unicode.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F && !(0x80..<0xA0).contains($0.value) },
                     "the Unicode form carries a control character")
        precondition(seen.insert(ascii).inserted, "a domain was accepted twice")
        // The name must read back the same way (reports decode it again).
        precondition((try? DomainName.parse(ascii).name) == entry.name, "the ASCII form does not parse back to the same name")
    }
    for problem in list.problems {
        precondition(problem.text.count <= DomainList.maximumShownCharacters + 1, "a problem text was not cut")
    }
    return 0
}
