/// `webcredentials`, `appclips` and `activitycontinuation`: each is `{"apps": ["<AppID>", …]}`
/// (AASA-SVC-001/002). App ID formats are `AppIDCheck`'s business; this is the shape.
public enum AppListCheck: SchemaCheck {
    public static let appsShape = Rule("schema.apps-shape", .error,
        meaning: "A webcredentials, appclips or activitycontinuation service lacks \"apps\", or \"apps\" is not an array of app ID strings; Apple cannot read the service.",
        fix: "Write the service as {\"apps\": [\"<TeamID>.com.yourcompany.app\"]}.")
    public static let appClipsExtraKey = Rule("schema.appclips-extra-key", .warning,
        meaning: "\"appclips\" has keys other than \"apps\"; Apple documents only \"apps\" there (App Clip links go in applinks).",
        fix: "Keep only \"apps\" in appclips; put URL patterns for the App Clip in applinks.details.")

    /// `schema.unknown-key` is declared once, in `ServiceKeysCheck`, and reported here too.
    public static let rules = [appsShape, appClipsExtraKey]

    /// The services whose whole content is an app list.
    static let services = ["webcredentials", "appclips", "activitycontinuation"]

    public static func findings(in document: AASADocument) -> [Finding] {
        var findings: [Finding] = []
        for service in services {
            // A service that is missing or not an object is ServiceKeysCheck's finding.
            guard let object = document.root[service]?.objectValue else { continue }
            let base = JSONPointer.appending("", service)
            findings += appsFindings(service: service, object: object, base: base)
            for key in object.uniqueKeys where key != "apps" {
                let pointer = JSONPointer.appending(base, key)
                let hint = EditDistance.nearMiss(of: key, among: ["apps"]).map { " Did you mean \($0.jsonQuoted)?" } ?? ""
                if let misplaced = SchemaRules.misplacedService(key, in: service.jsonQuoted, atTopLevel: document.root[key] != nil) {
                    findings.append(SchemaRules.unknownKey.finding(misplaced.message, fix: misplaced.fix, pointer: pointer))
                } else if service == "appclips" {
                    findings.append(appClipsExtraKey.finding(
                        "\"appclips\" has the key \(key.jsonQuoted); only \"apps\" belongs there.\(hint)",
                        fix: hint.isEmpty
                            ? "Remove \(key.jsonQuoted) from appclips; App Clip URL patterns go in applinks.details."
                            : "Rename \(key.jsonQuoted) to \"apps\".",
                        pointer: pointer))
                } else {
                    findings.append(SchemaRules.unknownKey.finding(
                        "\(service.jsonQuoted) has the key \(key.jsonQuoted), which Apple does not define; it is ignored.\(hint)",
                        fix: hint.isEmpty ? "Remove \(key.jsonQuoted); \(service) holds only \"apps\"." : "Rename \(key.jsonQuoted) to \"apps\".",
                        pointer: pointer))
                }
            }
        }
        return findings
    }

    private static func appsFindings(service: String, object: JSONObject, base: String) -> [Finding] {
        let appsPointer = JSONPointer.appending(base, "apps")
        guard let apps = object["apps"] else {
            return [appsShape.finding(
                "\(service.jsonQuoted) has no \"apps\" array, so it names no app.",
                fix: "Add \"apps\": [\"<TeamID>.<bundle ID>\"] to \(service).",
                pointer: base)]
        }
        guard let elements = apps.arrayValue else {
            let fix = apps.stringValue.map { "Wrap the app ID in an array: \"apps\": [\($0.jsonQuoted)]." }
                ?? "Make \"apps\" an array of app ID strings, e.g. [\"<TeamID>.com.yourcompany.app\"]."
            return [appsShape.finding(
                "\"\(service).apps\" is \(apps.typeWithArticle), not an array of app ID strings.",
                fix: fix, pointer: appsPointer)]
        }
        return elements.enumerated().compactMap { index, element in
            guard element.stringValue == nil else { return nil }
            return appsShape.finding(
                "Item \(index) of \"\(service).apps\" is \(element.typeWithArticle), not an app ID string.",
                fix: "Replace it with an app ID string such as \"<TeamID>.com.yourcompany.app\".",
                pointer: JSONPointer.appending(appsPointer, index))
        }
    }
}
