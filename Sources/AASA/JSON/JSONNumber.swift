/// A JSON number, kept as the text it was written as so nothing is lost to rounding.
public struct JSONNumber: Sendable, Equatable {
    /// The number exactly as written in the document, e.g. `"1.50e3"`.
    public let text: String

    /// Creates a number from its JSON text; the parser has already checked the grammar.
    public init(text: String) {
        self.text = text
    }

    /// The value as a `Double`, or `nil` if `text` is not a number (magnitudes past `Double` give ±infinity).
    public var doubleValue: Double? { Double(text) }

    /// The value as an `Int`, if it is a whole number that fits (`2`, `2.0` and `2e0` all give 2).
    public var intValue: Int? {
        if let exact = Int(text) { return exact }
        guard let double = doubleValue, double.rounded() == double, abs(double) < 9.0e18 else { return nil }
        return Int(double)
    }

    /// Equal by numeric value, so `1`, `1.0` and `1e0` are the same number.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if lhs.text == rhs.text { return true }
        guard let left = lhs.doubleValue, let right = rhs.doubleValue else { return false }
        return left == right
    }
}
