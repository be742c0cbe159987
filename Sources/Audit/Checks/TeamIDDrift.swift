/// An app listed under another Team ID: the bundle ID is in the file, but with a different prefix
/// (an app transferred to another team, or a file copied from an old one). Pure.
public enum TeamIDDrift {
    /// The app IDs of `listed` that have `appID`'s bundle ID under another Team ID (or App ID prefix).
    public static func others(of appID: String, in listed: [String]) -> [String] {
        guard let dot = appID.firstIndex(of: ".") else { return [] }
        let bundle = appID[appID.index(after: dot)...]
        return listed.filter { other in
            guard other != appID, let otherDot = other.firstIndex(of: ".") else { return false }
            return other[other.index(after: otherDot)...] == bundle
        }
    }

    /// "lists com.example.app under Team ID OLDTEAM999 (OLDTEAM999.com.example.app), not under ABCDE12345".
    public static func phrase(appID: String, others: [String]) -> String {
        let team = appID.prefix { $0 != "." }
        let bundle = appID.drop { $0 != "." }.dropFirst()
        let teams = others.map { String($0.prefix { $0 != "." }) }
        return "lists \(bundle) under Team ID \(teams.joined(separator: " and ")) (\(others.joined(separator: ", "))), not under the app's Team ID \(team)"
    }
}
