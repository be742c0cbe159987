import Audit
import Foundation
import Testing
import TestSupport

/// Where `make test` put the packages it built (AASA_PACKAGES, relative to the repository), if it did.
enum BuiltPackages {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let folder: URL? = ProcessInfo.processInfo.environment["AASA_PACKAGES"].map {
        $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : repository.appendingPathComponent($0)
    }
}

/// The Debian package and the tarball that `make deb` and `make dist` built, used as a server without
/// the Swift toolchain uses them: installed with `dpkg -i` (removed again, whatever happens), then run
/// with /opt/swift hidden by a tmpfs in a mount namespace of their own.
///
/// `make test` builds both and names their folder in AASA_PACKAGES; a plain `swift test` has no
/// package to install, and the suite says it did not run.
@Suite(.serialized, .enabled(if: BuiltPackages.folder != nil, "needs AASA_PACKAGES: `make test` builds the packages and sets it"))
struct PackageInstallTests {
    static let repository = BuiltPackages.repository
    static let folder = BuiltPackages.folder
    static let toolchain = "/opt/swift"

    /// The only file in the packages folder whose name ends with `suffix`.
    static func built(_ suffix: String) throws -> URL {
        let folder = try #require(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("aasa-audit") && $0.hasSuffix(suffix) }
        let name = try #require(names.count == 1 ? names.first : nil, "one \(suffix) in \(folder.path), found \(names)")
        return folder.appendingPathComponent(name)
    }

    static func program(_ name: String, _ package: String) throws -> String {
        guard let path = ShellCommand.which(name) else { throw HarnessError.missingProgram("\(name) (Debian package \(package))") }
        return path
    }

    /// Runs `binary` with `arguments` in a mount namespace where /opt/swift is an empty tmpfs (checked
    /// before the binary starts: a mount that did not hide it fails the run with status 90).
    static func runWithoutToolchain(_ binary: String, _ arguments: [String], in directory: URL? = nil) throws -> ShellCommand.Outcome {
        let unshare = try program("unshare", "util-linux")
        let script = """
            mount -t tmpfs -o size=1m tmpfs \(toolchain) || exit 90
            [ -z "$(ls -A \(toolchain))" ] || { echo "\(toolchain) is not hidden" >&2; exit 90; }
            exec "$0" "$@"
            """
        return try ShellCommand.run(unshare, ["--mount", "/bin/sh", "-c", script, binary] + arguments,
                                    directory: try directory ?? AuditBinary.temporaryDirectory(), checked: false)
    }

    /// What a binary does without the toolchain: `--version`, `validate` of a good and a broken file, and
    /// an audit of a loopback site through the test nginx.
    static func expectRunsWithoutToolchain(_ binary: String) throws {
        let version = try runWithoutToolchain(binary, ["--version"])
        #expect(version.status == 0, "\(binary) --version: \(version.stderr)")
        let built = try AuditBinary.run(["--version"]).stdout.split(separator: "\n").first
        let lines = version.stdout.split(separator: "\n")
        #expect(lines.count == 3 && lines.first == built, "the version of the tests' own build first: \(version.stdout)")
        #expect(lines.dropFirst().first?.hasPrefix("git commit ") == true, "\(version.stdout)")
        #expect(lines.last?.hasPrefix("libcurl ") == true && lines.last?.contains(" with OpenSSL/") == true, "\(version.stdout)")

        let files = try AuditBinary.temporaryDirectory()
        try ScenarioFiles.good.write(to: files.appendingPathComponent("good.json"), atomically: true, encoding: .utf8)
        try ScenarioFiles.invalidJSON.write(to: files.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        let good = try runWithoutToolchain(binary, ["validate", "good.json"], in: files)
        #expect(good.status == 0 && good.stdout.hasPrefix("PASS"), "\(good.stdout)\(good.stderr)")
        let broken = try runWithoutToolchain(binary, ["validate", "broken.json"], in: files)
        #expect(broken.status == 1 && broken.stdout.contains("error json.syntax"), "\(broken.stdout)\(broken.stderr)")

        let sites = try LocalSites.shared.get()
        let out = try AuditBinary.temporaryDirectory()
        let audit = try runWithoutToolchain(binary, ["--cacert", sites.certificateAuthority.certificatePath, "--no-cdn", "--no-history",
                                                     "--out", out.path] + sites.connectToArguments + ["good.test", "notfound.test"])
        #expect(audit.status == 1, "notfound.test fails: \(audit.stderr)")
        let report = try AuditBinary.readReport(at: out.appendingPathComponent("report.json"))
        #expect(report.domains.map(\.domain).sorted() == ["good.test", "notfound.test"])
        #expect(report.domains.first { $0.domain == "good.test" }?.verdict == .pass, "\(report.domains.map(\.allFindings))")
        #expect(report.domains.first { $0.domain == "notfound.test" }?.usedLocation == nil)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("report.html").path))
    }

    @Test func hidingTheToolchainStopsTheTestsOwnBuild() throws {
        // The debug build loads the Swift runtime from /opt/swift: if it still ran, nothing was hidden.
        let outcome = try Self.runWithoutToolchain(try AuditBinary.path(), ["--version"])
        #expect(outcome.status == 127 && outcome.stderr.contains("libswift") && outcome.stderr.contains("cannot open shared object file"), "status \(outcome.status): \(outcome.stderr)")
    }

    @Test func thePackageInstallsRunsWithoutTheToolchainAndIsRemoved() throws {
        #expect(geteuid() == 0, "dpkg -i needs root")
        let dpkg = try Self.program("dpkg", "dpkg"), query = try Self.program("dpkg-query", "dpkg")
        let deb = try Self.built(".deb")
        let before = try ShellCommand.run(query, ["-W", "-f=${Status}", "aasa-audit"], checked: false)
        try #require(!before.stdout.contains("installed"), "aasa-audit is already installed here; this test would replace and remove it: \(before.stdout)")

        let install = try ShellCommand.run(dpkg, ["-i", deb.path], checked: false)
        defer {
            let remove = try? ShellCommand.run(dpkg, ["-r", "aasa-audit"], checked: false)
            #expect(remove?.status == 0, "dpkg -r aasa-audit: \(remove?.stderr ?? "not run")")
            #expect(!FileManager.default.fileExists(atPath: "/usr/bin/aasa-audit"), "dpkg -r left /usr/bin/aasa-audit")
        }
        try #require(install.status == 0, "dpkg -i \(deb.lastPathComponent): \(install.stderr)")

        let depends = try ShellCommand.run(query, ["-W", "-f=${Depends}", "aasa-audit"]).stdout
        #expect(!depends.lowercased().contains("swift"), "\(depends)")
        for package in ["libc6", "libcurl4", "libssl3", "libidn2-0", "libsqlite3-0", "libzip4", "ca-certificates"] {
            #expect(depends.contains(package), "Depends: \(depends) lacks \(package)")
        }

        let listed = Set(try ShellCommand.run(query, ["-L", "aasa-audit"]).stdout.split(separator: "\n").map(String.init))
        let doc = "/usr/share/doc/aasa-audit"
        for file in ["/usr/bin/aasa-audit", "/usr/share/man/man1/aasa-audit.1.gz", "\(doc)/copyright", "\(doc)/changelog.Debian.gz",
                     "\(doc)/examples/aasa-audit.service", "\(doc)/examples/aasa-audit.timer", "\(doc)/examples/crontab"] {
            #expect(listed.contains(file), "\(file) is not in the package")
        }
        // The examples and the man page are the repository's, not copies that drift.
        for example in ["aasa-audit.service", "aasa-audit.timer", "crontab"] {
            #expect(FileManager.default.contentsEqual(atPath: "\(doc)/examples/\(example)",
                                                      andPath: Self.repository.appendingPathComponent("examples/\(example)").path), "\(example)")
        }
        let man = try ShellCommand.run("/bin/sh", ["-c", "gzip -dc /usr/share/man/man1/aasa-audit.1.gz"]).stdout
        #expect(man == (try String(contentsOf: Self.repository.appendingPathComponent("docs/aasa-audit.1"), encoding: .utf8)))

        // The completions are in each shell's own folder, the ones the installed binary writes.
        let completions = [("bash", "/usr/share/bash-completion/completions/aasa-audit"), ("zsh", "/usr/share/zsh/vendor-completions/_aasa-audit"),
                           ("fish", "/usr/share/fish/vendor_completions.d/aasa-audit.fish")]
        for (shell, path) in completions {
            #expect(listed.contains(path), "\(path) is not in the package")
            let written = try Self.runWithoutToolchain("/usr/bin/aasa-audit", ["completions", shell])
            #expect(written.status == 0 && !written.stdout.isEmpty, "completions \(shell): \(written.stderr)")
            #expect((try? String(contentsOfFile: path, encoding: .utf8)) == written.stdout, "\(path)")
        }

        try Self.expectRunsWithoutToolchain("/usr/bin/aasa-audit")
    }

    @Test func theTarballHoldsThePackagesFilesWithItsChecksum() throws {
        let tarball = try Self.built(".tar.gz"), deb = try Self.built(".deb")
        let check = try ShellCommand.run(try Self.program("sha256sum", "coreutils"), ["-c", tarball.lastPathComponent + ".sha256"],
                                         directory: tarball.deletingLastPathComponent(), checked: false)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        let tar = try Self.program("tar", "tar")
        let top = tarball.lastPathComponent.replacingOccurrences(of: ".tar.gz", with: "")
        let inTarball = try ShellCommand.run(tar, ["-tzf", tarball.path]).stdout.split(separator: "\n")
            .filter { !$0.hasSuffix("/") }.map { String($0.dropFirst(top.count + 1)) }
        // The package's files less Debian's own (its changelog, lintian's overrides), under the same prefix.
        let dpkgDeb = try Self.program("dpkg-deb", "dpkg")
        let inPackage = try ShellCommand.run("/bin/sh", ["-c", "\"$0\" --fsys-tarfile \"$1\" | \"$2\" -t", dpkgDeb, deb.path, tar]).stdout
            .split(separator: "\n")
            .filter { !$0.hasSuffix("/") && !$0.contains("changelog.Debian") && !$0.contains("/lintian/") }
            .map { String($0.dropFirst("./usr/".count)) }
        #expect(inTarball.sorted() == inPackage.sorted())
        #expect(inTarball.contains("bin/aasa-audit"))

        let unpacked = try AuditBinary.temporaryDirectory()
        try ShellCommand.run(tar, ["-xzf", tarball.path, "-C", unpacked.path])
        try Self.expectRunsWithoutToolchain(unpacked.appendingPathComponent("\(top)/bin/aasa-audit").path)
    }
}
