import AASA
import Fetching

/// Checks a domain's Android expectations (`android=`, `android-creds=`, `sha256=` in `domains.txt`)
/// against the assetlinks.json the domain serves. Pure.
///
/// A `sha256=` fingerprint is expected for every `android=` and `android-creds=` package of the line
/// (an app is usually listed with both its upload key and Play's app-signing key); on a line with no
/// package, for some app granted `handle_all_urls`.
public enum AndroidExpectationCheck {
    /// The check's stable id, stored in each of its findings (`Finding.check`).
    public static let id = "android-expectation"
    public static let appMissing = Rule("expect.android-missing", .error, check: id,
        meaning: "domains.txt expects an Android app to have App Links on this domain, but assetlinks.json has no statement granting delegate_permission/common.handle_all_urls to its package, so Android does not verify the app for this domain.",
        fix: "Add a statement with \"relation\": [\"delegate_permission/common.handle_all_urls\"] and an android_app target with the package name and its SHA-256 fingerprints, or correct the android= expectation.")
    public static let credentialsMissing = Rule("expect.android-creds-missing", .error, check: id,
        meaning: "domains.txt expects an Android app to share sign-in credentials with this domain, but assetlinks.json has no statement granting delegate_permission/common.get_login_creds to its package.",
        fix: "Add delegate_permission/common.get_login_creds to the relation of the app's statement.")
    public static let fingerprintMissing = Rule("expect.fingerprint-missing", .error, check: id,
        meaning: "domains.txt expects a signing-certificate fingerprint to be listed for an Android app, but the app's statements in assetlinks.json do not list it; builds signed with that key are not verified (a file listing only a debug key verifies no build from Play).",
        fix: "Add the fingerprint to sha256_cert_fingerprints of the app's statement (with Play App Signing, the app-signing key from Play Console › App integrity).")
    public static let unchecked = Rule("expect.android-unchecked", .warning, check: id,
        meaning: "The domain has Android expectations in domains.txt that could not be checked: it serves no assetlinks.json Android reads, or neither the file nor the lists it includes that were read grant what is expected, and it includes lists that were not fetched (past the 16 the audit fetches), which Android reads.",
        fix: "Fix the assetlinks.json errors first; the expectations are checked once the file is served and read. When the file includes other lists, check those (aasa-audit validate FILE) or move the statement into this file.")
    public static let met = Rule("expect.android-met", .info, check: id,
        meaning: "Every Android expectation written for the domain in domains.txt holds for its assetlinks.json.",
        fix: "Nothing to fix.")

    public static let playAppSigning = Rule("expect.play-app-signing", .info, check: id,
        meaning: "The fingerprint expected for the app comes from the signing certificate of the APK given with --apk. An app distributed through Google Play with Play App Signing is re-signed by Google: the copy devices install carries Play's app-signing key, not the key the APK was signed with, so assetlinks.json must list Play's key too or Android does not verify the app installed from Play.",
        fix: "Add the app-signing key's SHA-256 (Play Console › Test and release › App integrity › App signing) to sha256_cert_fingerprints, and give it with --sha256 FP so the audit expects it too.")

    public static let rules = [appMissing, credentialsMissing, fingerprintMissing, unchecked, met, playAppSigning]

    /// The Play App Signing note for expectations that came from `--apk`: names the APK's keys and those given with `--sha256`.
    static func playNote(_ expectations: DomainExpectations) -> Finding {
        let apks = expectations.apkFiles.joined(separator: ", ")
        let apps = expectations.androidApps.joined(separator: ", ")
        let keys = expectations.fingerprints.joined(separator: ", ")
        return playAppSigning.finding("The fingerprints expected for \(apps) (\(keys)) are those of \(apks) and any given with --sha256. If the app is distributed with Play App Signing, Google re-signs it, so devices that install it from Play get Play's app-signing key: assetlinks.json must list that key as well, or Android does not verify those installs; give it with --sha256 so the audit expects it.")
    }

    /// The findings for the Android expectations on `domain`, given the statement list it serves (nil
    /// when none could be read).
    /// `unfetchedIncludes`: the included lists Android reads that were not fetched; nil when none was fetched
    /// (`validate`, a test), when every include of the file is one.
    public static func findings(_ expectations: DomainExpectations, domain: String, document: AssetLinksDocument?,
                                unfetchedIncludes: [String]? = nil) -> [Finding] {
        let count = expectations.androidCount
        guard count > 0 else { return [] }
        let note = expectations.apkFiles.isEmpty ? [] : [playNote(expectations)]
        guard let document else {
            return [unchecked.finding(uncheckedMessage(count: count, domain: domain))] + note
        }
        var findings: [Finding] = []
        // Android also reads the lists the file includes (Digital Asset Links, Statement List Syntax); those
        // not fetched may hold what is not in the statements read: unchecked, not missing.
        let includes = unfetchedIncludes ?? document.includes
        func report(_ rule: Rule, _ message: String) {
            guard !includes.isEmpty else { findings.append(rule.finding(message)); return }
            let named = includes.prefix(3).joined(separator: ", ") + (includes.count > 3 ? " and \(includes.count - 3) more" : "")
            findings.append(unchecked.finding(message + " It includes \(named), which Android also reads and \(unfetchedIncludes == nil ? "were not fetched" : "the audit did not fetch (past the first \(IncludedList.maximumFollowed))"), so whether they make up for it is not checked (if they do not: \(rule.id)).",
                                              fix: "Check the included list (aasa-audit validate FILE), or put the statement in this file."))
        }
        let packages: [(name: String, relation: String)] = expectations.androidApps.map { ($0, AssetLinksDocument.Relation.handleAllURLs) }
            + expectations.androidCredentials.map { ($0, AssetLinksDocument.Relation.getLoginCreds) }
        for (package, relation) in packages {
            guard document.grants(relation, to: package) else {
                let rule = relation == AssetLinksDocument.Relation.handleAllURLs ? appMissing : credentialsMissing
                let others = document.packageNames
                let listed = others.isEmpty ? "it names no Android app" : "it names \(others.joined(separator: ", "))"
                report(rule, "assetlinks.json on \(domain) grants \(relation) to no statement for \(package) (\(listed)).")
                continue
            }
            let listed = document.fingerprints(of: package, relation: relation)
            let listedCanonical = listed.compactMap(SHA256Fingerprint.normalized)
            let missing = expectations.fingerprints.filter { !listedCanonical.contains($0) }
            guard !missing.isEmpty else { continue }
            var message = "assetlinks.json on \(domain) does not list \(missing.joined(separator: ", ")) for \(package) (\(relation)); "
            if listed.isEmpty {
                message += "it lists no fingerprint for it."
            } else {
                message += "it lists only \(listed.joined(separator: ", "))."
                if missing.count == expectations.fingerprints.count {
                    message += " None of the expected keys is listed, so no build signed with them is verified (a file listing only a debug key's fingerprint looks like this)."
                }
            }
            report(fingerprintMissing, message)
        }
        if packages.isEmpty && !expectations.fingerprints.isEmpty {
            var listed: [String] = []
            for name in document.packageNames {
                for fingerprint in document.fingerprints(of: name, relation: AssetLinksDocument.Relation.handleAllURLs) where !listed.contains(fingerprint) {
                    listed.append(fingerprint)
                }
            }
            let listedCanonical = listed.compactMap(SHA256Fingerprint.normalized)
            let missing = expectations.fingerprints.filter { !listedCanonical.contains($0) }
            if !missing.isEmpty {
                var message = "assetlinks.json on \(domain) does not list \(missing.joined(separator: ", ")) for any app with \(AssetLinksDocument.Relation.handleAllURLs); "
                message += listed.isEmpty ? "it lists no fingerprint for such an app." : "it lists only \(listed.joined(separator: ", "))."
                if !listed.isEmpty && missing.count == expectations.fingerprints.count {
                    message += " None of the expected keys is listed, so no build signed with them is verified (a file listing only a debug key's fingerprint looks like this)."
                }
                report(fingerprintMissing, message)
            }
        }
        if findings.isEmpty {
            findings.append(met.finding(metMessage(count: count, domain: domain)))
        }
        return findings + note
    }
}

extension AndroidExpectationCheck: DomainCheck {
    public static var part: DomainPart { .android }

    /// The Android expectations against the statement list read at the checked assetlinks.json;
    /// nothing when the Android part was not audited.
    public static func check(_ context: DomainCheckContext) -> DomainCheckOutput {
        guard context.android != nil else { return DomainCheckOutput() }
        // A file Android does not read (over its size limit) checks no expectation, whatever it says;
        // one it reads counts with the statements of the lists it includes that were read.
        guard let document = context.androidDocument else {
            return DomainCheckOutput(findings: findings(context.expectations, domain: context.domain, document: nil))
        }
        let included = AssetLinksIncludeCheck.outcome(domain: context.domain, document: document, included: context.androidIncludes)
        return DomainCheckOutput(findings: findings(context.expectations, domain: context.domain,
                                                    document: AssetLinksIncludeCheck.mergedDocument(document, included),
                                                    unfetchedIncludes: included.unfetched))
    }
}

extension AndroidExpectationCheck {
    /// `expect.android-unchecked`'s message for `count` Android expectations.
    static func uncheckedMessage(count: Int, domain: String) -> String {
        count == 0 ? "The domain list has no Android expectation for \(domain) to check."
            : "\(Counted.noun(count, "Android expectation")) in the domain list could not be checked: https://\(domain)/.well-known/assetlinks.json could not be read as a statement list."
    }

    /// `expect.android-met`'s message for `count` Android expectations.
    static func metMessage(count: Int, domain: String) -> String {
        count == 1 ? "The Android expectation in the domain list holds for \(domain)."
            : count == 0 ? "The domain list has no Android expectation for \(domain)." : "All \(count) Android expectations in the domain list hold for \(domain)."
    }
}
