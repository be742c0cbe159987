#!/bin/sh
# The history database's cost (`make bench-history`, docs/history.md): a year of nightly runs of a
# 5,000-domain list is generated through the History API (aasa-history-bench, release build), then
#   - one night's history work: the report's insights (failing since, fixed, flapping, trend) read
#     before the reports are written, and the run recorded after; must stay under 5 % of the wall
#     time of an audit of 5,000 domains on this machine (BENCH_AUDIT_SECONDS; by default the median
#     scripts/bench.sh measured last at N = 5,000, from .build/bench/audit-5000.seconds; without one,
#     9.95 s, docs/scaling.md's N = 5,000 on 2026-12-01: a slower machine needs its own)
#   - a domain's timeline, through the API and through `aasa-audit history DOMAIN` (the whole
#     command, process start included); must answer in well under a second.
# Usage: scripts/bench-history.sh       BENCH_SKIP_BUILD=1 BENCH_DOMAINS=5000 BENCH_RUNS=365 scripts/bench-history.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
domains="${BENCH_DOMAINS:-5000}"
runs="${BENCH_RUNS:-365}"
measured="$root/.build/bench/audit-5000.seconds"
audit_seconds="${BENCH_AUDIT_SECONDS:-$( [ -s "$measured" ] && cat "$measured" || echo 9.95)}"
echo "an audit of 5,000 domains: $audit_seconds s ($( [ -n "${BENCH_AUDIT_SECONDS:-}" ] && echo BENCH_AUDIT_SECONDS || { [ -s "$measured" ] && echo "scripts/bench.sh on this machine" || echo "docs/scaling.md's, measured on another machine"; }))"
# BENCH_SKIP_BUILD=1 (as make bench passes on) still builds the bench program when it is missing.
if [ -z "${BENCH_SKIP_BUILD:-}" ] || [ ! -x "$root/.build/release/aasa-history-bench" ]; then
  echo "building the release binaries ..." >&2
  (cd "$root" && swift build -c release --product aasa-history-bench >/dev/null && swift build -c release --product aasa-audit >/dev/null)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
file="$work/history.sqlite"

"$root/.build/release/aasa-history-bench" "$file" "$domains" "$runs" "$audit_seconds"

for domain in d0.example d1234.example; do
  start=$(date +%s.%N)
  lines=$("$root/.build/release/aasa-audit" history "$domain" --history "$file" | wc -l)
  end=$(date +%s.%N)
  seconds=$(echo "$end - $start" | bc 2>/dev/null || python3 -c "print(round($end - $start, 3))")
  echo "aasa-audit history $domain: $lines lines in $seconds s"
  python3 -c "import sys; sys.exit(0 if $end - $start < 1 else 1)" || { echo "FAIL: history $domain took a second or more"; exit 1; }
done
