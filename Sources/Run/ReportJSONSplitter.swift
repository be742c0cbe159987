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
    /// Inside the top-level `bodies` object (the bodies stored apart, by SHA-256): its entries are
    /// handed to `takeBody` as they complete and kept out of the shell, which holds `{}` for it.
    private var inBodies = false
    private static let bodiesKey = Data("bodies".utf8)
    /// The entry of `bodies` being read: its key once read, and the string being read (with its quotes).
    private var bodyKey: Data?
    private var bodyString: Data?
    /// True when something other than a string stood as a key or value in `bodies`.
    private(set) var strayBody = false
    /// True when an entry of `bodies` is longer than `maxElementBytes`.
    private(set) var oversizedBody = false
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
    var isRefused: Bool { invalid || firstOversized != nil || shellOversized || oversizedBody }

    init(keepingElements: Bool = true, maxElementBytes: Int = .max) {
        self.keepingElements = keepingElements
        self.maxElementBytes = maxElementBytes
    }

    /// True when the bytes fed so far end where a JSON value ends (nothing open).
    var isBalanced: Bool { depth == 0 && !inString }

    /// Follows `bytes`, handing each complete element of `domains` to `take` (the entries of `bodies` passed over).
    mutating func feed(_ bytes: UnsafeRawBufferPointer, take: (Data) throws -> Void) rethrows {
        try feed(bytes, take: take, takeBody: { _, _ in })
    }

    /// Follows `bytes`, handing each complete element of `domains` to `take`, and each entry of
    /// `bodies` to `takeBody` (its key and its value, both as JSON strings with their quotes).
    mutating func feed(_ bytes: UnsafeRawBufferPointer, take: (Data) throws -> Void,
                       takeBody: (_ key: Data, _ value: Data) throws -> Void) rethrows {
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
                    if let length = bodyString?.count {
                        // A string of `bodies`, collected apart from the shell.
                        if length + run.count <= maxElementBytes { bodyString?.append(contentsOf: run) } else { oversizedBody = true }
                    } else {
                        append(run)
                        if depth == 1 { string.append(contentsOf: run) }
                    }
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
            if inString, let length = bodyString?.count {
                // A string in `bodies`: a key or a body, collected apart from the shell (in place).
                if length < maxElementBytes { bodyString?.append(byte) } else { oversizedBody = true }
                if closesString(byte) {
                    let body = bodyString ?? Data()
                    bodyString = nil
                    if let key = bodyKey {
                        bodyKey = nil
                        if !oversizedBody { try takeBody(key, body) }
                    } else {
                        bodyKey = body
                    }
                }
                continue
            }
            if inString {
                append(byte)
                if depth == 1 && !escaped && byte != UInt8(ascii: "\"") { string.append(byte) }
                _ = closesString(byte)
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where inBodies && depth == 2:
                inString = true
                bodyString = Data([byte])
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
                } else if !inBodies && depth == 1 && byte == UInt8(ascii: "{") && key == Self.bodiesKey {
                    inBodies = true
                    shell.append(byte)
                } else if inBodies && depth == 2 {
                    strayBody = true
                    append(byte)
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
                } else if inBodies && depth == 1 {
                    inBodies = false
                }
            case UInt8(ascii: ":") where inBodies && depth == 2:
                break
            case UInt8(ascii: ":"):
                if depth == 1 { key = string }
                append(byte)
            case UInt8(ascii: ","):
                if depth == 1 { key = nil }
                // The commas between domains go with them; the shell's array stays empty.
                if !((inDomains || inBodies) && depth == 2) { append(byte) }
            case 0x20, 0x0A, 0x0D, 0x09:
                if !((inDomains || inBodies) && depth == 2) { append(byte) }
            default:
                if inBodies && depth == 2 {
                    strayBody = true
                } else if inDomains && depth == 2 && element == nil {
                    stray = true
                } else {
                    append(byte)
                }
            }
        }
    }

    /// Follows the escapes inside a string; true when `byte` is the quote that ends it.
    private mutating func closesString(_ byte: UInt8) -> Bool {
        if escaped {
            escaped = false
        } else if byte == UInt8(ascii: "\\") {
            escaped = true
        } else if byte == UInt8(ascii: "\"") {
            inString = false
            return true
        }
        return false
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
