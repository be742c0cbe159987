// swift-tools-version:6.0
import PackageDescription

// Data flows one way: targets → fetch → checks → results → reporters.
// No outside packages: Foundation, Swift Testing and Debian's C libraries (libcurl, OpenSSL, libidn2, SQLite, libzip)
// reached through tiny C shims are what there is. See docs/architecture.md.

// The git commit this build comes from, for `--version`: AASA_BUILD_COMMIT, which the Makefile sets
// ("" outside a git checkout). Not SwiftPM's Context.gitInformation: the manifest is cached across
// commits, so it would name an older one. Only hex digits and "+changes" pass: it becomes a C string.
let buildCommit = String((Context.environment["AASA_BUILD_COMMIT"] ?? "").filter { $0.isHexDigit || "+changes".contains($0) })

let package = Package(
    name: "aasa-audit",
    products: [
        .executable(name: "aasa-audit", targets: ["aasa-audit"])
    ],
    targets: [
        // A tiny C shim over libcurl: typed wrappers for the variadic setopt/getinfo calls.
        .target(
            name: "CCurl",
            linkerSettings: [.linkedLibrary("curl"), .linkedLibrary("ssl")]
        ),
        // Tiny C shims over libidn2 (international names, for Audit's DomainName) and OpenSSL's CMS
        // functions (signed files); SignedFiles unwraps a signed file before the pure core sees it.
        .target(name: "CIDN2", linkerSettings: [.linkedLibrary("idn2")]),
        .target(name: "CCMS", linkerSettings: [.linkedLibrary("crypto")]),
        // A tiny C shim over SQLite, for History.
        .target(name: "CSQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        // A tiny C shim over libzip, for reading an .ipa (and, in tests, writing one).
        .target(name: "CZip", linkerSettings: [.linkedLibrary("zip")]),
        // The build's git commit as a C string: Swift has no way to take a string constant from the build.
        .target(name: "CBuildInfo", cSettings: [.define("AASA_BUILD_COMMIT", to: "\"\(buildCommit)\"")]),
        .target(name: "CMalloc"),
        .target(name: "SignedFiles", dependencies: ["AASA", "CCMS"]),
        // An app's entitlements (its application identifier and Associated Domains) read from an
        // .entitlements/.xcent property list, a Mach-O code signature, a built .app or an .ipa (libzip
        // through CZip), and the provisioning profile inside (its CMS envelope opened through CCMS).
        .target(name: "Entitlements", dependencies: ["CZip", "CCMS", "ByteSources"]),
        // An Android app's claims read from its APK: the binary AndroidManifest.xml (package, App Links
        // intent filters, the hosts Android verifies) through libzip, and the signing certificates from
        // the APK Signing Block (v2/v3) or the v1 JAR signature (OpenSSL through CCMS). Plain values.
        .target(name: "AndroidPackage", dependencies: ["CZip", "CCMS", "ByteSources"]),
        // Bytes read at an offset in bounded pieces (a file, a buffer), with the reader's own error
        // type: the one reader under the Mach-O and APK Signing Block readers.
        .target(name: "ByteSources"),
        // Pure: parse and validate AASA documents. No I/O, no libcurl, no C.
        .target(name: "AASA"),
        // libcurl's multi interface on one event loop. Returns plain values, no verdicts.
        // AASA only for its constants (the two paths, Apple's CDN base and crawler User-Agent).
        .target(name: "Fetching", dependencies: ["CCurl", "AASA"]),
        // Targets (domains.txt), checks on fetched responses, verdicts, the report model.
        .target(name: "Audit", dependencies: ["AASA", "Fetching", "CIDN2", "CCMS", "SignedFiles", "Entitlements"]),
        // JSON, HTML, Markdown, JUnit and terminal text from the same result values. Never imports Fetching.
        // The HTML report's stylesheet is HTML/report.css, compiled in through the generated
        // HTML/ReportStylesheet.swift (`make stylesheet`), so the installed binary needs no resource bundle.
        .target(name: "Reporting", dependencies: ["Audit"], exclude: ["HTML/report.css"]),
        // The history database (reports/history.sqlite): records runs, answers what changed over time.
        // Imports the report model (Audit) only: never Reporting or Fetching.
        .target(name: "History", dependencies: ["Audit", "CSQLite"]),
        // One run: domain list → fetch → audit → report store → an outcome (report and exit status);
        // also the merge of shard reports, and the bounded readers of the files a run is given.
        .target(name: "Run", dependencies: ["Audit", "Fetching", "Reporting", "History", "Entitlements", "AndroidPackage", "CCMS", "CMalloc"]),
        // The command line of every subcommand, parsed and checked, with its help text. Never prints.
        .target(name: "Arguments", dependencies: ["Audit", "Fetching", "Reporting"]),
        // The thin executable: dispatch to a subcommand, console, progress line, signals.
        .executableTarget(name: "aasa-audit", dependencies: ["Arguments", "Audit", "Fetching", "Reporting", "Run", "History", "CBuildInfo"]),
        // `make bench-match`: URLs decided per second by the matching engine (built in release).
        .executableTarget(name: "aasa-match-bench", dependencies: ["AASA"]),
        // `make bench-history`: a year of nightly runs of 5,000 domains, then one night's recording and a timeline, timed.
        .executableTarget(name: "aasa-history-bench", dependencies: ["AASA", "Audit", "History"]),
        // `make bench`'s latency model: a TCP proxy adding a round-trip time (TestSupport's LatencyProxy).
        // Not part of the aasa-audit product.
        // Test support: throw-away CA, nginx on loopback, running the built binary.
        // Also builds an app's files at test time: Mach-O images, .app folders, .ipa zips (through CZip).
        .target(name: "TestSupport", dependencies: ["Audit", "CZip"]),

        .testTarget(name: "AASATests", dependencies: ["AASA", "TestSupport"]),
        .testTarget(name: "EntitlementsTests", dependencies: ["Entitlements", "TestSupport"]),
        .testTarget(name: "AndroidPackageTests", dependencies: ["AndroidPackage", "TestSupport"]),
        .testTarget(name: "SignedFilesTests", dependencies: ["SignedFiles"], exclude: ["Fixtures"]),
        .testTarget(name: "FetchingTests", dependencies: ["Fetching", "TestSupport"]),
        .testTarget(name: "AuditTests", dependencies: ["Audit", "TestSupport"], exclude: ["Fuzz/Inputs"]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting", "TestSupport"], exclude: ["Snapshots", "Fuzz/Inputs"]),
        .testTarget(name: "RunTests", dependencies: ["Run", "History", "TestSupport"]),
        // The executable's own code: how a run's events are put into words.
        .testTarget(name: "CommandTests", dependencies: ["aasa-audit", "Run", "Audit"]),
        .testTarget(name: "HistoryTests", dependencies: ["History", "TestSupport"]),
        .testTarget(name: "ArgumentsTests", dependencies: ["Arguments"]),
        .testTarget(name: "EndToEndTests", dependencies: ["Audit", "Reporting", "History", "TestSupport"], exclude: ["Snapshots"]),
    ],
    swiftLanguageModes: [.v5]
)
