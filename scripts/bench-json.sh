#!/bin/sh
# How long the document checks take on 1 MiB files shaped to make a careless checker slow
# (`make bench-json`): `aasa-audit validate` (release build) on each, wall time and peak RSS.
#   - one line of 174,761 repeated keys (issue 19: was 28 s when each repeat's column was counted
#     from the start of its line)
#   - 81,000 distinct unknown keys in one applinks.details entry
#   - 58,000 components of one entry
#   - 96,000 unknown keys at the root
#   - a plausible 1 MB file: thousands of details entries with escapes, numbers and non-ASCII text
#     (was a timed unit test, JSONParserTests.parsesAMegabyte)
# A case with a limit (LIMIT_S below) fails the run when it takes longer.
# Usage: scripts/bench-json.sh          BENCH_SKIP_BUILD=1 scripts/bench-json.sh
#        BENCH_SKIP_BUILD=1 BENCH_BINARY=.build/debug/aasa-audit scripts/bench-json.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
binary="${BENCH_BINARY:-$root/.build/release/aasa-audit}"
if [ -z "${BENCH_SKIP_BUILD:-}" ]; then
  echo "building the release binary ..." >&2
  (cd "$root" && swift build -c release >/dev/null)
fi
[ -x "$binary" ] || { echo "error: $binary is missing (run swift build -c release)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
size=1048576

python3 - "$work" "$size" <<'PY'
import sys
work, size = sys.argv[1], int(sys.argv[2])
def fill(name, head, item, tail):
    parts, length, n = [head], len(head) + len(tail), 0
    while True:
        piece = item(n)
        if length + len(piece) > size: break
        parts.append(piece); length += len(piece); n += 1
    parts.append(tail)
    open(f"{work}/{name}.json", "w").write("".join(parts))
fill("repeated-keys", '{"k":0', lambda n: ',"k":0', "}")
fill("details-keys", '{"applinks":{"details":[{"appIDs":["ABQ7KM3X2P.com.exemplo.app"],"components":[]',
     lambda n: f',"key{n}":0', "}]}}")
fill("components", '{"applinks":{"details":[{"appIDs":["ABQ7KM3X2P.com.exemplo.app"],"components":[{"/":"/a"}',
     lambda n: f',{{"/":"/p{n}/*"}}', "]}]}}")
fill("root-keys", '{"applinks":{"details":[]}', lambda n: f',"k{n}":0', "}")
fill("plausible-1mb", '{"applinks":{"details":[',
     lambda n: (',' if n else '') + f'{{"appIDs":["ABQ7KM3X2P.com.exemplo.app{n}"],"components":[{{"/":"/päth/{n}/*","?":{{"q":"a\\"b"}},'
               f'"exclude":false,"comment":"n {n * 7} ✓","weight":{n}.5e-3}}]}}', "]}}")
PY

slow=""
# NAME LIMIT_S (- for none)
for case in "repeated-keys -" "details-keys -" "components -" "root-keys -" "plausible-1mb 2"; do
  set -- $case
  name=$1 limit=$2
  file="$work/$name.json"
  /usr/bin/time -f "%e %M" -o "$work/time" "$binary" validate "$file" >/dev/null 2>&1 || true
  read -r wall rss <<EOT
$(tail -1 "$work/time")
EOT
  verdict=""
  if [ "$limit" != - ] && awk -v w="$wall" -v l="$limit" 'BEGIN { exit !(w > l) }'; then
    verdict="  SLOW (limit $limit s)"; slow="$slow $name"
  elif [ "$limit" != - ]; then
    verdict="  (limit $limit s)"
  fi
  printf '%-14s %8d bytes  %6s s  %7s KB peak%s\n' "$name" "$(wc -c < "$file")" "$wall" "$rss" "$verdict"
done
if [ -n "$slow" ]; then
  echo "bench-json: over the limit:$slow" >&2
  exit 1
fi
