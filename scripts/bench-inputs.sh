#!/bin/sh
# How long the release binary takes on inputs shaped to make a careless reader slow (`make bench-inputs`),
# each with its limit: the run fails when one is over it. These were timed unit tests; speed targets
# belong here (the tests keep what each must produce).
#   million-lines       a domain list of 1,000,000 lines of one domain: read, made one entry, audited once
#                       (its fetch refused at once on loopback)                            limit 10 s
#   ipa-100000          `--entitlements` on an .ipa of 100,000 members (27-30 s while the member lists
#                       were searched, issue 31)                                            limit 1 s
#   ipa-sigint          Ctrl-C (SIGINT) 0.3 s into `--entitlements` on an .ipa of 1,000,000 members:
#                       the time from the signal to the exit (status 130)                  limit 0.5 s
#   match-sigint        the same through `match --entitlements`                             limit 0.5 s
#   merge-input-errors  `merge` of two shards that each list 60,000 input errors (a search per
#                       error made it quadratic)                                            limit 10 s
#   merge-huge-n        `merge` of shards 1 and 3 of N = 2,147,483,647 (never walks 1...N)  limit 5 s
# Usage: scripts/bench-inputs.sh          BENCH_SKIP_BUILD=1 scripts/bench-inputs.sh
#        BENCH_SKIP_BUILD=1 BENCH_BINARY=.build/debug/aasa-audit scripts/bench-inputs.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
binary="${BENCH_BINARY:-$root/.build/release/aasa-audit}"
if [ -z "${BENCH_SKIP_BUILD:-}" ]; then
  echo "building the release binary ..." >&2
  (cd "$root" && swift build -c release --product aasa-audit >/dev/null)
fi
[ -x "$binary" ] || { echo "error: $binary is missing (run swift build -c release)" >&2; exit 1; }
# Absolute: the measured commands run in their own folders (a relative path, as `make bench` gave, failed there).
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

exec python3 - "$binary" "$work" <<'PY'
import json, os, signal, subprocess, sys, time, zipfile
binary, work = sys.argv[1], sys.argv[2]
failed = []

def report(name, seconds, limit, status, expected, detail=""):
    ok = seconds <= limit and status == expected
    print(f"{name:<19} {seconds:7.3f} s  (limit {limit:g} s)  exit {status}{'' if status == expected else f', expected {expected}'}"
          f"{detail}{'' if ok else '  SLOW' if status == expected else '  WRONG'}")
    if not ok:
        failed.append(name)

def timed(name, arguments, limit, expected, cwd=work):
    # The inputs just written are flushed first: a report's fsync would otherwise wait for them
    # (ext4 commits all dirty data with it), which times the disk, not the tool.
    os.sync()
    started = time.monotonic()
    run = subprocess.run([binary] + arguments, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    report(name, time.monotonic() - started, limit, run.returncode, expected)

def handles_sigint(pid):
    """Whether the process has taken SIGINT over (a handler of its own: dispatch's signal source)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("SigCgt:"):
                    return int(line.split()[1], 16) & (1 << (signal.SIGINT - 1)) != 0
    except OSError:
        pass
    return False

def interrupted(name, arguments, limit, after=0.3):
    """SIGINT `after` seconds in (and not before the tool has taken the signal over: a signal during
    its start kills it, which measures nothing); the time from the signal to the exit."""
    os.sync()
    started = time.monotonic()
    process = subprocess.Popen([binary] + arguments, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    while process.poll() is None and not handles_sigint(process.pid) and time.monotonic() - started < 10:
        time.sleep(0.005)
    time.sleep(max(0, after - (time.monotonic() - started)))
    if process.poll() is not None:
        report(name, 0, limit, process.returncode, 130, "  (ended before the signal: make the input larger)")
        return
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    process.wait()
    report(name, time.monotonic() - sent, limit, process.returncode, 130)

def ipa(path, members):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("Payload/", b"")
        for index in range(members):
            archive.writestr(f"Payload/f{index}", b"")

# A list of one domain a million times; its fetch goes to a closed port on loopback.
with open(f"{work}/domains.txt", "w") as file:
    file.write("one.bench.test\n" * 1_000_000)
timed("million-lines", ["--domains", "domains.txt", "--connect-to", "one.bench.test:443:127.0.0.1:1", "--no-cdn",
                        "--timeout", "2", "--connect-timeout", "1", "--out", "out-lines", "--no-history"], 10, 1)
# Gone before the .ipa cases: with no domain given, the audit would read ./domains.txt as its list too.
os.remove(f"{work}/domains.txt")

ipa(f"{work}/Many.ipa", 100_000)
timed("ipa-100000", ["--entitlements", "Many.ipa", "--out", "out-ipa", "--no-history"], 1, 2)
ipa(f"{work}/Huge.ipa", 1_000_000)
interrupted("ipa-sigint", ["--entitlements", "Huge.ipa", "--out", "out-huge", "--no-history"], 0.5)
interrupted("match-sigint", ["match", "--entitlements", "Huge.ipa", "https://a.test/"], 0.5)

def shard(name, index, count, problems):
    report = {"schemaVersion": 1, "tool": {"name": "aasa-audit", "version": "bench"}, "generatedAt": "2026-12-01T02:00:00Z",
              "complete": True, "summary": {"domains": 0, "pass": 0, "warn": 0, "fail": 0}, "inputErrors": problems,
              "domains": [], "shard": {"index": index, "count": count}}
    with open(f"{work}/{name}", "w") as file:
        json.dump(report, file)

problems = [{"file": "domains.txt", "line": n, "text": f"junk {n}", "reason": "contains a space"} for n in range(1, 60_001)]
shard("errors-1.json", 1, 2, problems)
shard("errors-2.json", 2, 2, problems)
timed("merge-input-errors", ["merge", "errors-1.json", "errors-2.json", "--out", "out-errors", "--no-history"], 10, 2)
shard("huge-1.json", 1, 2_147_483_647, [])
shard("huge-3.json", 3, 2_147_483_647, [])
timed("merge-huge-n", ["merge", "huge-1.json", "huge-3.json", "--out", "out-huge-n", "--no-history"], 5, 2)

if failed:
    print(f"bench-inputs: over the limit or wrong: {', '.join(failed)}", file=sys.stderr)
    sys.exit(1)
PY
