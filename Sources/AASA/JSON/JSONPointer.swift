/// RFC 6901 JSON pointers, as findings use them to say where in a document they are.
public enum JSONPointer {
    /// Escapes one reference token: `~` becomes `~0` and `/` becomes `~1` (in that order, so `~1` stays unambiguous).
    public static func escape(_ token: String) -> String {
        guard token.contains(where: { $0 == "~" || $0 == "/" }) else { return token }
        // By hand: Foundation's replacingOccurrences costs more than the rest of a pointer ("/" is a
        // component key, so this runs for every component of a large file).
        var escaped = ""
        escaped.reserveCapacity(token.utf8.count + 2)
        for character in token {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// The pointer to member `token` of the object at `base`.
    public static func appending(_ base: String, _ token: String) -> String {
        base + "/" + escape(token)
    }

    /// The pointer to element `index` of the array at `base`.
    public static func appending(_ base: String, _ index: Int) -> String {
        base + "/" + String(index)
    }
}

extension String {
    /// Plain substring replacement, so the pure module needs no Foundation for it.
    fileprivate func replacingOccurrences(of target: Character, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(count)
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
