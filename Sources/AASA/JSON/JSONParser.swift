import Foundation

/// A strict RFC 8259 JSON parser over raw bytes.
///
/// Strict because Apple's parser is: comments, trailing commas, single quotes, `NaN` and friends
/// are errors, each reported with its own `JSONParseError.Kind`, line and column. The parser is
/// iterative (an explicit stack), so hostile nesting cannot overflow the call stack.
public enum JSONParser {
    /// The default nesting limit for arrays and objects; real AASA files nest about 5 deep.
    public static let defaultMaximumDepth = 512

    /// Parses UTF-8 JSON text.
    ///
    /// A leading UTF-8 byte order mark is skipped and reported in `hadByteOrderMark`.
    /// Positions in errors and duplicate-key records are 1-based lines and columns counted in
    /// Unicode scalars; the skipped byte order mark does not count as a column.
    /// - Parameter maximumDepth: arrays and objects nested deeper than this throw `.tooDeep`.
    public static func parse(_ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth) throws(JSONParseError) -> JSONDocument {
        var parser = ByteParser(bytes: bytes, maximumDepth: maximumDepth)
        return try parser.parseDocument()
    }

    /// Parses UTF-8 JSON text held in `Data`; see `parse(_:maximumDepth:)`.
    public static func parse(_ data: Data, maximumDepth: Int = defaultMaximumDepth) throws(JSONParseError) -> JSONDocument {
        try parse([UInt8](data), maximumDepth: maximumDepth)
    }
}

/// ASCII bytes the grammar mentions, named so the parser reads like the RFC.
private enum ASCII {
    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let star = UInt8(ascii: "*")
    static let hash = UInt8(ascii: "#")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let lowerE = UInt8(ascii: "e")
    static let upperE = UInt8(ascii: "E")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")

    static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= nine }

    /// Letters, `_` and `$`: what starts a bare word such as `NaN` or an unquoted key.
    static func isWordStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
    }

    static func isWordPart(_ byte: UInt8) -> Bool { isWordStart(byte) || isDigit(byte) }
}

/// An array or object still being built; one per open bracket.
private struct Frame {
    let isObject: Bool
    var elements: [JSONValue] = []
    var members: [(key: String, value: JSONValue)] = []
    /// Keys seen so far, to find repeats in one pass.
    var seenKeys: Set<String> = []
    /// The key whose value is being parsed.
    var pendingKey = ""
    /// This object's JSON pointer, made at its first repeated key and kept: it cannot change while
    /// the object is open, and rebuilding it per repeat would cost its depth each time.
    var pointer: String?

    init(isObject: Bool) {
        self.isObject = isObject
    }

    var closer: UInt8 { isObject ? ASCII.closeBrace : ASCII.closeBracket }

    func finished() -> JSONValue {
        isObject ? .object(JSONObject(members: members)) : .array(elements)
    }
}

/// Turns byte offsets into line and column; offsets asked in increasing order cost one pass over
/// the input in all. The column is counted along with the line (never rescanned from the line's
/// start), so thousands of positions on one long line stay linear.
struct LineCounter {
    let bytes: [UInt8]
    let contentStart: Int
    private var scanned: Int
    private var line = 1
    private var column = 1

    init(bytes: [UInt8], contentStart: Int) {
        self.bytes = bytes
        self.contentStart = contentStart
        self.scanned = contentStart
    }

    mutating func position(of offset: Int) -> (line: Int, column: Int) {
        if offset < scanned {
            scanned = contentStart
            line = 1
            column = 1
        }
        let end = min(offset, bytes.count)
        while scanned < end {
            let byte = bytes[scanned]
            if byte == ASCII.lineFeed {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // Columns count scalars: every byte that is not a UTF-8 continuation byte starts one.
                column += 1
            }
            scanned += 1
        }
        return (line, column)
    }
}

/// The parser's state over one input.
private struct ByteParser {
    let bytes: [UInt8]
    let maximumDepth: Int
    var index = 0
    var contentStart = 0
    /// Escaped strings are decoded here, reused between strings to avoid allocations.
    var scratch: [UInt8] = []
    var duplicates: [(offset: Int, pointer: String, key: String)] = []
    /// The byte offset where each value starts, in the order values start (the tree's pre-order):
    /// one append per value, so a finding's pointer can be turned into a line and column later.
    var valueStarts: [Int] = []

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONDocument {
        let hadByteOrderMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        contentStart = hadByteOrderMark ? 3 : 0
        index = contentStart
        try validateUTF8()
        skipWhitespace()
        guard index < bytes.count else { throw error(.empty, at: contentStart) }
        let root = try parseValueTree()
        skipWhitespace()
        if index < bytes.count {
            throw isCommentStart(at: index) ? error(.comment, at: index) : error(.trailingContent, at: index)
        }
        var counter = LineCounter(bytes: bytes, contentStart: contentStart)
        let duplicateKeys = duplicates.map { duplicate in
            let position = counter.position(of: duplicate.offset)
            return JSONDuplicateKey(pointer: duplicate.pointer, key: duplicate.key, line: position.line, column: position.column)
        }
        return JSONDocument(root: root, hadByteOrderMark: hadByteOrderMark, duplicateKeys: duplicateKeys,
                            positions: JSONPositions(text: bytes, contentStart: contentStart, valueStarts: valueStarts))
    }

    // MARK: Structure

    /// Parses one value and everything nested in it, with an explicit stack instead of recursion.
    mutating func parseValueTree() throws(JSONParseError) -> JSONValue {
        var stack: [Frame] = []
        var value: JSONValue
        nextValue: while true {
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd, at: index, expected: "a value") }
            valueStarts.append(index)
            switch bytes[index] {
            case ASCII.openBrace, ASCII.openBracket:
                let isObject = bytes[index] == ASCII.openBrace
                guard stack.count < maximumDepth else { throw error(.tooDeep(limit: maximumDepth), at: index) }
                stack.append(Frame(isObject: isObject))
                index += 1
                skipWhitespace()
                if index < bytes.count && bytes[index] == stack[stack.count - 1].closer {
                    index += 1
                    value = stack.removeLast().finished()
                } else if isObject {
                    try parseKey(in: &stack)
                    continue nextValue
                } else {
                    continue nextValue
                }
            case ASCII.quote:
                value = .string(try parseString())
            case ASCII.minus, ASCII.zero...ASCII.nine, ASCII.plus, ASCII.dot:
                value = .number(try parseNumber())
            default:
                value = try parseLiteral()
            }

            // A value is complete: add it to its container, closing containers that end here.
            while let top = stack.indices.last {
                if stack[top].isObject {
                    stack[top].members.append((key: stack[top].pendingKey, value: value))
                } else {
                    stack[top].elements.append(value)
                }
                skipWhitespace()
                let closer = stack[top].closer
                let expected = stack[top].isObject ? "',' or '}'" : "',' or ']'"
                guard index < bytes.count else { throw error(.unexpectedEnd, at: index, expected: expected) }
                let byte = bytes[index]
                if byte == ASCII.comma {
                    index += 1
                    skipWhitespace()
                    if index < bytes.count && bytes[index] == closer {
                        throw error(.trailingComma, at: index, expected: "'\(Character(Unicode.Scalar(closer)))'")
                    }
                    if stack[top].isObject { try parseKey(in: &stack) }
                    continue nextValue
                }
                guard byte == closer else { throw unexpected(at: index, expected: expected) }
                index += 1
                value = stack.removeLast().finished()
            }
            return value
        }
    }

    /// Parses `"key" :` for the object on top of the stack and records a repeated key.
    mutating func parseKey(in stack: inout [Frame]) throws(JSONParseError) {
        let expected = "a key in double quotes"
        guard index < bytes.count else { throw error(.unexpectedEnd, at: index, expected: expected) }
        let keyOffset = index
        guard bytes[index] == ASCII.quote else {
            if ASCII.isWordStart(bytes[index]) || ASCII.isDigit(bytes[index]) {
                throw error(.unquotedKey, at: index)
            }
            throw unexpected(at: index, expected: expected)
        }
        let key = try parseString()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == ASCII.colon else { throw unexpected(at: index, expected: "':'") }
        index += 1
        let top = stack.count - 1
        if !stack[top].seenKeys.insert(key).inserted {
            let pointer = stack[top].pointer ?? Self.pointer(to: stack[..<top])
            stack[top].pointer = pointer
            duplicates.append((offset: keyOffset, pointer: pointer, key: key))
        }
        stack[top].pendingKey = key
    }

    /// The JSON pointer of the container the given (outer) frames lead to.
    static func pointer(to frames: ArraySlice<Frame>) -> String {
        var pointer = ""
        for frame in frames {
            pointer = frame.isObject
                ? JSONPointer.appending(pointer, frame.pendingKey)
                : JSONPointer.appending(pointer, frame.elements.count)
        }
        return pointer
    }

    // MARK: Scalars

    /// Parses a string starting at its opening quote; escape-free strings decode straight from the input.
    mutating func parseString() throws(JSONParseError) -> String {
        let quoteOffset = index
        index += 1
        var runStart = index
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.quote {
                let result: String
                if escaped {
                    scratch.append(contentsOf: bytes[runStart..<index])
                    result = String(decoding: scratch, as: UTF8.self)
                } else {
                    result = String(decoding: bytes[runStart..<index], as: UTF8.self)
                }
                index += 1
                return result
            }
            if byte == ASCII.backslash {
                if !escaped {
                    escaped = true
                    scratch.removeAll(keepingCapacity: true)
                }
                scratch.append(contentsOf: bytes[runStart..<index])
                try parseEscape(stringStart: quoteOffset)
                runStart = index
                continue
            }
            if byte < 0x20 { throw error(.controlCharacterInString, at: index) }
            index += 1
        }
        throw error(.unterminatedString, at: quoteOffset)
    }

    /// Decodes one backslash escape into `scratch`.
    mutating func parseEscape(stringStart: Int) throws(JSONParseError) {
        let escapeOffset = index
        guard index + 1 < bytes.count else { throw error(.unterminatedString, at: stringStart) }
        let simple: UInt8?
        switch bytes[index + 1] {
        case ASCII.quote: simple = ASCII.quote
        case ASCII.backslash: simple = ASCII.backslash
        case ASCII.slash: simple = ASCII.slash
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = ASCII.lineFeed
        case UInt8(ascii: "r"): simple = ASCII.carriageReturn
        case UInt8(ascii: "t"): simple = ASCII.tab
        case UInt8(ascii: "u"): simple = nil
        default: throw error(.invalidEscape, at: escapeOffset)
        }
        if let simple {
            scratch.append(simple)
            index += 2
            return
        }
        guard let unit = hex4(at: index + 2) else { throw error(.invalidEscape, at: escapeOffset) }
        index += 6
        var codePoint = unit
        switch unit {
        case 0xD800...0xDBFF:
            // A high surrogate is only meaningful followed at once by an escaped low surrogate.
            guard index + 1 < bytes.count, bytes[index] == ASCII.backslash, bytes[index + 1] == UInt8(ascii: "u"),
                  let low = hex4(at: index + 2), (0xDC00...0xDFFF).contains(low)
            else { throw error(.loneSurrogate(UInt16(unit)), at: escapeOffset) }
            index += 6
            codePoint = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        case 0xDC00...0xDFFF:
            throw error(.loneSurrogate(UInt16(unit)), at: escapeOffset)
        default:
            break
        }
        guard let scalar = Unicode.Scalar(codePoint) else { throw error(.invalidEscape, at: escapeOffset) }
        UTF8.encode(scalar) { scratch.append($0) }
    }

    /// The value of four hex digits at `offset`, or nil.
    func hex4(at offset: Int) -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[offset..<offset + 4] {
            let digit: UInt8
            switch byte {
            case ASCII.zero...ASCII.nine: digit = byte - ASCII.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Parses a number by RFC 8259's grammar; anything else that looks numeric is `.invalidNumber`.
    mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        if bytes[index] == ASCII.minus {
            index += 1
            // "-Infinity" is a non-standard literal, not a malformed number.
            if index < bytes.count && ASCII.isWordStart(bytes[index]) {
                let word = readWord()
                throw error(.nonStandardLiteral("-" + word), at: start)
            }
        }
        guard index < bytes.count, ASCII.isDigit(bytes[index]) else { throw error(.invalidNumber, at: start) }
        if bytes[index] == ASCII.zero {
            index += 1
            if index < bytes.count && ASCII.isDigit(bytes[index]) { throw error(.invalidNumber, at: start) }
        } else {
            skipDigits()
        }
        if index < bytes.count && bytes[index] == ASCII.dot {
            index += 1
            guard index < bytes.count, ASCII.isDigit(bytes[index]) else { throw error(.invalidNumber, at: start) }
            skipDigits()
        }
        if index < bytes.count && (bytes[index] == ASCII.lowerE || bytes[index] == ASCII.upperE) {
            index += 1
            if index < bytes.count && (bytes[index] == ASCII.plus || bytes[index] == ASCII.minus) { index += 1 }
            guard index < bytes.count, ASCII.isDigit(bytes[index]) else { throw error(.invalidNumber, at: start) }
            skipDigits()
        }
        // "0x1F", "1.2.3" and "12px" are one malformed number, not a number followed by junk.
        if index < bytes.count && (ASCII.isWordPart(bytes[index]) || bytes[index] == ASCII.dot) {
            throw error(.invalidNumber, at: start)
        }
        return JSONNumber(text: String(decoding: bytes[start..<index], as: UTF8.self))
    }

    mutating func skipDigits() {
        while index < bytes.count && ASCII.isDigit(bytes[index]) { index += 1 }
    }

    /// Parses `true`, `false` or `null`; any other bare word is a non-standard literal.
    mutating func parseLiteral() throws(JSONParseError) -> JSONValue {
        let start = index
        guard ASCII.isWordStart(bytes[index]) else { throw unexpected(at: index, expected: "a value") }
        let word = readWord()
        switch word {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default: throw error(.nonStandardLiteral(word), at: start)
        }
    }

    mutating func readWord() -> String {
        let start = index
        while index < bytes.count && ASCII.isWordPart(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    // MARK: Bytes

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case ASCII.space, ASCII.lineFeed, ASCII.carriageReturn, ASCII.tab: index += 1
            default: return
            }
        }
    }

    func isCommentStart(at offset: Int) -> Bool {
        if bytes[offset] == ASCII.hash { return true }
        guard bytes[offset] == ASCII.slash, offset + 1 < bytes.count else { return false }
        return bytes[offset + 1] == ASCII.slash || bytes[offset + 1] == ASCII.star
    }

    /// Checks the whole input is well-formed UTF-8 (RFC 3629), so later decoding cannot fail.
    func validateUTF8() throws(JSONParseError) {
        var offset = contentStart
        let count = bytes.count
        while offset < count {
            let lead = bytes[offset]
            if lead < 0x80 {
                offset += 1
                continue
            }
            // Second-byte ranges exclude overlong forms, UTF-16 surrogates and code points past U+10FFFF.
            let length: Int
            var secondRange: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; secondRange = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; secondRange = 0x80...0x9F
            case 0xF0: length = 4; secondRange = 0x90...0xBF
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; secondRange = 0x80...0x8F
            default: throw error(.invalidUTF8, at: offset)
            }
            guard offset + length <= count, secondRange.contains(bytes[offset + 1]) else {
                throw error(.invalidUTF8, at: offset)
            }
            for continuation in 2..<length where bytes[offset + continuation] & 0xC0 != 0x80 {
                throw error(.invalidUTF8, at: offset)
            }
            offset += length
        }
    }

    // MARK: Errors

    /// The most specific error for an unexpected byte: a comment or single quote if it is one.
    func unexpected(at offset: Int, expected: String) -> JSONParseError {
        guard offset < bytes.count else { return error(.unexpectedEnd, at: offset, expected: expected) }
        if isCommentStart(at: offset) { return error(.comment, at: offset) }
        if bytes[offset] == ASCII.apostrophe { return error(.singleQuotedString, at: offset) }
        return error(.unexpectedCharacter(character(at: offset)), at: offset, expected: expected)
    }

    /// The whole character starting at `offset` (the input is valid UTF-8 by now).
    func character(at offset: Int) -> String {
        var end = offset + 1
        while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }

    func error(_ kind: JSONParseError.Kind, at offset: Int, expected: String? = nil) -> JSONParseError {
        var counter = LineCounter(bytes: bytes, contentStart: contentStart)
        let position = counter.position(of: offset)
        return JSONParseError(kind: kind, line: position.line, column: position.column, byteOffset: offset, expected: expected)
    }
}
