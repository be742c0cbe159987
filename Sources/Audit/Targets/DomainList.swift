import Foundation

/// One accepted line of a domain list.
public struct DomainEntry: Sendable, Equatable {
    /// The validated name.
    public var name: DomainName
    /// The file it came from, or nil for a command-line argument.
    public var file: String?
    /// 1-based line number in `file`, or the argument's position.
    public var line: Int
    /// The line as written (without its line ending).
    public var text: String
    /// Set when the text was rewritten in a way worth telling, e.g. the host taken from a URL.
    public var note: String? {
        get { rare?.value.note }
        set { updateRare { $0.note = newValue } }
    }
    /// What the line expects of the domain's file (`app=`, `opens=` ... after the domain); empty for a plain line.
    /// A domain listed on several lines gets the expectations of all of them.
    public var expectations: DomainExpectations {
        get { rare?.value.expectations ?? DomainExpectations() }
        set { updateRare { $0.expectations = newValue } }
        // Taken out of the box before it is changed, so its arrays are not copied (half a million
        // expectation lines for one domain stay linear).
        _modify {
            var value = rare?.value ?? Rare()
            rare = nil
            defer { rare = value.isEmpty ? nil : RareBox(value) }
            yield &value.expectations
        }
    }
    /// The entitlement entries of apps (`--entitlements`) whose file is this host's: checked by
    /// `EntitlementClaimCheck`. Empty for a domain only the domain list names.
    public var claims: [EntitlementClaim] {
        get { rare?.value.claims ?? [] }
        set { updateRare { $0.claims = newValue } }
        _modify {
            var value = rare?.value ?? Rare()
            rare = nil
            defer { rare = value.isEmpty ? nil : RareBox(value) }
            yield &value.claims
        }
    }
    /// Changes the boxed fields: taken out of the box first, so that a box held by this entry alone
    /// leaves its arrays to the change without a copy (half a million expectation lines for one
    /// domain stay linear); an entry left with none holds no box.
    private mutating func updateRare(_ change: (inout Rare) -> Void) {
        var value = rare?.value ?? Rare()
        rare = nil
        change(&value)
        rare = value.isEmpty ? nil : RareBox(value)
    }

    /// The note, expectations and claims, boxed: most lines are a bare name, and the three inline
    /// took 40 bytes of every entry of a list held for the whole run (8 here).
    private var rare: RareBox?

    private struct Rare: Sendable, Equatable {
        var note: String?
        var expectations = DomainExpectations()
        var claims: [EntitlementClaim] = []
        var isEmpty: Bool { note == nil && expectations.isEmpty && claims.isEmpty }
    }

    /// Never changed once made (a change makes a new box), so entries keep value semantics.
    private final class RareBox: Sendable, Equatable {
        let value: Rare
        init(_ value: Rare) { self.value = value }
        static func == (lhs: RareBox, rhs: RareBox) -> Bool { lhs.value == rhs.value }
    }

    /// Where the domain was written: "domains.txt:7", or "argument 2".
    public var place: String { InputProblem.place(file: file, line: line) }

    /// Builds an entry; `DomainList.parse` is the usual source.
    public init(name: DomainName, file: String?, line: Int, text: String, note: String? = nil,
                expectations: DomainExpectations = DomainExpectations()) {
        self.name = name
        self.file = file
        self.line = line
        self.text = text
        let rare = Rare(note: note, expectations: expectations)
        self.rare = rare.isEmpty ? nil : RareBox(rare)
    }
}

/// The domains to audit, from a `domains.txt` or the command line, with what could not be used.
///
/// Parsing never fails as a whole: each bad line becomes a problem and the other lines still count.
public struct DomainList: Sendable, Equatable {
    /// Accepted domains in first-seen order, each domain once.
    public var entries: [DomainEntry]
    /// Rejected lines and skipped expectation tokens, with file, line, text and reason: the first
    /// `maximumKeptProblems`; the rest are only counted in `problemsOmitted`.
    public var problems: [InputProblem]
    /// Problems found after the first `maximumKeptProblems`: counted, not kept, so a hostile list
    /// of millions of bad lines takes little memory and makes a small report.
    public var problemsOmitted = 0
    /// Lines that repeated an earlier domain (the domain is audited once): the first
    /// `maximumKeptProblems`; the rest are counted in `duplicatesOmitted`.
    public var duplicates: [DomainEntry]
    /// Repeated lines after the first `maximumKeptProblems`, counted only.
    public var duplicatesOmitted = 0
    /// Distinct domains of the list left out because they belong to other shards (`parse(_:file:keeping:)`,
    /// `Shard.subset`): counted, not held, so a shard of a list of millions holds only its own.
    public var inOtherShards = 0

    /// Every problem found, kept or not.
    public var problemCount: Int { problems.count + problemsOmitted }
    /// Every repeated line, kept or not.
    public var duplicateCount: Int { duplicates.count + duplicatesOmitted }

    /// At most this many problems (and repeated lines) are kept; `report.json` lists these.
    public static let maximumKeptProblems = 1000

    /// Lines longer than this are not looked at further: no domain or pasted URL is this long,
    /// and it keeps a binary file with few newlines from building huge strings.
    public static let maximumLineBytes = 4096
    /// Problem texts are cut to this many characters so one junk line cannot swamp a report.
    public static let maximumShownCharacters = 200

    /// Builds a list from parts; `parse` is the usual source.
    public init(entries: [DomainEntry] = [], problems: [InputProblem] = [], duplicates: [DomainEntry] = [],
                problemsOmitted: Int = 0, duplicatesOmitted: Int = 0) {
        self.entries = entries
        self.problems = problems
        self.duplicates = duplicates
        self.problemsOmitted = problemsOmitted
        self.duplicatesOmitted = duplicatesOmitted
    }

    /// Records a problem, or only counts it once `maximumKeptProblems` are kept.
    mutating func record(_ problem: InputProblem) {
        if problems.count < Self.maximumKeptProblems { problems.append(problem) } else { problemsOmitted += 1 }
    }

    /// Records a repeated line, or only counts it once `maximumKeptProblems` are kept.
    mutating func record(duplicate entry: DomainEntry) {
        if duplicates.count < Self.maximumKeptProblems { duplicates.append(entry) } else { duplicatesOmitted += 1 }
    }

    /// The accepted names, in order.
    public var names: [DomainName] { entries.map(\.name) }

    /// Parses a `domains.txt`: one domain per line, `#` comments, blank lines, CRLF, a leading BOM.
    /// With `shard`, only its domains are kept (and their repeats); the others are counted in
    /// `inOtherShards`, and every bad line is still a problem, as every shard reports them.
    public static func parse(_ data: Data, file: String?, keeping shard: Shard? = nil) -> DomainList {
        var builder = Builder()
        builder.shard = shard
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
            var lineNumber = 0
            while start < bytes.count {
                lineNumber += 1
                var end = start
                while end < bytes.count, bytes[end] != 0x0A { end += 1 }
                var contentEnd = end
                if contentEnd > start, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                builder.addLine(UnsafeBufferPointer(rebasing: bytes[start..<contentEnd]), file: file, line: lineNumber)
                start = end + 1
            }
        }
        var list = builder.list
        // Grown by doubling as it was read, and held for the whole run: copied to its own size (a
        // list grown by doubling can have up to half of its room spare).
        if list.entries.capacity > list.entries.count + list.entries.count / 8 {
            list.entries = list.entries.withUnsafeBufferPointer { Array($0) }
        }
        return list
    }

    /// Parses command-line domains: `file` is nil and `line` is the 1-based argument position.
    /// Arguments have no comments; an empty one is a problem, since it was given on purpose.
    public static func parse(arguments: [String]) -> DomainList {
        var builder = Builder()
        // A token with "=" is never a host: it is an expectation (the keys of domains.txt) of the
        // domain argument before it, as if written after it on one line.
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard !argument.contains("=") else {
                builder.problem(file: nil, line: index + 1, text: argument,
                                reason: "an expectation (KEY=VALUE) before any domain; write it after the domain it is about: aasa-audit example.com \(argument)")
                index += 1
                continue
            }
            var tokens: [Substring] = []
            var next = index + 1
            while next < arguments.count, arguments[next].contains("=") {
                tokens.append(Substring(arguments[next]))
                next += 1
            }
            if tokens.isEmpty {
                builder.add(text: argument, content: argument, file: nil, line: index + 1)
            } else {
                let (expectations, errors) = DomainExpectations.parseSkippingErrors(tokens)
                let text = ([argument] + tokens.map(String.init)).joined(separator: " ")
                if builder.add(text: text, content: argument, file: nil, line: index + 1, expectations: expectations) {
                    for error in errors {
                        builder.problem(file: nil, line: index + 1, text: text,
                                        reason: "\(error.description); this token is skipped, and \(argument) is still audited with its other expectations")
                    }
                }
            }
            index = next
        }
        return builder.list
    }

    /// Joins lists (e.g. several files and the arguments), keeping the first entry of each domain;
    /// later repeats move to `duplicates`.
    public static func combining(_ lists: [DomainList]) -> DomainList {
        var result = DomainList()
        var position: [String: Int] = [:]
        var seen: [Int: Set<String>] = [:]
        for list in lists {
            for entry in list.entries {
                if let first = position[entry.name.ascii] {
                    // Taken out and put back, so the set is updated in place, not copied.
                    var tokens = seen.removeValue(forKey: first) ?? result.entries[first].expectations.tokens
                    result.entries[first].expectations.add(entry.expectations, seen: &tokens)
                    seen[first] = tokens
                    if entry.expectations.isEmpty { result.record(duplicate: entry) }
                } else {
                    position[entry.name.ascii] = result.entries.count
                    result.entries.append(entry)
                }
            }
            for problem in list.problems { result.record(problem) }
            result.problemsOmitted += list.problemsOmitted
            for duplicate in list.duplicates { result.record(duplicate: duplicate) }
            result.duplicatesOmitted += list.duplicatesOmitted
        }
        return result
    }

    /// Accumulates lines; the sets and the cache keep a million repeated lines linear and cheap.
    private struct Builder {
        var list = DomainList()
        /// Each accepted domain's index in `list.entries`, so repeats add their expectations to it.
        var position: [String: Int] = [:]
        /// The expectation tokens each domain (by index) already has, so that a repeat is found in
        /// constant time: half a million expectation lines for one domain stay linear.
        var expectationTokens: [Int: Set<String>] = [:]
        /// Parse results by content, so a repeated line is not parsed again (the first
        /// `parsedCacheLimit` distinct ones).
        var parsed: [String: (name: DomainName, note: String?)] = [:]
        static let parsedCacheLimit = 4096
        /// The shard whose domains are kept; nil keeps every domain.
        var shard: Shard?
        /// The hashes of the distinct domains of other shards (8 bytes each instead of an entry).
        var otherShards: Set<UInt64> = []

        mutating func addLine(_ bytes: UnsafeBufferPointer<UInt8>, file: String?, line: Int) {
            // Control bytes first: they are the clearest sign of a binary file.
            var isASCII = true
            for byte in bytes {
                if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
                    problem(file: file, line: line, text: lossy(bytes), reason: DomainNameError.notText(UInt32(byte)).description)
                    return
                }
                if byte >= 0x80 { isASCII = false }
            }
            if !isASCII, let offset = firstInvalidUTF8(bytes) {
                let hex = String(bytes[offset], radix: 16, uppercase: true)
                let reason = "not text: not valid UTF-8 (byte 0x\(hex.count < 2 ? "0" + hex : hex) at column \(offset + 1))"
                problem(file: file, line: line, text: lossy(bytes), reason: reason)
                return
            }
            let text = String(decoding: bytes, as: UTF8.self)
            guard bytes.count <= DomainList.maximumLineBytes else {
                problem(file: file, line: line, text: text,
                        reason: "line is \(bytes.count) bytes long; too long to be a domain name or URL")
                return
            }
            var content = Substring(text)
            if let first = content.firstIndex(where: { !$0.isWhitespace }) {
                content = content[first...]
            } else {
                return  // blank
            }
            if content.hasPrefix("#") { return }
            // A comment after the domain needs whitespace before "#", so a URL fragment stays part of the URL.
            if let hash = content.indices.first(where: { index in
                content[index] == "#" && index > content.startIndex
                    && content[content.index(before: index)].isWhitespace
            }) {
                content = content[..<hash]
            }
            let trimmed = content.trimmingWhitespace()
            // Tokens after the domain are expectations (KEY=VALUE). A line whose extra words have no "="
            // goes to the domain parser whole, which names the space ("several domains on one line?").
            // Most lines are a bare domain: look at the bytes before splitting anything.
            guard trimmed.utf8.contains(UInt8(ascii: "=")),
                  trimmed.utf8.contains(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else {
                add(text: text, content: trimmed, file: file, line: line)
                return
            }
            let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count > 1, words.dropFirst().contains(where: { $0.contains("=") }) else {
                add(text: text, content: trimmed, file: file, line: line)
                return
            }
            // A bad token is skipped alone: the domain is still audited with its other expectations.
            let (expectations, errors) = DomainExpectations.parseSkippingErrors(Array(words.dropFirst()))
            guard add(text: text, content: String(words[0]), file: file, line: line, expectations: expectations) else { return }
            for error in errors {
                problem(file: file, line: line, text: text,
                        reason: "\(error.description); this token is skipped, and \(words[0]) is still audited with its other expectations")
            }
        }

        /// Adds the domain `content`; false when it is not one (a problem is recorded).
        @discardableResult
        mutating func add(text: String, content: String, file: String?, line: Int,
                          expectations: DomainExpectations = DomainExpectations()) -> Bool {
            let result: (name: DomainName, note: String?)
            if let cached = parsed[content] {
                result = cached
            } else {
                do {
                    result = try DomainName.parse(content)
                } catch {
                    problem(file: file, line: line, text: text, reason: error.description)
                    return false
                }
                // Enough for a list that repeats a few thousand lines over and over; a list of
                // distinct names would otherwise hold each of them twice while it is read.
                if parsed.count < Self.parsedCacheLimit { parsed[content] = result }
            }
            if let shard {
                let hash = Shard.fnv1a(result.name.ascii)
                guard shard.contains(hash: hash) else {
                    if otherShards.insert(hash).inserted { list.inOtherShards += 1 }
                    return true
                }
            }
            // A line that is just its name (most lines) shares the name's storage.
            let entry = DomainEntry(name: result.name, file: file, line: line, text: text == result.name.ascii ? result.name.ascii : text,
                                    note: result.note, expectations: expectations)
            if let first = position[result.name.ascii] {
                if !expectations.isEmpty {
                    // Taken out and put back, so the set is updated in place, not copied.
                    var tokens = expectationTokens.removeValue(forKey: first) ?? list.entries[first].expectations.tokens
                    list.entries[first].expectations.add(expectations, seen: &tokens)
                    expectationTokens[first] = tokens
                }
                // A repeat that adds expectations is a continuation, not a duplicate.
                if expectations.isEmpty { list.record(duplicate: entry) }
            } else {
                position[result.name.ascii] = list.entries.count
                list.entries.append(entry)
            }
            return true
        }

        mutating func problem(file: String?, line: Int, text: String, reason: String) {
            // Past the kept ones, only counted: no text is built for them.
            guard list.problems.count < DomainList.maximumKeptProblems else {
                list.problemsOmitted += 1
                return
            }
            let limit = DomainList.maximumShownCharacters
            let shown = text.count > limit ? text.prefix(limit) + "…" : text
            list.record(InputProblem(file: file, line: line, text: shown, reason: reason))
        }

        /// The bytes as text with U+FFFD for what is not UTF-8, read only up to what will be shown.
        /// Decoded by hand: `String(decoding:)` repairs by throwing internally (slow wherever thrown
        /// errors are traced, as under Swift Testing) and the generic UTF-8 parser is slow unoptimised.
        func lossy(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
            let cut = min(bytes.count, DomainList.maximumShownCharacters * 4)
            var scalars = String.UnicodeScalarView()
            var offset = 0
            while offset < cut {
                let (scalar, length) = decodeUTF8(bytes, at: offset)
                scalars.append(scalar ?? "\u{FFFD}")
                offset += length
            }
            return String(scalars) + (cut < bytes.count ? "…" : "")
        }

        /// The offset of the first byte that does not start valid UTF-8, or nil when all is valid.
        func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            var offset = 0
            while offset < bytes.count {
                let (scalar, length) = decodeUTF8(bytes, at: offset)
                if scalar == nil { return offset }
                offset += length
            }
            return nil
        }

        /// One scalar at `offset` (RFC 3629: no overlong forms, surrogates or values past U+10FFFF),
        /// or nil and the length of the malformed part to skip.
        func decodeUTF8(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (Unicode.Scalar?, Int) {
            let lead = bytes[offset]
            let count: Int
            var value: UInt32
            var secondRange: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
            case 0xC2...0xDF: count = 2; value = UInt32(lead & 0x1F)
            case 0xE0: count = 3; value = 0; secondRange = 0xA0...0xBF
            case 0xED: count = 3; value = 0xD; secondRange = 0x80...0x9F
            case 0xE1...0xEF: count = 3; value = UInt32(lead & 0x0F)
            case 0xF0: count = 4; value = 0; secondRange = 0x90...0xBF
            case 0xF4: count = 4; value = 4; secondRange = 0x80...0x8F
            case 0xF1...0xF3: count = 4; value = UInt32(lead & 0x07)
            default: return (nil, 1)
            }
            for index in 1..<count {
                let position = offset + index
                guard position < bytes.count else { return (nil, index) }
                let byte = bytes[position]
                guard index == 1 ? secondRange.contains(byte) : (0x80...0xBF).contains(byte) else { return (nil, index) }
                value = value << 6 | UInt32(byte & 0x3F)
            }
            return (Unicode.Scalar(value), count)
        }
    }
}
