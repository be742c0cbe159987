/// The top level: at least one of Apple's four services, each an object, and nothing else.
/// Apple ignores keys it does not know, so a misspelled service silently turns that service off.
public enum ServiceKeysCheck: SchemaCheck {
    public static let noService = Rule("schema.no-service", .error,
        meaning: "The file has none of the keys applinks, webcredentials, appclips or activitycontinuation, so it associates nothing.",
        fix: "Add the service the app uses, e.g. \"applinks\": {\"details\": [...]}.")
    public static let unknownTopLevelKey = Rule("schema.unknown-top-level-key", .info,
        meaning: "A top-level key that is not one of Apple's services; Apple ignores it. (Unknown keys inside a service are schema.unknown-key warnings.)",
        fix: "Remove the key, or correct its spelling if it was meant to be a service.")
    public static let misspelledService = Rule("schema.misspelled-service", .warning,
        meaning: "A top-level key that looks like a misspelled service name; Apple ignores it, so that service is off.",
        fix: "Spell the service exactly: applinks, webcredentials, appclips or activitycontinuation (lower case).")
    public static let serviceType = Rule("schema.service-type", .error,
        meaning: "A service key whose value is not a JSON object; Apple cannot read the service.",
        fix: "Make the service's value an object, e.g. \"webcredentials\": {\"apps\": [\"<TeamID>.com.yourcompany.app\"]}.")

    public static let rules = [noService, unknownTopLevelKey, misspelledService, serviceType]

    public static func findings(in document: AASADocument) -> [Finding] {
        var findings: [Finding] = []
        let root = document.root
        var misspellings: [String] = []
        for key in root.uniqueKeys {
            let pointer = JSONPointer.appending("", key)
            if AASADocument.serviceKeys.contains(key) {
                guard let value = root[key], value.objectValue == nil else { continue }
                findings.append(serviceType.finding(
                    "\(key.jsonQuoted) is \(value.typeWithArticle), not an object.",
                    fix: "Make \(key.jsonQuoted) an object such as \(example(for: key)).",
                    pointer: pointer))
            } else if let service = EditDistance.nearMiss(of: key, among: AASADocument.serviceKeys) {
                misspellings.append(key)
                findings.append(misspelledService.finding(
                    "Top-level key \(key.jsonQuoted) is not a service Apple knows; did you mean \(service.jsonQuoted)?",
                    fix: "Rename \(key.jsonQuoted) to \(service.jsonQuoted); Apple ignores the service under any other spelling.",
                    pointer: pointer))
            } else {
                findings.append(unknownTopLevelKey.finding(
                    "Top-level key \(key.jsonQuoted) is not one of Apple's services; Apple ignores it.",
                    fix: "Remove \(key.jsonQuoted) unless another tool of yours reads it.",
                    pointer: pointer))
            }
        }
        if !root.keys.contains(where: AASADocument.serviceKeys.contains) {
            var message = "The file has none of the service keys applinks, webcredentials, appclips or activitycontinuation."
            if !misspellings.isEmpty {
                message += " " + misspellings.map(\.jsonQuoted).joined(separator: ", ")
                    + (misspellings.count == 1 ? " looks like a misspelled service." : " look like misspelled services.")
            }
            findings.append(noService.finding(message, pointer: ""))
        }
        return findings
    }

    /// A minimal valid value for a service, for fix texts.
    static func example(for service: String) -> String {
        service == "applinks"
            ? "{\"details\": [{\"appIDs\": [\"<TeamID>.com.yourcompany.app\"], \"components\": [{\"/\": \"/*\"}]}]}"
            : "{\"apps\": [\"<TeamID>.com.yourcompany.app\"]}"
    }
}

extension JSONObject {
    /// Each key once, in order of first occurrence: repeated keys are the JSON checks' business,
    /// so schema checks look at each key once (and at its last value, as Apple does).
    var uniqueKeys: [String] {
        var seen: Set<String> = []
        return keys.filter { seen.insert($0).inserted }
    }
}

extension String {
    /// The string in double quotes, escaped as in JSON, so messages show stray line breaks and quotes.
    var jsonQuoted: String {
        var output: [UInt8] = []
        JSONValue.writeString(self, to: &output)
        return String(decoding: output, as: UTF8.self)
    }
}

extension JSONValue {
    /// The type with its article for messages: "an array", "a string", "null".
    var typeWithArticle: String {
        switch self {
        case .null: return "null"
        case .array, .object: return "an \(typeName)"
        default: return "a \(typeName)"
        }
    }
}
