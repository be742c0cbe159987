/// Gives findings the line and column of what they name, for `aasa-audit validate`'s annotations.
///
/// A finding with a pointer gets the position where the value it names starts (the deepest value
/// that exists, for a pointer to a missing member); a syntax error gets the parser's own position;
/// a finding about no place in the text (a signature, the size, a count of findings left out) gets none.
public enum FindingPlacement {
    public static func place(_ findings: [Finding], in json: JSONDocument?, parseError: JSONParseError?) -> [Finding] {
        var placed = findings
        if let json {
            let pointers = findings.map { $0.pointer ?? "" }
            let positions = json.positions(of: pointers)
            for index in placed.indices where placed[index].pointer != nil {
                placed[index].line = positions[index]?.line
                placed[index].column = positions[index]?.column
            }
        }
        if let parseError {
            for index in placed.indices where placed[index].id == JSONCheck.syntax.id || placed[index].id == JSONCheck.invalidUTF8.id {
                placed[index].line = parseError.line
                placed[index].column = parseError.column
            }
        }
        return placed
    }
}
