/// One AASA pattern compiled for matching: `*` (zero or more characters), `?` (exactly one
/// character) and `$(name)` substitution variables, over UTF-8 bytes. Compiled once per document.
///
/// A variable becomes a choice among its values (each value may itself use `*` and `?`). Matching
/// tracks the set of input positions reachable after each element, so a pattern with several
/// variables costs (elements × input length), never the product of the variables' sizes. Patterns
/// without variables use the classic star-backtracking loop, which allocates nothing.
public struct GlobPattern: Sendable, Equatable {
    /// One element of a compiled pattern.
    enum Element: Sendable, Equatable {
        /// This byte, exactly.
        case byte(UInt8)
        /// Exactly one character (one UTF-8 encoded scalar).
        case one
        /// Zero or more characters.
        case star
        /// One of the alternatives in `choices[index]`.
        case choice(Int)
    }

    /// The pattern's elements in order.
    var elements: [Element]
    /// The alternatives of each `.choice`.
    var choices: [Choice]
    /// The bytes every match starts with (up to the first wildcard or variable), for a quick reject.
    var literalPrefix: [UInt8]
    /// True when the pattern is only bytes and `*` and `?` (the allocation-free path applies).
    var isSimple: Bool { choices.isEmpty }

    /// Compiles `pattern`. `variables` resolves `$(name)`; an unresolved name makes the pattern match
    /// nothing (Apple's reading: a pattern with an undefined variable never matches). With `foldCase`,
    /// literal text and variable values are lower-cased, and the input must be folded the same way.
    public init(_ pattern: String, variables: (String) -> [String]? = { _ in nil }, foldCase: Bool = false) {
        self.init(pattern, compiled: VariableChoices(), foldCase: foldCase, values: variables)
    }

    /// Compiles `pattern`, taking each variable's compiled values from `compiled` (a document compiles
    /// a variable once, however many patterns use it). Within the pattern, every use of a variable
    /// refers to the same choice, so `$(v)` written 300 times costs one compiled copy of its values.
    init(_ pattern: String, compiled: VariableChoices, foldCase: Bool, values: (String) -> [String]?) {
        var elements: [Element] = []
        var choices: [Choice] = []
        var positions: [String: Int] = [:]
        var matchesNothing = false
        for piece in Self.pieces(of: pattern) {
            switch piece {
            case .text(let text):
                elements += Self.wildcardElements(foldCase ? Self.folded(text) : text)
            case .variable(let name):
                if let position = positions[name] {
                    elements.append(.choice(position))
                    continue
                }
                guard let choice = compiled.choice(name, foldCase: foldCase, values: values) else {
                    matchesNothing = true
                    continue
                }
                positions[name] = choices.count
                elements.append(.choice(choices.count))
                choices.append(choice)
            }
        }
        if matchesNothing {
            // An impossible choice: no alternatives.
            elements = [.choice(0)]
            choices = [Choice()]
        }
        self.elements = elements
        self.choices = choices
        var prefix: [UInt8] = []
        for element in elements {
            guard case .byte(let byte) = element else { break }
            prefix.append(byte)
        }
        literalPrefix = prefix
        requiredText = Self.longestLiteralRun(elements)
    }

    /// The longest run of fixed bytes outside variables: every match contains it, so a pattern with
    /// variables can reject most inputs with one search before the position-set walk.
    var requiredText: [UInt8] = []

    static func longestLiteralRun(_ elements: [Element]) -> [UInt8] {
        var best: [UInt8] = [], run: [UInt8] = []
        for element in elements {
            if case .byte(let byte) = element {
                run.append(byte)
                if run.count > best.count { best = run }
            } else {
                run.removeAll(keepingCapacity: true)
            }
        }
        return best
    }

    /// Whether `needle` occurs in `input` (naive search: needles and inputs are short).
    static func contains(_ input: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard needle.count <= input.count else { return false }
        guard let first = needle.first else { return true }
        var start = 0
        while start + needle.count <= input.count {
            if input[start] == first {
                var offset = 1
                while offset < needle.count, input[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    /// True when the pattern matches all of `input` (already folded when the pattern was compiled with `foldCase`).
    public func matches(_ input: [UInt8]) -> Bool {
        input.withUnsafeBufferPointer { matches($0) }
    }

    /// True when the pattern matches all of `input`.
    public func matches(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        if input.count < literalPrefix.count { return false }
        for index in literalPrefix.indices where input[index] != literalPrefix[index] { return false }
        if isSimple { return elements.withUnsafeBufferPointer { Self.simpleMatch($0, input) } }
        if !Self.contains(input, requiredText) { return false }
        return setMatch(input)
    }

    /// The values of one variable: the plain ones in a trie (one walk per position, however many
    /// values), the ones with wildcards as element sequences.
    struct Choice: Sendable, Equatable {
        var literals = ByteTrie()
        /// The values with wildcards, sharing their common starts (see `ElementTrie`).
        var wildcards = ElementTrie()

        /// Compiles `values` (nil when there are none: a variable without values matches nothing).
        init?(_ values: [String], foldCase: Bool) {
            guard !values.isEmpty else { return nil }
            var seen = Set<String>()
            var patterns: [[Element]] = []
            for value in values {
                let text = foldCase ? GlobPattern.folded(value) : value
                guard seen.insert(text).inserted else { continue }
                let alternative = GlobPattern.wildcardElements(text)
                if alternative.allSatisfy({ if case .byte = $0 { return true } else { return false } }) {
                    literals.insert(Array(text.utf8))
                } else {
                    patterns.append(alternative)
                }
            }
            wildcards = ElementTrie(patterns)
        }

        init() {}
    }

    // MARK: Parsing

    enum Piece: Equatable {
        case text(String)
        case variable(String)
    }

    /// The pattern split into literal text (with wildcards) and `$(name)` references; an unclosed
    /// `$(` is literal text, as in `SubstitutionVariablesCheck.references`.
    static func pieces(of pattern: String) -> [Piece] {
        var pieces: [Piece] = []
        var text = ""
        var rest = Substring(pattern)
        while let dollar = rest.firstIndex(of: "$") {
            let afterDollar = rest.index(after: dollar)
            guard afterDollar < rest.endIndex, rest[afterDollar] == "(" else {
                text += rest[..<afterDollar]
                rest = rest[afterDollar...]
                continue
            }
            guard let close = rest[afterDollar...].firstIndex(of: ")") else {
                // No ")" closes this "$(", so none closes a later one: the rest is text (looking
                // again for each later "$(" made 30,000 of them take 22 s).
                break
            }
            text += rest[..<dollar]
            if !text.isEmpty { pieces.append(.text(text)) }
            text = ""
            pieces.append(.variable(String(rest[rest.index(after: afterDollar)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        text += rest
        if !text.isEmpty { pieces.append(.text(text)) }
        return pieces
    }

    static func wildcardElements(_ text: String) -> [Element] {
        text.utf8.map { byte in
            switch byte {
            case UInt8(ascii: "*"): return .star
            case UInt8(ascii: "?"): return .one
            default: return .byte(byte)
            }
        }
    }

    /// Lower-cased text: ASCII by table, anything else by Unicode's lower-case mapping.
    public static func folded(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        return text.lowercased()
    }

    /// Lower-cased bytes, the same mapping as `folded(_:)`.
    public static func folded(_ bytes: [UInt8]) -> [UInt8] {
        if bytes.allSatisfy({ $0 < 0x80 }) {
            return bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        }
        return Array(String(decoding: bytes, as: UTF8.self).lowercased().utf8)
    }

    // MARK: Matching

    /// The length of the UTF-8 scalar starting at `position`, or 0 when `position` is inside one.
    @inline(__always)
    static func scalarLength(_ input: UnsafeBufferPointer<UInt8>, at position: Int) -> Int {
        let lead = input[position]
        let length: Int
        switch lead {
        case 0..<0x80: return 1
        case 0x80..<0xC0: return 0
        case 0xC0..<0xE0: length = 2
        case 0xE0..<0xF0: length = 3
        default: length = 4
        }
        return min(length, input.count - position)
    }

    /// Wildcard matching for a flat sequence (no choices), with one remembered star to backtrack to:
    /// linear on typical patterns, (pattern × input) at worst, and no allocation.
    static func simpleMatch(_ pattern: UnsafeBufferPointer<Element>, _ input: UnsafeBufferPointer<UInt8>) -> Bool {
        var p = 0, i = 0
        var starP = -1, starI = 0
        while i < input.count {
            if p < pattern.endIndex {
                switch pattern[p] {
                case .byte(let byte) where byte == input[i]:
                    p += 1; i += 1; continue
                case .one:
                    let length = scalarLength(input, at: i)
                    if length > 0 { p += 1; i += length; continue }
                case .star:
                    starP = p; starI = i; p += 1; continue
                default: break
                }
            }
            guard starP >= 0 else { return false }
            starI += 1
            i = starI
            p = starP + 1
        }
        while p < pattern.endIndex, pattern[p] == .star { p += 1 }
        return p == pattern.endIndex
    }

    /// Matching by sets of reachable positions (one bit per input position), for patterns with choices.
    func setMatch(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        let words = (input.count + 1 + 63) / 64
        // Two sets for the pattern, two for stepping through a chain of a variable's wildcard
        // values, and one per level of the deepest wildcard trie (see `ElementTrie.advance`).
        let levels = choices.reduce(0) { max($0, $1.wildcards.isEmpty ? 0 : $1.wildcards.depth + 1) }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: words * (4 + levels)) { scratch in
            let base = scratch.baseAddress!
            let current = UnsafeMutableBufferPointer(start: base, count: words)
            let next = UnsafeMutableBufferPointer(start: base + words, count: words)
            for index in 0..<(words * 2) { base[index] = 0 }
            current[0] = 1
            var from = current, to = next
            for element in elements {
                Self.clear(to)
                if case .choice(let index) = element {
                    let choice = choices[index]
                    choice.literals.advance(from: from, to: to, input)
                    if !choice.wildcards.isEmpty {
                        choice.wildcards.advance(from: from, to: to, input, scratch: base + 2 * words, levels: base + 4 * words)
                    }
                } else {
                    Self.step(element, from: from, to: to, input)
                }
                swap(&from, &to)
                if from.allSatisfy({ $0 == 0 }) { return false }
            }
            let end = input.count
            return from[end >> 6] & (1 << UInt64(end & 63)) != 0
        }
    }

    fileprivate static func clear(_ set: UnsafeMutableBufferPointer<UInt64>) {
        for index in set.indices { set[index] = 0 }
    }

    fileprivate static func copy(_ source: UnsafeMutableBufferPointer<UInt64>, into target: UnsafeMutableBufferPointer<UInt64>) {
        for index in source.indices { target[index] = source[index] }
    }

    /// Advances every position in `from` over one element (not a choice) into `to`.
    fileprivate static func step(_ element: Element, from: UnsafeMutableBufferPointer<UInt64>, to: UnsafeMutableBufferPointer<UInt64>,
                             _ input: UnsafeBufferPointer<UInt8>) {
        let count = input.count
        func set(_ position: Int) { to[position >> 6] |= 1 << UInt64(position & 63) }
        for word in from.indices where from[word] != 0 {
            var bits = from[word]
            while bits != 0 {
                let position = word * 64 + bits.trailingZeroBitCount
                bits &= bits - 1
                switch element {
                case .byte(let byte):
                    if position < count, input[position] == byte { set(position + 1) }
                case .one:
                    if position < count {
                        let length = scalarLength(input, at: position)
                        if length > 0 { set(position + length) }
                    }
                case .star:
                    // Every position from the first reachable one onwards.
                    for later in position...count { set(later) }
                    return
                case .choice:
                    return
                }
            }
        }
    }
}

/// A variable's values with wildcards as a trie of pattern elements, each run of single-child nodes
/// merged into one edge: values that share a start (`a*`, `aa*`, `aaa*` ...) are stepped through once,
/// so a choice costs (trie size × input words), not (total length of the values × input words).
/// (400 such values used 300 times in one pattern took over a minute against a 4 KB URL.)
struct ElementTrie: Sendable, Equatable {
    struct Edge: Sendable, Equatable {
        var elements: [GlobPattern.Element]
        var node: Int
    }

    private(set) var edges: [[Edge]] = [[]]
    private(set) var terminal: [Bool] = [false]
    /// The most edges on a path from the root: a walk keeps one set per level.
    private(set) var depth = 0

    var isEmpty: Bool { edges[0].isEmpty && !terminal[0] }

    init() {}

    init(_ alternatives: [[GlobPattern.Element]]) {
        var plainEdges: [[(element: GlobPattern.Element, node: Int)]] = [[]]
        var plainTerminal = [false]
        for alternative in alternatives {
            var node = 0
            for element in alternative {
                if let next = plainEdges[node].first(where: { $0.element == element }) {
                    node = next.node
                } else {
                    plainEdges.append([])
                    plainTerminal.append(false)
                    plainEdges[node].append((element, plainEdges.count - 1))
                    node = plainEdges.count - 1
                }
            }
            plainTerminal[node] = true
        }
        // Merge chains, with a work list rather than recursion (a value may be 100,000 elements long).
        var work: [(plain: Int, node: Int, level: Int)] = [(0, 0, 0)]
        while let item = work.popLast() {
            depth = max(depth, item.level)
            terminal[item.node] = plainTerminal[item.plain]
            for edge in plainEdges[item.plain] {
                var chain = [edge.element]
                var end = edge.node
                while !plainTerminal[end], plainEdges[end].count == 1 {
                    chain.append(plainEdges[end][0].element)
                    end = plainEdges[end][0].node
                }
                edges.append([])
                terminal.append(false)
                edges[item.node].append(Edge(elements: chain, node: edges.count - 1))
                work.append((end, edges.count - 1, item.level + 1))
            }
        }
    }

    /// For every position in `from`, sets in `to` the end of every value that matches from there.
    /// `scratch` has room for two sets and `levels` for `depth + 1`, each of `from.count` words.
    func advance(from: UnsafeMutableBufferPointer<UInt64>, to: UnsafeMutableBufferPointer<UInt64>,
                 _ input: UnsafeBufferPointer<UInt8>, scratch: UnsafeMutablePointer<UInt64>, levels: UnsafeMutablePointer<UInt64>) {
        let words = from.count
        func level(_ index: Int) -> UnsafeMutableBufferPointer<UInt64> {
            UnsafeMutableBufferPointer(start: levels + index * words, count: words)
        }
        GlobPattern.copy(from, into: level(0))
        if terminal[0] { for word in 0..<words { to[word] |= from[word] } }
        // Depth first: (node, next edge to try, level of its set).
        var stack: [(node: Int, edge: Int, level: Int)] = [(0, 0, 0)]
        while var top = stack.popLast() {
            guard top.edge < edges[top.node].count else { continue }
            let edge = edges[top.node][top.edge]
            top.edge += 1
            stack.append(top)
            var current = UnsafeMutableBufferPointer(start: scratch, count: words)
            var next = UnsafeMutableBufferPointer(start: scratch + words, count: words)
            GlobPattern.copy(level(top.level), into: current)
            var alive = true
            for element in edge.elements {
                GlobPattern.clear(next)
                GlobPattern.step(element, from: current, to: next, input)
                swap(&current, &next)
                if current.allSatisfy({ $0 == 0 }) {
                    alive = false
                    break
                }
            }
            guard alive else { continue }
            if terminal[edge.node] { for word in 0..<words { to[word] |= current[word] } }
            if !edges[edge.node].isEmpty {
                GlobPattern.copy(current, into: level(top.level + 1))
                stack.append((edge.node, 0, top.level + 1))
            }
        }
    }
}

/// A set of byte strings as a trie, to find every member that starts at a position in one walk.
struct ByteTrie: Sendable, Equatable {
    /// Each node's children as (byte, node index), few per node; node 0 is the root.
    private var children: [[(byte: UInt8, node: Int32)]] = [[]]
    /// Whether a member ends at each node.
    private var terminal: [Bool] = [false]

    static func == (lhs: ByteTrie, rhs: ByteTrie) -> Bool {
        lhs.terminal == rhs.terminal && lhs.children.elementsEqual(rhs.children) { $0.elementsEqual($1) { $0 == $1 } }
    }

    mutating func insert(_ member: [UInt8]) {
        var node = 0
        for byte in member {
            if let next = children[node].first(where: { $0.byte == byte }) {
                node = Int(next.node)
            } else {
                children.append([])
                terminal.append(false)
                children[node].append((byte, Int32(children.count - 1)))
                node = children.count - 1
            }
        }
        terminal[node] = true
    }

    /// For every position in `from`, sets in `to` the end of every member found at that position.
    func advance(from: UnsafeMutableBufferPointer<UInt64>, to: UnsafeMutableBufferPointer<UInt64>, _ input: UnsafeBufferPointer<UInt8>) {
        guard children[0].count > 0 || terminal[0] else { return }
        for word in from.indices where from[word] != 0 {
            var bits = from[word]
            while bits != 0 {
                let start = word * 64 + bits.trailingZeroBitCount
                bits &= bits - 1
                var node = 0, position = start
                while true {
                    if terminal[node] { to[position >> 6] |= 1 << UInt64(position & 63) }
                    guard position < input.count, let next = children[node].first(where: { $0.byte == input[position] }) else { break }
                    node = Int(next.node)
                    position += 1
                }
            }
        }
    }
}

/// Substitution variables compiled once per document: by name and case folding, the compiled values
/// (or nil for an undefined variable). 4,000 uses of `$(lang)` and `$(region)` in 2,000 rules share
/// two compiled lists instead of building 4,000 tries. Used only while a matcher is compiled.
final class VariableChoices {
    private struct Key: Hashable {
        var name: String
        var foldCase: Bool
    }

    private var compiled: [Key: GlobPattern.Choice?] = [:]

    /// How many variables (per folding) were compiled.
    var count: Int { compiled.count }

    /// The compiled values of `name`, from `values` the first time it is asked for.
    func choice(_ name: String, foldCase: Bool, values: (String) -> [String]?) -> GlobPattern.Choice? {
        let key = Key(name: name, foldCase: foldCase)
        if let known = compiled[key] { return known }
        let choice = values(name).flatMap { GlobPattern.Choice($0, foldCase: foldCase) }
        compiled[key] = choice
        return choice
    }
}
