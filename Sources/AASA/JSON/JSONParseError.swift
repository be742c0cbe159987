/// Why a byte sequence is not strict RFC 8259 JSON, and where.
///
/// Apple's parser rejects anything outside RFC 8259, so every case names the usual culprit
/// (comments, trailing commas, single quotes, …) rather than a generic "syntax error".
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of mistake; cases carry what is needed to explain it.
    public enum Kind: Sendable, Equatable {
        /// The input is empty or only whitespace.
        case empty
        /// The bytes are not valid UTF-8 (overlong form, surrogate, truncated or stray byte).
        case invalidUTF8
        /// A character that cannot appear here; the associated value is that character.
        case unexpectedCharacter(String)
        /// The input stops in the middle of a value.
        case unexpectedEnd
        /// A comma after the last item of an array or object.
        case trailingComma
        /// A `//`, `/* */` or `#` comment.
        case comment
        /// A string (or key) in single quotes.
        case singleQuotedString
        /// An object key without double quotes.
        case unquotedKey
        /// A string with no closing quote before the end of the input.
        case unterminatedString
        /// A backslash escape JSON does not define, or a malformed `\u` escape.
        case invalidEscape
        /// A well-formed `\uXXXX` escape naming half of a UTF-16 surrogate pair with its other half
        /// missing (`\ud800` alone, or a low surrogate first): valid JSON syntax that is no character.
        /// The associated value is the escaped code unit.
        case loneSurrogate(UInt16)
        /// A raw control character (U+0000–U+001F), usually a line break, inside a string.
        case controlCharacterInString
        /// A number JSON does not allow: leading zeros, `+1`, `.5`, `1.`, hex.
        case invalidNumber
        /// A word that is not `true`, `false` or `null`, such as `NaN`, `Infinity`, `True`, `undefined`.
        case nonStandardLiteral(String)
        /// Something other than whitespace after the root value.
        case trailingContent
        /// Arrays and objects nested deeper than the parser's limit.
        case tooDeep(limit: Int)
    }

    /// What went wrong.
    public var kind: Kind
    /// 1-based line; lines end at `\n` (so `\r\n` is one line end).
    public var line: Int
    /// 1-based column, counted in characters (not bytes) of the line.
    public var column: Int
    /// 0-based offset of the offending byte in the input as given (a byte order mark included).
    public var byteOffset: Int
    /// What the parser expected at this point, when that helps explain the error (e.g. `"',' or '}'"`).
    public var expected: String?

    /// Creates an error; the parser fills in all fields.
    public init(kind: Kind, line: Int, column: Int, byteOffset: Int, expected: String? = nil) {
        self.kind = kind
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.expected = expected
    }

    /// One line for people, e.g. "trailing comma before '}' at line 17, column 14".
    public var description: String {
        "\(summary) at line \(line), column \(column)"
    }

    /// The mistake without its position.
    public var summary: String {
        switch kind {
        case .empty: return "empty document"
        case .invalidUTF8: return "invalid UTF-8 byte"
        case .unexpectedCharacter(let character):
            let shown = "unexpected character \(Self.quoted(character))"
            if let expected { return "\(shown), expected \(expected)" }
            return shown
        case .unexpectedEnd:
            if let expected { return "unexpected end of input, expected \(expected)" }
            return "unexpected end of input"
        case .trailingComma:
            if let expected { return "trailing comma before \(expected)" }
            return "trailing comma"
        case .comment: return "comment"
        case .singleQuotedString: return "single-quoted string"
        case .unquotedKey: return "object key without double quotes"
        case .unterminatedString: return "string opened here is never closed"
        case .invalidEscape: return "invalid escape sequence in string"
        case .loneSurrogate(let unit):
            let hex = "\\u" + String(unit, radix: 16, uppercase: true)
            let half = (0xD800...0xDBFF).contains(unit) ? "a high surrogate not followed by an escaped low surrogate (\\uDC00–\\uDFFF)"
                : "a low surrogate with no high surrogate (\\uD800–\\uDBFF) before it"
            return "\(hex) is a valid JSON escape but not a character: it is \(half), a lone surrogate"
        case .controlCharacterInString: return "raw control character in string"
        case .invalidNumber: return "invalid number"
        case .nonStandardLiteral(let word): return "non-standard literal '\(word)'"
        case .trailingContent: return "content after the end of the JSON value"
        case .tooDeep(let limit): return "arrays and objects nested deeper than \(limit) levels"
        }
    }

    /// How to fix it, naming the likely culprit.
    public var hint: String {
        switch kind {
        case .empty:
            return "The file is empty; it must contain a JSON object."
        case .invalidUTF8:
            return "JSON must be UTF-8; re-save the file as UTF-8 (without a byte order mark)."
        case .unexpectedCharacter(let character):
            return Self.hint(forUnexpected: character, expected: expected)
        case .unexpectedEnd:
            return "The document stops before it is complete; check for a missing closing '}', ']' or '\"'."
        case .trailingComma:
            return "JSON does not allow a comma after the last item; remove it."
        case .comment:
            return "JSON does not allow comments (//, /* */ or #); remove them."
        case .singleQuotedString:
            return "JSON strings and keys use double quotes (\"), not single quotes (')."
        case .unquotedKey:
            return "JSON object keys must be in double quotes, e.g. \"applinks\"."
        case .unterminatedString:
            return "Add the closing double quote (\") to this string."
        case .invalidEscape:
            return "Inside strings only \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX (four hex digits) are allowed; write a literal backslash as \\\\."
        case .loneSurrogate:
            return "Characters above U+FFFF are escaped as a pair, high then low (😀 is \\uD83D\\uDE00); write the whole pair or the character itself in UTF-8, or remove the stray half. Strict parsers reject a lone surrogate, Foundation's own JSON parser (JSONDecoder) among them."
        case .controlCharacterInString:
            return "A string contains a raw line break or other control character, often because its closing quote is missing or is a typographic quote; close the string or escape the character (\\n, \\t)."
        case .invalidNumber:
            return "JSON numbers have no leading zeros, no '+' sign, no hex, and need digits on both sides of '.'; write 0.5, not .5 or 05."
        case .nonStandardLiteral:
            return "JSON only has true, false and null, in lowercase; NaN, Infinity and undefined are not allowed. Quote the value if it is meant to be a string."
        case .trailingContent:
            return "Only whitespace may follow the top-level value; remove the extra text or a second value (often a stray '}' or ',')."
        case .tooDeep(let limit):
            return "Nesting deeper than \(limit) levels is not a plausible AASA file; check for unbalanced brackets."
        }
    }

    private static func hint(forUnexpected character: String, expected: String?) -> String {
        switch character {
        case "\u{201C}", "\u{201D}", "\u{201E}", "\u{2018}", "\u{2019}", "\u{00AB}", "\u{00BB}":
            return "This is a typographic (smart) quote; JSON needs straight double quotes (\"). Turn off smart quotes in your editor."
        case "\u{00A0}", "\u{2007}", "\u{202F}":
            return "This is a non-breaking space; JSON whitespace is only space, tab, CR and LF."
        case "\u{FEFF}":
            return "A byte order mark in the middle of the file; remove it."
        case "\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}":
            return "An invisible zero-width character; remove it."
        default:
            break
        }
        guard let expected else { return "Remove or fix this character." }
        if expected.contains("','") && ["\"", "{", "[", "t", "f", "n"].contains(character)
            || expected.contains("','") && character.first.map({ $0.isNumber || $0 == "-" }) == true {
            return "A comma is probably missing between two items; add ',' before this one."
        }
        if expected.contains("','") && character == ":" {
            return "A ':' where ',' or a closing bracket belongs: a string is probably used as a key where only a value is allowed (check the nesting around it)."
        }
        if expected == "':'" {
            return "An object key must be followed by ':'; check for a doubled or misplaced quote in the key."
        }
        return "Expected \(expected) here."
    }

    private static func quoted(_ character: String) -> String {
        guard let scalar = character.unicodeScalars.first else { return "''" }
        let category = scalar.properties.generalCategory
        // Invisible characters are shown by code point so the message is readable.
        if scalar.value < 0x20 || scalar.value == 0x7F || category == .format
            || (category == .spaceSeparator && scalar.value != 0x20) {
            return "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
        }
        return "'\(character)'"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
