import Fetching

/// What `--version` prints: the version, the git commit the binary was built from, and the libcurl
/// and TLS library it runs with (a server's own shared libraries: they change under an installed binary).
public struct VersionText: Equatable, Sendable {
    /// The tool's version (`AuditOptions.version`).
    public var version: String
    /// The commit as the build recorded it: 40 hex digits, "+changes" after them when the tree had
    /// uncommitted changes, "" when the build was not told (plain `swift build`, or outside a git checkout).
    public var commit: String
    public var libraries: LinkedLibraries

    public init(version: String = AuditOptions.version, commit: String, libraries: LinkedLibraries) {
        self.version = version
        self.commit = commit
        self.libraries = libraries
    }

    /// Three lines; the first is "aasa-audit VERSION" alone, for scripts that read it.
    public var text: String {
        let changes = "+changes"
        let commitLine: String
        if commit.isEmpty {
            commitLine = "git commit not recorded (built without the Makefile, or outside a git checkout)"
        } else if commit.hasSuffix(changes) {
            commitLine = "git commit \(commit.dropLast(changes.count)), with uncommitted changes"
        } else {
            commitLine = "git commit \(commit)"
        }
        let tls = libraries.tls.map { " with \($0)" } ?? " without TLS"
        return "aasa-audit \(version)\n\(commitLine)\nlibcurl \(libraries.curl)\(tls)"
    }
}
