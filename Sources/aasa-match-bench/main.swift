import AASA
import Foundation

// Benchmark of the matching engine: a generated document with a few hundred rules (paths, exclusions,
// query items, fragments, case folding, decoded paths, substitution variables) and a set of generated
// URLs; prints URLs decided per second. Usage: aasa-match-bench [RULES] [URLS] [MAX_SECONDS]
// Exits 1 when deciding all URLs takes more than MAX_SECONDS (default 1) of CPU time (wall time is
// printed too; on a shared machine it also counts the time other processes had the CPU).

let arguments = CommandLine.arguments.dropFirst().compactMap { Double($0) }
let ruleCount = Int(arguments.first ?? 400)
let urlCount = Int(arguments.dropFirst().first ?? 100_000)
let maxSeconds = arguments.dropFirst(2).first ?? 1.0

/// A small deterministic generator (64-bit LCG), so every run decides the same URLs.
struct Generator {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}

let sections = ["shop", "help", "blog", "account", "product", "category", "order", "news", "video", "event"]
var components: [String] = []
var generator = Generator()
for index in 0..<ruleCount {
    let section = sections[index % sections.count]
    switch index % 8 {
    case 0: components.append(#"{"/":"/\#(section)/\#(index)/private/*","exclude":true}"#)
    case 1: components.append(#"{"/":"/\#(section)/\#(index)/*"}"#)
    case 2: components.append(#"{"/":"/\#(section)/item-\#(index)","?":{"ref":"?*","id":"????"}}"#)
    case 3: components.append(#"{"/":"/\#(section)/\#(index)/*/detail","caseSensitive":false}"#)
    case 4: components.append(##"{"/":"/\##(section)/\##(index)","#":"tab-*"}"##)
    case 5: components.append(#"{"/":"/\#(section)/caf\#u{e9}-\#(index)/*","percentEncoded":false}"#)
    case 6: components.append(#"{"/":"/$(lang)-$(region)/\#(section)/\#(index)/*"}"#)
    default: components.append(#"{"/":"/\#(section)/$(kind)/\#(index)"}"#)
    }
}
components.append(#"{"/":"/legal/*","exclude":true}"#)
let half = components.count / 2
let json = """
    {"applinks":{"substitutionVariables":{"kind":["new","used","refurbished"]},"details":[
      {"appIDs":["ABQ7KM3X2P.com.exemplo.app"],"components":[\(components[..<half].joined(separator: ","))]},
      {"appIDs":["ABQ7KM3X2P.com.exemplo.app","ABQ7KM3X2P.com.exemplo.other"],"components":[\(components[half...].joined(separator: ","))]}
    ]}}
    """

var urls: [String] = []
urls.reserveCapacity(urlCount)
for _ in 0..<urlCount {
    let index = generator.next(ruleCount + ruleCount / 4)  // about a fifth match nothing
    let section = sections[index % sections.count]
    let url: String
    // Mostly the shape of the rule with that number (so URLs match at every depth of the list),
    // sometimes another shape (so they fall through).
    switch generator.next(10) < 8 ? index % 8 : generator.next(8) {
    case 0: url = "https://example.com/\(section)/\(index)/private/x?utm=\(generator.next(1000))"
    case 1: url = "https://example.com/\(section)/\(index)/a/b/c"
    case 2: url = "https://example.com/\(section)/item-\(index)?ref=mail&id=\(1000 + generator.next(9000))"
    case 3: url = "https://example.com/\(section.uppercased())/\(index)/X/DETAIL"
    case 4: url = "https://example.com/\(section)/\(index)#tab-\(generator.next(5))"
    case 5: url = "https://example.com/\(section)/caf%C3%A9-\(index)/menu"
    case 6: url = "https://example.com/en-GB/\(section)/\(index)/page"
    default: url = "https://example.com/\(section)/used/\(index)"
    }
    urls.append(url)
}

let compileStart = DispatchTime.now()
guard let matcher = URLMatcher(json: Array(json.utf8), host: "example.com") else {
    print("aasa-match-bench: the generated document does not parse")
    exit(2)
}
let compileSeconds = Double(DispatchTime.now().uptimeNanoseconds - compileStart.uptimeNanoseconds) / 1e9

/// CPU seconds used by this process: on a shared machine, wall time also measures the neighbours.
func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

var counts: [MatchDecision: Int] = [:]
let cpuStart = cpuSeconds()
let start = DispatchTime.now()
for url in urls {
    guard let result = try? matcher.decide(url) else { continue }
    counts[result.decision, default: 0] += 1
}
let wall = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
let seconds = cpuSeconds() - cpuStart

let rate = Double(urls.count) / seconds
print("rules: \(components.count) in 2 details entries (compiled in \(String(format: "%.1f", compileSeconds * 1000)) ms)")
print("urls: \(urls.count): match \(counts[.match] ?? 0), exclude \(counts[.exclude] ?? 0), no_match \(counts[.noMatch] ?? 0)")
print("decided in \(String(format: "%.3f", seconds)) s of CPU (\(String(format: "%.3f", wall)) s wall): \(String(format: "%.0f", rate)) URLs/s")
var slow = false
if seconds > maxSeconds {
    print("aasa-match-bench: slower than the target of \(maxSeconds) s of CPU for \(urls.count) URLs")
    slow = true
}

// Hostile documents of about 128 KB (Apple's limit) through every document check, the match.* lint
// included, as the audit runs them on every fetched file: each must stay well under a second.
let app = "ABQ7KM3X2P.com.exemplo.app"
func document(_ components: [String]) -> [UInt8] {
    Array(#"{"applinks":{"details":[{"appIDs":["\#(app)"],"components":[\#(components.joined(separator: ","))]}]}}"#.utf8)
}
let hostile: [(String, [UInt8])] = [
    ("9,000 distinct rules", document((0..<9000).map { #"{"/":"/p\#($0)/*"}"# })),
    ("12,000 identical prefix rules", document(Array(repeating: #"{"/":"/a*"}"#, count: 12000))),
    ("a 90 KB comment, then 3,000 rules it covers",
     document([#"{"/":"/a*","comment":"\#(String(repeating: "x", count: 90_000))"}"#] + (0..<3000).map { #"{"/":"/a/b\#($0)"}"# })),
    ("$(nope) 5,000 times in one pattern", document([#"{"/":"\#(String(repeating: "$(nope)", count: 5000))"}"#])),
    ("a pattern of 60,000 \"*a\"", document([#"{"/":"\#(String(repeating: "*a", count: 60_000))b"}"#])),
]
let maxDocumentSeconds = 0.5
for (name, bytes) in hostile {
    let before = cpuSeconds()
    let validation = DocumentValidator.validate(json: bytes)
    let spent = cpuSeconds() - before
    let size = validation.findings.reduce(0) { $0 + $1.message.utf8.count + ($1.fix?.utf8.count ?? 0) }
    print("checked \(name) (\(bytes.count / 1024) KB): \(validation.findings.count) findings, \(size / 1024) KB of messages, "
        + "\(String(format: "%.3f", spent)) s of CPU")
    if spent > maxDocumentSeconds {
        print("aasa-match-bench: checking \(name) took more than \(maxDocumentSeconds) s of CPU")
        slow = true
    }
}
// And deciding a 4 KB URL against a pattern that uses a variable of 400 wildcard values 300 times.
let values = (1..<400).map { "\"" + String(repeating: "a", count: $0) + "*\"" }.joined(separator: ",")
let variableDocument = #"{"applinks":{"substitutionVariables":{"v":[\#(values)]},"details":[{"appIDs":["\#(app)"],"components":[{"/":"/\#(String(repeating: "$(v)", count: 300))"}]}]}}"#
let before = cpuSeconds()
if let variableMatcher = URLMatcher(json: Array(variableDocument.utf8)) {
    let decision = (try? variableMatcher.decide("/" + String(repeating: "a", count: 4000)))?.decision.rawValue ?? "error"
    let spent = cpuSeconds() - before
    print("decided a 4 KB URL against $(v) 300 times with 400 wildcard values (\(variableDocument.utf8.count / 1024) KB): \(decision), "
        + "\(String(format: "%.3f", spent)) s of CPU")
    if spent > maxDocumentSeconds * 4 {
        print("aasa-match-bench: deciding it took more than \(maxDocumentSeconds * 4) s of CPU")
        slow = true
    }
}
if slow { exit(1) }
