import Testing
@testable import Arguments

@Suite struct ArgumentCursorTests {
    static func read(_ arguments: [String], valuesFor: Set<String> = []) throws(UsageError) -> [String] {
        var cursor = ArgumentCursor(arguments)
        var seen: [String] = []
        while let argument = try cursor.next() {
            switch argument {
            case .positional(let text): seen.append("p:\(text)")
            case .option(let name):
                seen.append("o:\(name)")
                if valuesFor.contains(name) { seen.append("v:\(try cursor.value(for: name))") }
            }
        }
        return seen
    }

    @Test func optionsValuesAndPositionals() throws {
        #expect(try Self.read(["a", "--out", "dir", "b"], valuesFor: ["--out"]) == ["p:a", "o:--out", "v:dir", "p:b"])
        #expect(try Self.read(["--out=dir"], valuesFor: ["--out"]) == ["o:--out", "v:dir"])
        #expect(try Self.read(["--out=a=b"], valuesFor: ["--out"]) == ["o:--out", "v:a=b"], "only the first = splits")
        #expect(try Self.read(["--out="], valuesFor: ["--out"]) == ["o:--out", "v:"], "an empty =value is a value")
        #expect(try Self.read(["-o", "dir"], valuesFor: ["-o"]) == ["o:-o", "v:dir"])
    }

    @Test func standardInputAndDoubleDash() throws {
        #expect(try Self.read(["-"]) == ["p:-"])
        #expect(try Self.read(["--", "--strict", "-x", "--"]) == ["p:--strict", "p:-x", "p:--"])
        #expect(try Self.read(["--json", "--", "-"]) == ["o:--json", "p:-"])
    }

    @Test func aValueIsTakenEvenWhenItLooksLikeAnOption() throws {
        #expect(try Self.read(["--user-agent", "--strict"], valuesFor: ["--user-agent"]) == ["o:--user-agent", "v:--strict"])
    }

    @Test func missingValueAndValueForAFlag() {
        #expect(throws: UsageError.missingValue("--out")) { try Self.read(["--out"], valuesFor: ["--out"]) }
        #expect(throws: UsageError.invalidValue("--strict", "false", "this option takes no value")) { try Self.read(["--strict=false"]) }
        #expect(throws: UsageError.invalidValue("--json", "", "this option takes no value")) { try Self.read(["--json=", "x"]) }
    }

    @Test func messages() {
        #expect(UsageError.unknownOption("--bogus").description == "unknown option '--bogus' (see --help)")
        #expect(UsageError.missingValue("--out").description == "--out needs a value (see --help)")
        #expect(UsageError.invalidValue("--keep", "0", "expected 1 to 100000").description == "--keep \"0\": expected 1 to 100000")
        #expect(UsageError.missingArgument("name a DOMAIN").description == "name a DOMAIN")
    }
}
