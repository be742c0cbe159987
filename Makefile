# aasa-audit: the two commands of the README's quick start are `make audit` and `make test`.
SWIFT ?= swift
PREFIX ?= /usr/local
RELEASE_BIN = .build/release/aasa-audit
DOMAINS ?= domains.txt

.PHONY: all deps test-deps build release audit test docs clean bench

all: build

deps:
	@scripts/install-deps.sh

test-deps:
	@scripts/install-deps.sh --test

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Audits domains.txt (installing libcurl and building first when needed); reports go to reports/.
audit: release
	$(RELEASE_BIN) --domains $(DOMAINS)

# Unit tests and integration tests against a real nginx on loopback (the tests start it).
test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Regenerates docs/findings.md from the rule registry (a test fails when they disagree).
docs: build
	{ sed '/^| id |/,$$d' docs/findings.md; .build/debug/aasa-audit --list-findings; } > docs/findings.md.new
	mv docs/findings.md.new docs/findings.md

# aasa-audit against `curl --parallel` on N generated names served by nginx on loopback (docs/scaling.md).
# BENCH_SIZES="100 1000" BENCH_CONCURRENCY=64 BENCH_RUNS=3 override the defaults.
bench:
	@scripts/install-deps.sh --bench
	scripts/bench.sh

clean:
	rm -rf .build
