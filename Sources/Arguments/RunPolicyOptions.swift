import Audit

/// What fails a run and how many run folders stay: `--fail-on` and `--keep`. Taken by the audit and
/// `merge`, declared here once (each gives its own help text) and checked here once.
public enum RunPolicyOptions {
    /// `--fail-on any|new|expiring[,...]`, stored at `path`.
    public static func failOn<Target>(_ path: WritableKeyPath<Target, FailOnList> & Sendable, help: String) -> DeclaredOption<Target> {
        DeclaredOption<FailOnList>.value("--fail-on", valueName: "LIST", kind: .choiceList(FailOn.allCases.map(\.rawValue)), defaultValue: "any",
                                         help: help) {
            switch FailOnList.parse($1.value) {
            case .success(let list):
                $0 = list
            case .failure(.anyWithNew):
                throw UsageError.invalidValue($1.name, $1.value, "any and new are two answers to which failing domains fail the run; give one of them")
            case .failure(.unknownWord(let word)):
                throw UsageError.invalidValue($1.name, $1.value, "\"\(word)\" is none of any (every failing domain), new (only what is new since the baseline) and expiring (a certificate within --expiry-warning-days), comma-separated")
            }
        }.lifted(path)
    }

    /// `--keep N`, stored at `path`.
    public static func keep<Target>(_ path: WritableKeyPath<Target, Int?> & Sendable, help: String) -> DeclaredOption<Target> {
        DeclaredOption<Int?>.value("--keep", valueName: "N", help: help) {
            $0 = try OptionValue.integer($1.value, $1.name, in: 1...100_000)
        }.lifted(path)
    }

    /// Checks what only the whole command line can tell: `--fail-on new` with `--no-baseline`,
    /// `--keep` with `--out`.
    public static func validate(failOn: FailOnList, keep: Int?, reports: ReportOptions) throws(UsageError) {
        if failOn.asksWhatIsNew && reports.noBaseline {
            throw .invalidValue("--fail-on", failOn.description, "it compares with a baseline, which --no-baseline turns off")
        }
        if let keep, reports.outDirectory != nil {
            throw .invalidValue("--keep", "\(keep)", "it prunes reports/<UTC time> folders, which are not written with --out")
        }
    }
}
