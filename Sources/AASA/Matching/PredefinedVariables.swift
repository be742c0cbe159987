/// The substitution variables Apple predefines, as lists of values (Apple defines them as lists of strings,
/// so case folding applies to them like to any other value).
///
/// `$(region)` and `$(lang)` are the two-letter codes Foundation's `Locale.isoRegionCodes` and
/// `Locale.isoLanguageCodes` list (ISO 3166-1 alpha-2 with the exceptional reservations Apple's list
/// carries, such as `EU` and `XK`; ISO 639-1). They are built in rather than read from the running
/// system's Foundation so a decision does not depend on the machine it runs on.
public enum PredefinedVariables {
    /// The values of predefined variable `name`, or nil when `name` is not predefined.
    public static func values(of name: String) -> [String]? {
        switch name {
        case "alpha": return letters(upper: true) + letters(upper: false)
        case "upper": return letters(upper: true)
        case "lower": return letters(upper: false)
        case "alnum": return letters(upper: true) + letters(upper: false) + digits
        case "digit": return digits
        case "xdigit": return digits + ["a", "b", "c", "d", "e", "f", "A", "B", "C", "D", "E", "F"]
        case "region": return regionCodes
        case "lang": return languageCodes
        default: return nil
        }
    }

    private static let digits = (0...9).map(String.init)

    private static func letters(upper: Bool) -> [String] {
        let base = upper ? UInt8(ascii: "A") : UInt8(ascii: "a")
        return (0..<26).map { String(decoding: [base + UInt8($0)], as: UTF8.self) }
    }

    /// Two-letter region codes as Foundation's `Locale.isoRegionCodes` lists them.
    public static let regionCodes: [String] = """
        AC AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW \
        BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CP CQ CR CU CV CW CX CY CZ DE DG DJ DK DM DO DZ EA EC EE EG EH ER \
        ES ET EU EZ FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU IC \
        ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY \
        MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM \
        PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA QO RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR \
        SS ST SV SX SY SZ TA TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM UN US UY UZ VA VC VE VG VI VN \
        VU WF WS XK YE YT ZA ZM ZW
        """.split(separator: " ").map(String.init)

    /// Two-letter (ISO 639-1) language codes as Foundation's `Locale.isoLanguageCodes` lists them.
    public static let languageCodes: [String] = """
        aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el \
        en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it \
        iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt \
        my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl \
        sm sn so sq sr ss st su sv sw ta te tg th ti tk tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za \
        zh zu
        """.split(separator: " ").map(String.init)
}
