import Foundation

/// Each statement of the list: an `include` statement, or a `relation` array of strings and a
/// `target` (`android_app` with a package name and SHA-256 fingerprints, or `web` with a site origin);
/// duplicate statements. Sources: Digital Asset Links *Statement List Syntax* and *Relation strings*
/// (developers.google.com/digital-asset-links/v1/statements, …/v1/relation-strings); Android's
/// *Set the application ID* (developer.android.com/build/configure-app-module) for package names.
public enum AssetLinksStatementCheck {
    public static let notObject = Rule("assetlinks.statement-type", .error,
        meaning: "An element of the statement list is not a JSON object, so it is not a statement.",
        fix: "Make every element an object with \"relation\" and \"target\" (or an \"include\" statement).")
    public static let relationMissing = Rule("assetlinks.relation-missing", .error,
        meaning: "A statement has no \"relation\" array of strings, so it grants nothing.",
        fix: "Add \"relation\": [\"delegate_permission/common.handle_all_urls\"] (an array, even for one relation).")
    public static let relationMalformed = Rule("assetlinks.relation-malformed", .error,
        meaning: "A relation string is not of the form kind/detail in lower-case letters, digits, underscores (and dots in the detail); Google's Digital Asset Links parser rejects the whole statement list for it.",
        fix: "Write the relation exactly, e.g. \"delegate_permission/common.handle_all_urls\", with no spaces, capitals or wildcards.")
    public static let relationUnknown = Rule("assetlinks.relation-unknown", .warning,
        meaning: "A relation string is neither delegate_permission/common.handle_all_urls (App Links) nor delegate_permission/common.get_login_creds (shared sign-in), the two Android reads; it is probably a typo.",
        fix: "Check the spelling against the Digital Asset Links relation strings.")
    public static let targetMissing = Rule("assetlinks.target-missing", .error,
        meaning: "A statement has no \"target\" object, so it names no app or site.",
        fix: "Add \"target\": {\"namespace\": \"android_app\", \"package_name\": …, \"sha256_cert_fingerprints\": […]}.")
    public static let namespaceUnknown = Rule("assetlinks.namespace-unknown", .error,
        meaning: "A target's \"namespace\" is neither \"android_app\" nor \"web\", the two Digital Asset Links defines.",
        fix: "Use \"namespace\": \"android_app\" for an app (or \"web\" for a site).")
    public static let packageName = Rule("assetlinks.package-name", .error,
        meaning: "An android_app target has no valid \"package_name\": an application ID has at least two dot-separated segments, each starting with a letter and made of letters, digits and underscores; no installed app has this one.",
        fix: "Use the app's applicationId from its build.gradle (e.g. com.yourcompany.app), exactly.")
    public static let fingerprintsMissing = Rule("assetlinks.fingerprints-missing", .error,
        meaning: "An android_app target has no \"sha256_cert_fingerprints\" array with at least one string, so no signed app matches it.",
        fix: "Add \"sha256_cert_fingerprints\": [\"AA:BB:…\"] with the SHA-256 of the release signing certificate (with Play App Signing, Play's app-signing key from Play Console).")
    public static let site = Rule("assetlinks.site", .error,
        meaning: "A web target's \"site\" is not an origin http[s]://host[:port] (no path, no default port).",
        fix: "Write the site as a scheme and host only, e.g. \"https://www.example.com\".")
    public static let include = Rule("assetlinks.include", .info,
        meaning: "An include statement points to another statement list, whose statements Android's verifier reads as this file's (one level deep: the lists an included list includes are not read). aasa-audit validate does not fetch it; the audit does, with the same limits as the file, and reports it under assetlinks.include-*.",
        fix: "Nothing to fix; check the included list on its own with aasa-audit validate FILE.")
    public static let includeInvalid = Rule("assetlinks.include-invalid", .error,
        meaning: "An include statement's \"include\" is not an https:// URL string, so there is nothing to include.",
        fix: "Write the included list's full address: \"include\": \"https://www.example.com/includedstatements.json\".")
    public static let duplicate = Rule("assetlinks.duplicate-statement", .warning,
        meaning: "The same statement appears more than once; the copy adds nothing and usually means an edit went to the wrong one.",
        fix: "Delete the repeated statement (or merge fingerprints into one statement).")

    public static let placeholderPackage = Rule("assetlinks.placeholder-package", .warning,
        meaning: "An android_app target's \"package_name\" is com.example or under it: the package of Google's example (\"Verify Android App Links\", developer.android.com/training/app-links/verify-android-applinks), the namespace of Android Studio's new projects (com.example.myapplication) and of `flutter create` (docs.flutter.dev/reference/create-new-app). example.com is reserved for documentation (RFC 2606, www.iana.org/help/example-domains), and Google Play accepts no package under com.example, so the statement grants nothing to a published app.",
        fix: "Put the app's real applicationId (from its build.gradle) in \"package_name\", exactly.")
    public static let placeholderFingerprint = Rule("assetlinks.placeholder-fingerprint", .warning,
        meaning: "A fingerprint in \"sha256_cert_fingerprints\" is a placeholder, not a signing key's: Google's example fingerprint 14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5 (\"Verify Android App Links\", developer.android.com/training/app-links/verify-android-applinks), or all zeros (the blank of templates), in any case, with or without colons. No app's release key has it, so Android verifies no published app by it.",
        fix: "Put the SHA-256 fingerprint of the app's signing certificate in its place (Play Console › App integrity › App signing, or keytool -printcert -jarfile app.apk).")

    /// The fingerprints `placeholderFingerprint` names, as `SHA256Fingerprint.normalized` writes them.
    public static let placeholderFingerprints: [String: String] = [
        String(repeating: "00:", count: 31) + "00": "all zeros, a template's blank",
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5":
            "the example fingerprint of Google's documentation",
    ]

    /// The package namespace `placeholderPackage` names: com.example and every package under it.
    public static let placeholderPackageNamespace = "com.example"

    /// True for com.example and the packages under it. Package names are case-sensitive, but Google
    /// Play refuses the namespace in any case, so any case is the example's.
    public static func isPlaceholderPackage(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered == placeholderPackageNamespace || lowered.hasPrefix(placeholderPackageNamespace + ".")
    }

    /// What a placeholder package is, in words: the example's own, Android Studio's new project, or under the namespace.
    static func placeholderPackageSource(_ name: String) -> String {
        switch name {
        case "com.example": return "the package of Google's example"
        case "com.example.myapplication": return "the package of a new Android Studio project"
        default: return "under com.example, the namespace of Google's example and of new Android Studio and Flutter projects"
        }
    }

    public static let rules = [notObject, relationMissing, relationMalformed, relationUnknown, targetMissing, namespaceUnknown,
                               packageName, placeholderPackage, fingerprintsMissing, placeholderFingerprint, site, include, includeInvalid, duplicate]

    /// Every statement's findings in document order, then the duplicates.
    static func findings(in document: AssetLinksDocument) -> [Finding] {
        var findings: [Finding] = []
        for statement in document.statements {
            findings += statementFindings(statement)
        }
        findings += duplicateFindings(document)
        return findings
    }

    static func statementFindings(_ statement: AssetLinksStatement) -> [Finding] {
        let pointer = statement.pointer
        guard let object = statement.value.objectValue else {
            return [notObject.finding("Statement \(pointer) is \(article(statement.value.typeName)), not an object.", pointer: pointer)]
        }
        if let value = object["include"] {
            return includeFindings(value, pointer: JSONPointer.appending(pointer, "include"))
        }
        var findings = relationFindings(object["relation"], pointer: pointer)
        guard let targetValue = object["target"] else {
            findings.append(targetMissing.finding("Statement \(pointer) has no \"target\".", pointer: pointer))
            return findings
        }
        let targetPointer = JSONPointer.appending(pointer, "target")
        guard let target = targetValue.objectValue else {
            findings.append(targetMissing.finding("The \"target\" of statement \(pointer) is \(article(targetValue.typeName)), not an object.", pointer: targetPointer))
            return findings
        }
        findings += targetFindings(target, pointer: targetPointer)
        if let extensions = object["relation_extensions"] {
            findings += DynamicRulesCheck.findings(extensions, relations: statement.relations,
                                                   pointer: JSONPointer.appending(pointer, "relation_extensions"))
        }
        return findings
    }

    static func relationFindings(_ value: JSONValue?, pointer: String) -> [Finding] {
        let relationPointer = JSONPointer.appending(pointer, "relation")
        guard let value else {
            return [relationMissing.finding("Statement \(pointer) has no \"relation\".", pointer: pointer)]
        }
        guard let elements = value.arrayValue else {
            var message = "The \"relation\" of statement \(pointer) is \(article(value.typeName)), not an array of strings."
            if let string = value.stringValue { message += " Write it as [\(string.jsonQuoted)]." }
            return [relationMissing.finding(message, pointer: relationPointer)]
        }
        if elements.isEmpty {
            return [relationMissing.finding("The \"relation\" of statement \(pointer) is an empty array.", pointer: relationPointer)]
        }
        var findings: [Finding] = []
        for (index, element) in elements.enumerated() {
            let elementPointer = JSONPointer.appending(relationPointer, index)
            guard let relation = element.stringValue else {
                findings.append(relationMissing.finding("Relation \(elementPointer) is \(article(element.typeName)), not a string.", pointer: elementPointer))
                continue
            }
            if let problem = relationProblem(relation) {
                let near = EditDistance.nearMiss(of: relation.trimmingCharacters(in: .whitespaces), among: AssetLinksDocument.Relation.known, maximum: 3)
                findings.append(relationMalformed.finding("Relation \(relation.jsonQuoted) is not a relation string: \(problem).",
                                                          fix: near.map { "Write \($0.jsonQuoted)." }, pointer: elementPointer))
                continue
            }
            if !AssetLinksDocument.Relation.known.contains(relation) {
                let near = EditDistance.nearMiss(of: relation, among: AssetLinksDocument.Relation.known, maximum: 3)
                let hint = near.map { " Did you mean \($0.jsonQuoted)?" } ?? ""
                findings.append(relationUnknown.finding("Relation \(relation.jsonQuoted) is not one Android reads for App Links or shared sign-in.\(hint)",
                                                        fix: near.map { "Write \($0.jsonQuoted)." }, pointer: elementPointer))
            }
        }
        return findings
    }

    static func targetFindings(_ target: JSONObject, pointer: String) -> [Finding] {
        let namespacePointer = JSONPointer.appending(pointer, "namespace")
        switch target["namespace"] {
        case .string("android_app"):
            return androidAppFindings(target, pointer: pointer)
        case .string("web"):
            let sitePointer = JSONPointer.appending(pointer, "site")
            guard let value = target["site"] else {
                return [site.finding("The web target \(pointer) has no \"site\".", pointer: pointer)]
            }
            guard let text = value.stringValue else {
                return [site.finding("The \"site\" at \(sitePointer) is \(article(value.typeName)), not a string.", pointer: sitePointer)]
            }
            return siteProblem(text).map { [site.finding("Site \(text.jsonQuoted) is not an origin: \($0).", pointer: sitePointer)] } ?? []
        case .string(let other):
            return [namespaceUnknown.finding("Namespace \(other.jsonQuoted) is not \"android_app\" or \"web\".", pointer: namespacePointer)]
        case nil:
            return [namespaceUnknown.finding("The target \(pointer) has no \"namespace\".", pointer: pointer)]
        case let value?:
            return [namespaceUnknown.finding("The \"namespace\" at \(namespacePointer) is \(article(value.typeName)), not a string.", pointer: namespacePointer)]
        }
    }

    static func androidAppFindings(_ target: JSONObject, pointer: String) -> [Finding] {
        var findings: [Finding] = []
        let namePointer = JSONPointer.appending(pointer, "package_name")
        switch target["package_name"] {
        case nil:
            findings.append(packageName.finding("The android_app target \(pointer) has no \"package_name\".", pointer: pointer))
        case .string(let name):
            if let problem = packageNameProblem(name) {
                findings.append(packageName.finding("Package name \(name.jsonQuoted) is not a valid application ID: \(problem).", pointer: namePointer))
            } else if isPlaceholderPackage(name) {
                findings.append(placeholderPackage.finding(
                    "Package name \(name.jsonQuoted) is \(placeholderPackageSource(name)); Google Play accepts no package under com.example, so no published app has it.",
                    fix: "Put the app's real applicationId (from its build.gradle) in place of \(name.jsonQuoted).",
                    pointer: namePointer))
            }
        case let value?:
            findings.append(packageName.finding("The \"package_name\" at \(namePointer) is \(article(value.typeName)), not a string.", pointer: namePointer))
        }
        let listPointer = JSONPointer.appending(pointer, "sha256_cert_fingerprints")
        guard let listValue = target["sha256_cert_fingerprints"] else {
            var message = "The android_app target \(pointer) has no \"sha256_cert_fingerprints\"."
            if target["sha256_cert_fingerprint"] != nil || target["sha256_fingerprints"] != nil || target["fingerprints"] != nil {
                message += " A key with a similar name is there; Android reads only \"sha256_cert_fingerprints\"."
            }
            findings.append(fingerprintsMissing.finding(message, pointer: pointer))
            return findings
        }
        guard let list = listValue.arrayValue else {
            var message = "\"sha256_cert_fingerprints\" at \(listPointer) is \(article(listValue.typeName)), not an array of strings."
            if listValue.stringValue != nil { message += " Put the fingerprint in an array: [\"AA:BB:…\"]." }
            findings.append(fingerprintsMissing.finding(message, pointer: listPointer))
            return findings
        }
        if list.isEmpty {
            findings.append(fingerprintsMissing.finding("\"sha256_cert_fingerprints\" at \(listPointer) is an empty array.", pointer: listPointer))
        }
        for (index, element) in list.enumerated() {
            let elementPointer = JSONPointer.appending(listPointer, index)
            guard let fingerprint = element.stringValue else {
                findings.append(fingerprintsMissing.finding("Fingerprint \(elementPointer) is \(article(element.typeName)), not a string.", pointer: elementPointer))
                continue
            }
            let placeholder = SHA256Fingerprint.normalized(fingerprint).flatMap { placeholderFingerprints[$0] }
            if let (rule, reason) = SHA256Fingerprint.problem(fingerprint) {
                var fix: String?
                // Never "write it as" a placeholder: its own warning follows.
                if placeholder == nil, rule == SHA256Fingerprint.lowercase || rule == SHA256Fingerprint.missingColons,
                   let canonical = SHA256Fingerprint.normalized(fingerprint) {
                    fix = "Write it as \(canonical.jsonQuoted)."
                }
                findings.append(rule.finding("Fingerprint \(fingerprint.jsonQuoted) is not a SHA-256 fingerprint as Digital Asset Links writes it: \(reason).",
                                             fix: fix, pointer: elementPointer))
            }
            if let placeholder {
                findings.append(placeholderFingerprint.finding(
                    "Fingerprint \(fingerprint.jsonQuoted) is a placeholder (\(placeholder)), not the fingerprint of an app's signing key; Android verifies no published app by it.",
                    pointer: elementPointer))
            }
        }
        return findings
    }

    static func includeFindings(_ value: JSONValue, pointer: String) -> [Finding] {
        guard let url = value.stringValue else {
            return [includeInvalid.finding("\"include\" at \(pointer) is \(article(value.typeName)), not a URL string.", pointer: pointer)]
        }
        guard url.lowercased().hasPrefix("https://"), url.count > "https://".count else {
            return [includeInvalid.finding("\"include\" \(url.jsonQuoted) is not an https:// URL.", pointer: pointer)]
        }
        return [include.finding("Statement list \(url.jsonQuoted) is included here; Android reads its statements as this file's.", pointer: pointer)]
    }

    /// Statements equal to an earlier one (key order ignored, a repeated key counted by its last value),
    /// each named with its first copy. Keyed by a canonical text, so a hostile file of thousands of
    /// statements costs one pass, not a comparison of every pair.
    static func duplicateFindings(_ document: AssetLinksDocument) -> [Finding] {
        var findings: [Finding] = []
        var first: [String: String] = [:]
        for statement in document.statements where statement.value.objectValue != nil {
            var key: [UInt8] = []
            canonical(statement.value, into: &key)
            let text = String(decoding: key, as: UTF8.self)
            if let earlier = first[text] {
                findings.append(duplicate.finding("Statement \(statement.pointer) repeats statement \(earlier).", pointer: statement.pointer))
            } else {
                first[text] = statement.pointer
            }
        }
        return findings
    }

    /// JSON text with object keys sorted and each key's last value only: equal for equal statements.
    static func canonical(_ value: JSONValue, into output: inout [UInt8]) {
        switch value {
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                canonical(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (index, member) in object.effectiveMembers.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                canonical(member.value, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        case .string(let string):
            JSONValue.writeString(string, to: &output)
        default:
            output.append(contentsOf: value.formatted().utf8)
        }
    }

    /// Why `relation` is not `kind/detail` as Google's compatibility tests accept it (comptest2101–2124:
    /// lower case, no spaces, exactly one slash, no wildcard), or nil.
    static func relationProblem(_ relation: String) -> String? {
        let parts = relation.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            return parts.count < 2 ? "it has no \"/\" between a kind and a detail" : "it has more than one \"/\""
        }
        let kindOK: (Unicode.Scalar) -> Bool = { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        if parts[0].isEmpty || !parts[0].unicodeScalars.allSatisfy(kindOK) {
            return "its kind \(String(parts[0]).jsonQuoted) is not lower-case letters, digits and underscores"
        }
        if parts[1].isEmpty || !parts[1].unicodeScalars.allSatisfy({ kindOK($0) || $0 == "." }) {
            return "its detail \(String(parts[1]).jsonQuoted) is not lower-case letters, digits, underscores and dots"
        }
        return nil
    }

    /// Why `name` is not an Android application ID, or nil: at least two segments separated by dots,
    /// each starting with a letter, made of ASCII letters, digits and underscores.
    public static func packageNameProblem(_ name: String) -> String? {
        if name.isEmpty { return "it is empty" }
        if name.unicodeScalars.contains(where: { $0 == " " || $0 == "\t" }) { return "it contains whitespace" }
        let segments = name.split(separator: ".", omittingEmptySubsequences: false)
        if segments.count < 2 { return "it has one segment; an application ID has at least two separated by dots (com.yourcompany.app)" }
        for segment in segments {
            guard let first = segment.unicodeScalars.first else { return "it has an empty segment (two dots in a row, or a dot at an end)" }
            if !isASCIILetter(first) { return "the segment \(String(segment).jsonQuoted) does not start with a letter" }
            if let bad = segment.unicodeScalars.first(where: { !isASCIILetter($0) && !("0"..."9").contains($0) && $0 != "_" }) {
                return "the segment \(String(segment).jsonQuoted) contains \"\(Character(bad))\"; only letters, digits and underscores are allowed"
            }
        }
        return nil
    }

    /// Why `text` is not `http[s]://host[:port]`, or nil.
    static func siteProblem(_ text: String) -> String? {
        let lower = text.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") { rest = text.dropFirst(8) } else if lower.hasPrefix("http://") { rest = text.dropFirst(7) } else {
            return "it does not start with https:// or http://"
        }
        var authority = rest
        if let slash = rest.firstIndex(of: "/") {
            if rest[slash...] != "/" { return "it has a path; a site is a scheme and host only" }
            authority = rest[..<slash]
        }
        if authority.contains("?") || authority.contains("#") { return "it has a query or fragment" }
        if authority.isEmpty { return "it has no host" }
        if authority.contains("@") { return "it has user information" }
        if let colon = authority.lastIndex(of: ":") {
            let port = authority[authority.index(after: colon)...]
            if port.isEmpty || !port.allSatisfy({ $0.isASCII && $0.isNumber }) { return "its port is not a number" }
            if (lower.hasPrefix("https://") && port == "443") || (lower.hasPrefix("http://") && port == "80") {
                return "it names the default port \(port), which Digital Asset Links says to omit"
            }
        }
        return nil
    }

    static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    static func article(_ typeName: String) -> String {
        typeName == "array" || typeName == "object" ? "an \(typeName)" : "a \(typeName)"
    }
}
