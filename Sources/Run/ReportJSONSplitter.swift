import Foundation

/// Splits the bytes of a report.json, fed in pieces of any size, into the report without its
/// domains (`shell`: the top-level `domains` array left empty) and each element of that array,
/// handed over as soon as it is complete. So a large report is read one domain at a time: a
/// baseline keeps only what the comparison needs of each (`BaselineReport`), never the whole file.
///
/// Only the JSON's structure is followed (strings with their escapes, nesting); whether the pieces
/// are a report is for the decoder. A scalar where a domain should be is kept as a problem
/// (`stray`), so it is refused rather than skipped. An element longer than `maxElementBytes` is not
/// collected past that (`firstOversized` names it), so memory stays bounded whatever the file holds;
/// without `keepingElements` the elements are passed over and only the shell is kept.
struct ReportJSONSplitter {
    /// Everything but the elements of the top-level `domains`.
    private(set) var shell = Data()
    /// True when something other than an object or array stood in the top-level `domains`.
    private(set) var stray = false
    private var element: Data?
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// The last string read at the top level, and the key whose value comes next.
    private var string = Data()
    private var key: Data?
    private var inDomains = false
    private static let domainsKey = Data("domains".utf8)
    private let keepingElements: Bool
    private let maxElementBytes: Int
    /// The bytes of the current element so far (counted also when they are not kept).
    private var elementBytes = 0
    private var elementIndex = 0
    /// The index in `domains` of the first element longer than `maxElementBytes`.
    private(set) var firstOversized: Int?
    /// True when a byte that JSON never has there was met (a control character, a NUL of a sparse
    /// file): the file is not a report, and the rest need not be read.
    private(set) var invalid = false
    /// True when the report without its domains is longer than `maxElementBytes` (it holds a
    /// hundred input errors and a few counts: far less).
    var shellOversized: Bool { shell.count > maxElementBytes }
    /// True once what was read settles that the file cannot be used: reading may stop.
    var isRefused: Bool { invalid || firstOversized != nil || shellOversized }

    init(keepingElements: Bool = true, maxElementBytes: Int = .max) {
        self.keepingElements = keepingElements
        self.maxElementBytes = maxElementBytes
    }

    /// True when the bytes fed so far end where a JSON value ends (nothing open).
    var isBalanced: Bool { depth == 0 && !inString }

    /// Follows `bytes`, handing each complete element of `domains` to `take`.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, take: (Data) throws -> Void) rethrows {
        var index = 0
        while index < bytes.count {
            if inString && !escaped {
                // Most of a report is inside strings (bodies, messages): a run of plain string
                // bytes is taken at once rather than byte by byte.
                var end = index
                while end < bytes.count {
                    let next = bytes[end]
                    if next == UInt8(ascii: "\"") || next == UInt8(ascii: "\\") || next < 0x20 { break }
                    end += 1
                }
                if end > index {
                    let run = UnsafeRawBufferPointer(rebasing: bytes[index..<end])
                    append(run)
                    if depth == 1 { string.append(contentsOf: run) }
                    index = end
                    continue
                }
            }
            let byte = bytes[index]
            index += 1
            // Raw control characters are never in JSON, in a string or out (tab, LF, CR only between values).
            if byte < 0x20 && (inString || (byte != 0x0A && byte != 0x0D && byte != 0x09)) {
                invalid = true
                return
            }
            if inString {
                append(byte)
                if depth == 1 && !escaped && byte != UInt8(ascii: "\"") { string.append(byte) }
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                if inDomains && depth == 2 && element == nil { stray = true }
                inString = true
                if depth == 1 { string.removeAll(keepingCapacity: true) }
                append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if inDomains && depth == 2 {
                    element = keepingElements ? Data([byte]) : Data()
                    elementBytes = 1
                } else if !inDomains && depth == 1 && byte == UInt8(ascii: "[") && key == Self.domainsKey {
                    inDomains = true
                    shell.append(byte)
                } else {
                    append(byte)
                }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                append(byte)
                if inDomains && depth == 2, let done = element {
                    element = nil
                    defer { elementIndex += 1 }
                    if elementBytes > maxElementBytes {
                        if firstOversized == nil { firstOversized = elementIndex }
                    } else if keepingElements {
                        try take(done)
                    }
                } else if inDomains && depth == 1 {
                    inDomains = false
                }
            case UInt8(ascii: ":"):
                if depth == 1 { key = string }
                append(byte)
            case UInt8(ascii: ","):
                if depth == 1 { key = nil }
                // The commas between domains go with them; the shell's array stays empty.
                if !(inDomains && depth == 2) { append(byte) }
            case 0x20, 0x0A, 0x0D, 0x09:
                if !(inDomains && depth == 2) { append(byte) }
            default:
                if inDomains && depth == 2 && element == nil {
                    stray = true
                } else {
                    append(byte)
                }
            }
        }
    }

    /// `run`, as `append(_:)` would take each of its bytes.
    private mutating func append(_ run: UnsafeRawBufferPointer) {
        if element != nil {
            let before = elementBytes
            elementBytes += run.count
            if keepingElements && before < maxElementBytes {
                element?.append(contentsOf: UnsafeRawBufferPointer(rebasing: run.prefix(maxElementBytes - before)))
            }
        } else {
            shell.append(contentsOf: run)
        }
    }

    private mutating func append(_ byte: UInt8) {
        if element != nil {
            elementBytes += 1
            if keepingElements && elementBytes <= maxElementBytes { element?.append(byte) }
        } else {
            shell.append(byte)
        }
    }
}
