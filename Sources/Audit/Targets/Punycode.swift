/// RFC 3492 Punycode for one DNS label, without the `xn--` prefix.
///
/// Written here because Foundation on Linux has no IDNA conversion and the project takes no outside packages.
/// Mixed-case annotation (RFC 3492 appendix A) is not produced: host names are compared lower-case anyway.
public enum Punycode {
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 0x80
    private static let delimiter = UInt8(ascii: "-")
    /// Arithmetic is bounded so hostile input fails instead of trapping on overflow.
    private static let maxInt = Int(Int32.max)

    /// Encodes a Unicode label (e.g. `bücher`) to its Punycode form (e.g. `bcher-kva`).
    /// Returns nil only when the label is too long for the arithmetic (far beyond any DNS label).
    public static func encode(_ label: String) -> String? {
        let input = label.unicodeScalars.map { Int($0.value) }
        var output: [UInt8] = input.compactMap { $0 < initialN ? UInt8($0) : nil }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(delimiter) }

        var n = initialN
        var delta = 0
        var bias = initialBias
        while handled < input.count {
            // The smallest code point not yet handled; one exists because handled < count.
            guard let m = input.lazy.filter({ $0 >= n }).min() else { return nil }
            let (step, stepOverflow) = (m - n).multipliedReportingOverflow(by: handled + 1)
            guard !stepOverflow, delta + step <= maxInt else { return nil }
            delta += step
            n = m
            for c in input {
                if c < n {
                    delta += 1
                    guard delta <= maxInt else { return nil }
                }
                if c == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = threshold(k, bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, handled + 1, first: handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes a Punycode label (e.g. `bcher-kva`) to Unicode (e.g. `bücher`).
    /// Returns nil for anything that is not valid Punycode: non-ASCII input, bad digits,
    /// truncated numbers, overflow, or code points that are not Unicode scalars.
    public static func decode(_ label: String) -> String? {
        let input = Array(label.utf8)
        // Everything before the last delimiter is copied literally (RFC 3492 section 6.2).
        let lastDelimiter = input.lastIndex(of: delimiter) ?? 0
        var output: [Int] = []
        for byte in input[..<lastDelimiter] {
            guard byte < 0x80 else { return nil }
            output.append(Int(byte))
        }

        var n = initialN
        var i = 0
        var bias = initialBias
        var position = lastDelimiter > 0 ? lastDelimiter + 1 : 0
        while position < input.count {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard position < input.count, let d = digitValue(input[position]) else { return nil }
                position += 1
                let (product, productOverflow) = d.multipliedReportingOverflow(by: w)
                guard !productOverflow, i + product <= maxInt else { return nil }
                i += product
                let t = threshold(k, bias)
                if d < t { break }
                let (nextW, wOverflow) = w.multipliedReportingOverflow(by: base - t)
                guard !wOverflow, nextW <= maxInt else { return nil }
                w = nextW
                k += base
            }
            let length = output.count + 1
            bias = adapt(i - oldI, length, first: oldI == 0)
            n += i / length
            guard n <= maxInt else { return nil }
            i %= length
            // A basic code point must appear literally, never encoded; anything else is malformed.
            guard n >= initialN, Unicode.Scalar(UInt32(n)) != nil else { return nil }
            output.insert(n, at: i)
            i += 1
        }
        var result = String.UnicodeScalarView()
        for value in output {
            guard let scalar = Unicode.Scalar(UInt32(value)) else { return nil }
            result.append(scalar)
        }
        return String(result)
    }

    private static func threshold(_ k: Int, _ bias: Int) -> Int {
        if k <= bias { return tMin }
        if k >= bias + tMax { return tMax }
        return k - bias
    }

    private static func adapt(_ delta: Int, _ numPoints: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / numPoints
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    /// 0–25 → a–z, 26–35 → 0–9.
    private static func digit(_ d: Int) -> UInt8 {
        d < 26 ? UInt8(ascii: "a") + UInt8(d) : UInt8(ascii: "0") + UInt8(d - 26)
    }

    /// Accepts both cases, as RFC 3492 requires of decoders.
    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return Int(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Int(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0")) + 26
        default: return nil
        }
    }
}
