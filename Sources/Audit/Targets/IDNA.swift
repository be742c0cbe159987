import CIDN2

/// IDNA2008 with UTS #46 non-transitional processing, by libidn2 (the library libcurl uses for the
/// same names): the mapping (case, width, compatibility forms, NFC), the validity rules and Punycode.
enum IDNA {
    /// libidn2's refusal: its error code and its English description.
    struct Refusal: Error, Equatable {
        var code: Int32
        var text: String

        /// The result is longer than a label or a name may be (libidn2 stops encoding at 63).
        var isTooLong: Bool {
            [IDN2_PUNYCODE_BIG_OUTPUT, IDN2_PUNYCODE_OVERFLOW, IDN2_TOO_BIG_LABEL, IDN2_TOO_BIG_DOMAIN]
                .map(\.rawValue).contains(code)
        }

        /// The xn-- text is not Punycode at all (as opposed to Punycode of something not allowed).
        var isBadPunycode: Bool { code == IDN2_PUNYCODE_BAD_INPUT.rawValue }

        /// A label starts or ends with "-" once mapped.
        var isHyphenAtEdge: Bool { code == IDN2_HYPHEN_STARTEND.rawValue }

        /// A character (or, for `IDN2_ALABEL_ROUNDTRIP_FAILED`, what it maps to) is not allowed.
        var isDisallowedCharacter: Bool {
            [IDN2_DISALLOWED, IDN2_INVALID_NONTRANSITIONAL, IDN2_ALABEL_ROUNDTRIP_FAILED].map(\.rawValue).contains(code)
        }
    }

    /// The ASCII (lookup) form of `text`: mapped, validated, non-ASCII labels as `xn--` Punycode.
    /// `text` must hold no NUL (the caller rejects control characters first).
    static func ascii(_ text: String) -> Result<String, Refusal> {
        var output: UnsafeMutablePointer<CChar>?
        let code = cidn2_to_ascii(text, &output)
        defer { cidn2_free(output) }
        guard code == IDN2_OK.rawValue, let output else { return .failure(refusal(code)) }
        return .success(String(cString: output))
    }

    /// The Unicode (display) form of an ASCII name, `xn--` labels decoded; nil when libidn2 cannot decode it.
    static func unicode(_ ascii: String) -> String? {
        var output: UnsafeMutablePointer<CChar>?
        let code = cidn2_to_unicode(ascii, &output)
        defer { cidn2_free(output) }
        guard code == IDN2_OK.rawValue, let output else { return nil }
        return String(cString: output)
    }

    private static func refusal(_ code: Int32) -> Refusal {
        Refusal(code: code, text: cidn2_strerror(code).map { String(cString: $0) } ?? "libidn2 error \(code)")
    }
}
