import Testing
@testable import AASA

private typealias F = ComponentChecksFixture
private let variables = "/applinks/substitutionVariables"
private let base = "/applinks/details/0/components"

/// A document with `substitutionVariables` (JSON object text, or nil for none) and `components` (JSON array text).
private func document(variables: String?, components: String = "[]") -> String {
    let declared = variables.map { #""substitutionVariables": \#($0), "# } ?? ""
    return #"{"applinks": {\#(declared)"details": [{"appIDs": ["ABQ7KM3X2P.com.exemplo.app"], "components": \#(components)}]}}"#
}

@Test(arguments: [
    ComponentCheckCase("Apple's example",
        document(variables: #"{"food": ["burrito", "pizza", "sushi", "samosa"]}"#, components: #"[{"/": "/$(lang)_$(region)/$(food)/"}]"#), []),
    ComponentCheckCase("every predefined variable, no custom ones",
        document(variables: nil, components: ##"[{"/": "/$(alpha)$(upper)$(lower)/$(alnum)", "?": {"d": "$(digit)", "x": "$(xdigit)"}, "#": "$(region)-$(lang)"}]"##), []),
    ComponentCheckCase("values may use wildcards",
        document(variables: #"{"id": ["?*", "a*"]}"#, components: #"[{"?": "q=$(id)"}]"#), []),
    ComponentCheckCase("an unclosed $( is not a reference",
        document(variables: nil, components: #"[{"/": "/price$(5"}]"#), []),
    ComponentCheckCase("substitutionVariables is an array",
        document(variables: #"["food"]"#),
        [ExpectedComponentFinding("schema.type", .error, variables, mentions: ["\"substitutionVariables\"", "an array", "object"])]),
    ComponentCheckCase("a value is a string, not an array",
        document(variables: #"{"food": "pizza"}"#),
        [ExpectedComponentFinding("schema.type", .error, variables + "/food", mentions: ["\"food\"", "a string", "array of strings"])]),
    ComponentCheckCase("an array item is a number",
        document(variables: #"{"year": ["2024", 2025]}"#),
        [ExpectedComponentFinding("schema.type", .error, variables + "/year/1", mentions: ["\"year\"", "number"])]),
    ComponentCheckCase("a name with $()",
        document(variables: #"{"$(food)": ["pizza"]}"#),
        [ExpectedComponentFinding("schema.variable-name", .error, variables + "/$(food)", mentions: ["\"$(food)\""])]),
    ComponentCheckCase("a name with a parenthesis",
        document(variables: #"{"food)": ["pizza"]}"#),
        [ExpectedComponentFinding("schema.variable-name", .error, variables + "/food)", mentions: ["\"food)\""])]),
    ComponentCheckCase("an empty name",
        document(variables: #"{"": ["pizza"]}"#),
        [ExpectedComponentFinding("schema.variable-name", .error, variables + "/", mentions: ["empty name"])]),
    ComponentCheckCase("a value uses another variable",
        document(variables: #"{"dish": ["$(food)-deluxe"], "food": ["pizza"]}"#),
        [ExpectedComponentFinding("schema.variable-nested", .error, variables + "/dish/0", mentions: ["\"$(food)-deluxe\"", "\"dish\""])]),
    ComponentCheckCase("a value uses a predefined variable",
        document(variables: #"{"locale": ["$(lang)"]}"#),
        [ExpectedComponentFinding("schema.variable-nested", .error, variables + "/locale/0", mentions: ["$(lang)"])]),
    ComponentCheckCase("a custom variable named lang",
        document(variables: #"{"lang": ["en", "fr"]}"#, components: #"[{"/": "/$(lang)/*"}]"#),
        [ExpectedComponentFinding("schema.variable-shadows", .warning, variables + "/lang", mentions: ["\"lang\"", "predefined"])]),
    ComponentCheckCase("undefined in /",
        document(variables: #"{"food": ["pizza"]}"#, components: #"[{"/": "/menu/$(foods)/*"}]"#),
        [ExpectedComponentFinding("schema.variable-undefined", .error, base + "/0/~1", mentions: ["\"/menu/$(foods)/*\"", "$(foods)", "never matches"])]),
    ComponentCheckCase("undefined without any substitutionVariables",
        document(variables: nil, components: #"[{"/": "/a"}, {"?": "ref=$(partner)"}]"#),
        [ExpectedComponentFinding("schema.variable-undefined", .error, base + "/1/?", mentions: ["$(partner)"])]),
    ComponentCheckCase("undefined in a query dictionary value",
        document(variables: nil, components: #"[{"?": {"lang": "$(language)"}}]"#),
        [ExpectedComponentFinding("schema.variable-undefined", .error, base + "/0/?/lang", mentions: ["$(language)"])]),
    ComponentCheckCase("undefined in #",
        document(variables: nil, components: ##"[{"#": "$(section)"}]"##),
        [ExpectedComponentFinding("schema.variable-undefined", .error, base + "/0/#", mentions: ["$(section)"])]),
    ComponentCheckCase("names are case-sensitive",
        document(variables: #"{"food": ["pizza"]}"#, components: #"[{"/": "/$(Lang)/$(Food)"}]"#),
        [ExpectedComponentFinding("schema.variable-undefined", .error, base + "/0/~1", mentions: ["$(Lang)", "case-sensitive", "$(lang)"]),
         ExpectedComponentFinding("schema.variable-undefined", .error, base + "/0/~1", mentions: ["$(Food)", "case-sensitive", "$(food)"])]),
])
func substitutionVariablesCheck(_ example: ComponentCheckCase) throws {
    try example.verify(SubstitutionVariablesCheck.self)
}

@Test func undefinedVariablesInTheDictionaryFormOfDetails() throws {
    let text = #"{"applinks": {"details": {"ABQ7KM3X2P.com.exemplo.app": {"components": [{"/": "/$(x)"}]}}}}"#
    let findings = try F.findings(SubstitutionVariablesCheck.self, text)
    #expect(findings.map(\.pointer) == ["/applinks/details/ABQ7KM3X2P.com.exemplo.app/components/0/~1"])
}

@Test(arguments: [
    ("/$(lang)_$(region)/$(food)/", ["lang", "region", "food"]),
    ("plain", []), ("$", []), ("$(", []), ("$()", [""]), ("$$(a)", ["a"]), ("$(a$(b))", ["a$(b"]), ("x$(a)y$(b", ["a"]),
])
func variableReferences(_ text: String, _ names: [String]) {
    #expect(SubstitutionVariablesCheck.references(in: text) == names)
}
