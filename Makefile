# aasa-audit: the two commands of the README's quick start are `make audit` and `make test`.
SWIFT ?= swift
PREFIX ?= /usr/local
RELEASE_BIN = .build/release/aasa-audit
DOMAINS ?= domains.txt
# The commit `--version` names (Package.swift reads it; "+changes" when the tree differs from it):
# empty outside a git checkout. Every build below is told.
BUILD_COMMIT := $(shell git rev-parse HEAD 2>/dev/null)$(shell git rev-parse HEAD >/dev/null 2>&1 && [ -n "$$(git status --porcelain 2>/dev/null)" ] && echo +changes)
export AASA_BUILD_COMMIT = $(BUILD_COMMIT)

.PHONY: all deps test-deps package-deps build release static deb dist audit test docs stylesheet fuzz fuzz-self-test clean install uninstall bench bench-match bench-json bench-history bench-inputs bench-html

all: build

deps:
	@scripts/install-deps.sh

test-deps:
	@scripts/install-deps.sh --test

package-deps:
	@scripts/install-deps.sh --package

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# The release binary with the Swift runtime linked in (Foundation's static libraries ship with the
# toolchain): it needs only Debian's shared libraries, and has no library search path ($ORIGIN, which
# lintian rejects). A build folder of its own, so `make release` and this one never rebuild each other.
STATIC_BUILD = .build/static
STATIC_BIN = $(STATIC_BUILD)/release/aasa-audit
PACKAGES = .build/packages
static: deps
	$(SWIFT) build -c release --static-swift-stdlib --disable-local-rpath --product aasa-audit --scratch-path $(STATIC_BUILD)

# $(PACKAGES)/aasa-audit_VERSION-1_ARCH.deb from the static binary, checked by lintian (scripts/package.sh).
deb: package-deps static
	scripts/package.sh deb $(STATIC_BIN) $(PACKAGES)

# The same files as a tarball for other Linux systems, with a SHA-256 file.
dist: package-deps static
	scripts/package.sh dist $(STATIC_BIN) $(PACKAGES)

# Audits domains.txt (installing libcurl and building first when needed); reports go to reports/.
audit: release
	$(RELEASE_BIN) --domains $(DOMAINS)

# Unit tests and integration tests against a real nginx on loopback (the tests start it), and the
# package and tarball installed and run with the Swift toolchain hidden (PackageInstallTests).
test: test-deps deb dist
	$(SWIFT) build --build-tests
	AASA_PACKAGES=$(PACKAGES) $(SWIFT) test --skip-build

# Regenerates docs/findings.md from the rule registry (a test fails when they disagree).
docs: build
	{ sed '/^| id |/,$$d' docs/findings.md; .build/debug/aasa-audit --list-findings; } > docs/findings.md.new
	mv docs/findings.md.new docs/findings.md

# Regenerates Sources/Reporting/HTML/ReportStylesheet.swift from report.css, the HTML report's
# stylesheet (a test fails when they disagree).
stylesheet:
	scripts/generate-stylesheet.sh

# Installs the release binary and the man page: PREFIX (default /usr/local) and DESTDIR (staging root for packaging).
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1

install: release
	install -d $(BINDIR) $(MANDIR)
	install -m 755 $(RELEASE_BIN) $(BINDIR)/aasa-audit
	install -m 644 docs/aasa-audit.1 $(MANDIR)/aasa-audit.1

uninstall:
	rm -f $(BINDIR)/aasa-audit $(MANDIR)/aasa-audit.1

# Builds the libFuzzer targets in Fuzz/ and runs each for FUZZ_SECONDS (see scripts/fuzz.sh).
FUZZ_SECONDS ?= 60
fuzz: deps
	scripts/fuzz.sh $(FUZZ_SECONDS)

# Proves a crashing fuzz target makes scripts/fuzz.sh fail (a throw-away target that traps at once).
fuzz-self-test: deps
	scripts/fuzz.sh --self-test

# aasa-audit (its defaults) against `curl --parallel` and the bare libcurl client (scripts/bench-bare-client.c)
# on N = 1000, 5000, 20000 generated names served by nginx on loopback, the growth from 5000 to 20000, the CPU
# ratio to the bare client, then the latency model: 5000 names at 50 ms round trips through
# scripts/bench-delay-proxy.c, beside the lower bound (docs/scaling.md). BENCH_SIZES="1000 5000" BENCH_RUNS=1
# BENCH_LATENCY_MS=0 (skip it) BENCH_LATENCY_N=1000 BENCH_TOOL_ARGS="--concurrency 128" override the defaults.
# Then the matching engine's own benchmark (bench-match), the document checks (bench-json), the history (bench-history)
# and hostile inputs (bench-inputs); each of the last fails when a case with a limit is over it. Last, report.html of
# 100,000 domains opened in headless Chromium (bench-html: size and time to interactive against issue 28's 20 MB and 3 s).
# The binary measured is the static one the .deb and the tarball ship (`make static`): what a server runs.
# A clone's `make release` build links the Swift runtime dynamically and used about 3 % more CPU
# (docs/scaling.md); BENCH_BINARY=.build/release/aasa-audit scripts/bench.sh measures it.
bench: static
	@scripts/install-deps.sh --bench
	BENCH_BINARY=$(CURDIR)/$(STATIC_BIN) BENCH_SKIP_BUILD=1 scripts/bench.sh
	$(MAKE) bench-match
	BENCH_BINARY=$(CURDIR)/$(STATIC_BIN) BENCH_SKIP_BUILD=1 $(MAKE) bench-json
	$(MAKE) bench-history
	BENCH_BINARY=$(CURDIR)/$(STATIC_BIN) BENCH_SKIP_BUILD=1 $(MAKE) bench-inputs
	BENCH_BINARY=$(CURDIR)/$(STATIC_BIN) BENCH_SKIP_BUILD=1 $(MAKE) bench-html

clean:
	rm -rf .build

# The document checks on 1 MiB files built to be slow to check (repeated keys, thousands of keys) and on a
# plausible 1 MB file (fails over its limit).
bench-json:
	scripts/bench-json.sh

# Inputs shaped to be slow to read, each with a limit the run fails over: a million lines of one domain, an
# .ipa of 100,000 members and Ctrl-C while one of 1,000,000 is read, merges of many input errors and of a huge N.
bench-inputs:
	scripts/bench-inputs.sh

# report.html of a 100,000-domain merge (synthetic shards copied from a loopback audit of a 39 KB file, 97 % passing)
# loaded in headless Chromium over the DevTools protocol: its size and the time until it is laid out, against
# 20 MB and 3 s (docs/scaling.md). BENCH_HTML_DOMAINS=2000 for another size.
bench-html:
	scripts/bench-html.sh

# The history database: a year of nightly runs of 5,000 domains generated, then one night's
# history work (under 5 % of an audit) and a domain's timeline (under a second) timed (docs/history.md).
bench-history:
	scripts/bench-history.sh

# URLs decided per second by the matching engine: a generated document with 400 rules, 100,000 URLs.
# Fails when deciding them takes more than a second.
bench-match:
	$(SWIFT) build -c release --product aasa-match-bench
	.build/release/aasa-match-bench 400 100000 1
