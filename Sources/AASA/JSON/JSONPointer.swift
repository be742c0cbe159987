/// RFC 6901 JSON pointers, as findings use them to say where in a document they are.
public enum JSONPointer {
    /// Escapes one reference token: `~` becomes `~0` and `/` becomes `~1` (in that order, so `~1` stays unambiguous).
    public static func escape(_ token: String) -> String {
        // On the bytes: the checks build a pointer for every key they visit, and a walk over the
        // token's characters cost more than the rest of the pointer.
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
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
        joined(base, escape(token))
    }

    /// The pointer to element `index` of the array at `base`.
    public static func appending(_ base: String, _ index: Int) -> String {
        joined(base, String(index))
    }

    /// `base + "/" + token` in one allocation (the `+`s made two).
    private static func joined(_ base: String, _ token: String) -> String {
        var pointer = base
        let count = base.utf8.count + 1 + token.utf8.count
        if count > 15 { pointer.reserveCapacity(count) }  // up to 15 bytes a string is held inline
        pointer += "/"
        pointer += token
        return pointer
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
