#!/usr/bin/env bash
# The benchmark against curl itself (`make bench`): nginx on loopback serves N generated names under
# one wildcard certificate from a throw-away CA; aasa-audit audits them (both locations, the crawler's
# repeat, JSON and HTML reports written, --no-cdn), then `curl --parallel` fetches the same 2N URLs
# with the same concurrency, writing nothing. For each N: wall time, ratio, fetches per second, peak
# RSS and TLS handshakes of each, medians of several runs. See docs/scaling.md for how to read it.
#
#   scripts/bench.sh                      N = 100 1000 5000, C = 64, 3 runs per point
#   BENCH_SIZES="100 1000" BENCH_CONCURRENCY=32 BENCH_RUNS=5 scripts/bench.sh
#   BENCH_SKIP_BUILD=1 scripts/bench.sh   use the release binary already built
#   BENCH_NGINX_WORKERS=2 scripts/bench.sh   nginx worker processes (default 1)
#   BENCH_AASA=FILE scripts/bench.sh      serve FILE at both locations instead of a small valid one
#                                         (e.g. a 128 KB file of thousands of rules: audits that are
#                                         slow to check, to see that memory stays bounded)
set -euo pipefail

sizes=${BENCH_SIZES:-100 1000 5000}
concurrency=${BENCH_CONCURRENCY:-64}
runs=${BENCH_RUNS:-3}
workers=${BENCH_NGINX_WORKERS:-1}
cd "$(dirname "$0")/.."
root=$(pwd)
binary="$root/.build/release/aasa-audit"

for program in nginx openssl curl /usr/bin/time python3; do
  command -v "$program" >/dev/null 2>&1 || missing=1
done
if [ -n "${missing:-}" ]; then
  scripts/install-deps.sh --bench >&2
fi
if [ -z "${BENCH_SKIP_BUILD:-}" ]; then
  echo "building the release binary ..." >&2
  swift build -c release >/dev/null
fi
[ -x "$binary" ] || { echo "error: $binary is missing (run swift build -c release)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/aasa-bench.XXXXXX")
chmod 755 "$work"  # nginx workers may run as nobody
cleanup() {
  if [ -f "$work/nginx.pid" ]; then
    nginx -c "$work/nginx.conf" -p "$work" -e "$work/error.log" -s stop 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do [ -f "$work/nginx.pid" ] || break; sleep 0.1; done
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A throw-away CA and one wildcard certificate for every generated name.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 365 -subj "/CN=aasa-audit bench CA" \
  -keyout "$work/ca.key" -out "$work/ca.pem" 2>/dev/null
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=*.bench.test" \
  -keyout "$work/site.key" -out "$work/site.csr" 2>/dev/null
printf 'subjectAltName=DNS:*.bench.test\n' > "$work/ext"
openssl x509 -req -in "$work/site.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial -days 365 \
  -extfile "$work/ext" -out "$work/site.pem" 2>/dev/null
if [ -n "${BENCH_AASA:-}" ]; then
  cp "$BENCH_AASA" "$work/aasa.json"
else
  printf '{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/buy/*"}]}]},"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}\n' > "$work/aasa.json"
fi

# Each measured command connects to its own loopback address (127.0.0.2, .3, ...): thousands of
# connections leave thousands of sockets in TIME_WAIT, and a later command to the same address
# and port would pay for the kernel's search among them.
count=0; for _ in $sizes; do count=$((count + 2 * runs)); done
[ "$count" -le 250 ] || { echo "error: too many sizes x runs (at most 125 pairs)" >&2; exit 1; }
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
listens=""; for i in $(seq 2 $((count + 1))); do listens="$listens listen 127.0.0.$i:$port ssl http2;"; done
next_address=1
# One line per request: the connection's serial number (distinct numbers = TLS handshakes) and
# whether the handshake resumed a session.
cat > "$work/nginx.conf" <<CONF
daemon on; master_process on; worker_processes $workers; pid $work/nginx.pid; error_log $work/error.log;
worker_rlimit_nofile 16384;
events { worker_connections 8192; }
http {
  log_format bench '\$connection \$ssl_session_reused \$connection_requests';
  access_log $work/access.log bench;
  keepalive_requests 10000;
  client_body_temp_path $work/t1; proxy_temp_path $work/t2; fastcgi_temp_path $work/t3; uwsgi_temp_path $work/t4; scgi_temp_path $work/t5;
  server { $listens server_name *.bench.test;
    ssl_certificate $work/site.pem; ssl_certificate_key $work/site.key; ssl_protocols TLSv1.2 TLSv1.3;
    location = /.well-known/apple-app-site-association { default_type application/json; alias $work/aasa.json; }
    location = /apple-app-site-association { default_type application/json; alias $work/aasa.json; } }
}
CONF
nginx -c "$work/nginx.conf" -p "$work" -e "$work/error.log"
for _ in $(seq 1 50); do [ -f "$work/nginx.pid" ] && break; sleep 0.1; done
touch "$work/access.log"

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print "-"; exit } if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# "0:01.23" or "1:02:03.4" (GNU time's wall clock) to seconds.
seconds() { awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.3f\n", s }'; }
field() { grep "$1" "$2" | awk '{ print $NF }'; }

# Runs one measured command; prints "wall_seconds peak_rss_kb requests handshakes resumed cpu_seconds".
measure() {
  local name=$1; shift
  local before after
  before=$(wc -l < "$work/access.log")
  /usr/bin/time -v -o "$work/$name.time" "$@" > "$work/$name.stdout" 2> "$work/$name.stderr" || true
  sleep 0.2  # let nginx finish its log lines
  after=$(wc -l < "$work/access.log")
  tail -n +"$((before + 1))" "$work/access.log" | head -n "$((after - before))" > "$work/$name.log"
  local wall rss requests handshakes resumed
  wall=$(field "Elapsed (wall clock)" "$work/$name.time" | seconds)
  rss=$(field "Maximum resident set size" "$work/$name.time")
  requests=$(wc -l < "$work/$name.log")
  handshakes=$(awk '{ print $1 }' "$work/$name.log" | sort -u | wc -l)
  resumed=$(awk '!seen[$1]++ && $2 == "r"' "$work/$name.log" | wc -l)
  cpu=$(awk -v u="$(field "User time" "$work/$name.time")" -v s="$(field "System time" "$work/$name.time")" 'BEGIN { printf "%.2f", u + s }')
  echo "$wall $rss $requests $handshakes $resumed $cpu"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr)"
echo "curl:    $(curl --version | head -1)"
echo "nginx:   $(nginx -v 2>&1 | sed 's/^nginx version: //'), $workers worker(s); tool: $("$binary" --version)"
echo "C=$concurrency, $runs run(s) per N; aasa-audit: --no-cdn --format json,html --max-per-host $concurrency (every name is routed to one loopback server); curl: --parallel --parallel-max $concurrency -o /dev/null; each command on its own 127.0.0.x"
echo

rows=()
for n in $sizes; do
  for i in $(seq 1 "$n"); do echo "d$i.bench.test"; done > "$work/domains.txt"
  {
    echo "cacert = \"$work/ca.pem\""
    echo "user-agent = \"aasa-audit-bench\""
    echo "silent"
    echo "show-error"
    for i in $(seq 1 "$n"); do
      echo "url = \"https://d$i.bench.test/.well-known/apple-app-site-association\""
      echo "output = \"/dev/null\""
      echo "url = \"https://d$i.bench.test/apple-app-site-association\""
      echo "output = \"/dev/null\""
    done
  } > "$work/curl.conf"
  : > "$work/tool.runs"; : > "$work/curl.runs"
  for run in $(seq 1 "$runs"); do
    rm -rf "$work/out"
    tool_address=127.0.0.$((next_address + 1)); curl_address=127.0.0.$((next_address + 2)); next_address=$((next_address + 2))
    tool=$(measure tool "$binary" --domains "$work/domains.txt" --cacert "$work/ca.pem" --connect-to "::$tool_address:$port" \
      --no-cdn --concurrency "$concurrency" --max-per-host "$concurrency" --format json,html --out "$work/out")
    if [ ! -s "$work/out/report.json" ] || [ ! -s "$work/out/report.html" ]; then
      echo "error: aasa-audit wrote no reports for N=$n:" >&2; cat "$work/tool.stderr" >&2; exit 1
    fi
    grep -q "\"pass\" : $n" "$work/out/report.json" || { echo "error: not every domain passed for N=$n" >&2; tail -5 "$work/tool.stdout" >&2; exit 1; }
    curled=$(measure curl curl --parallel --parallel-max "$concurrency" --no-progress-meter --connect-to "::$curl_address:$port" --config "$work/curl.conf")
    if [ -s "$work/curl.stderr" ]; then echo "curl reported errors for N=$n:" >&2; head -5 "$work/curl.stderr" >&2; fi
    echo "$tool" >> "$work/tool.runs"; echo "$curled" >> "$work/curl.runs"
    read -r tw tr treq ths tres tcpu <<<"$tool"; read -r cw cr creq chs cres ccpu <<<"$curled"
    ratio=$(awk -v a="$tw" -v b="$cw" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    echo "$ratio" >> "$work/ratio.$n"
    echo "  N=$n run $run: aasa-audit ${tw}s (CPU ${tcpu}s) ${tr}KB ${treq} requests ${ths} handshakes ($tres resumed) | curl ${cw}s (CPU ${ccpu}s) ${cr}KB ${creq} requests ${chs} handshakes ($cres resumed) | ratio $ratio" >&2
  done
  col() { awk -v c="$2" '{ print $c }' "$work/$1.runs" | median; }
  tw=$(col tool 1); cw=$(col curl 1)
  ratio=$(median < "$work/ratio.$n")
  tfps=$(awk -v r="$(col tool 3)" -v t="$tw" 'BEGIN { printf "%.0f", r / t }')
  cfps=$(awk -v r="$(col curl 3)" -v t="$cw" 'BEGIN { printf "%.0f", r / t }')
  trss=$(awk -v k="$(col tool 2)" 'BEGIN { printf "%.0f", k / 1024 }')
  crss=$(awk -v k="$(col curl 2)" 'BEGIN { printf "%.0f", k / 1024 }')
  rows+=("| $n | $tw | $cw | $ratio | $(col tool 3) / $(col curl 3) | $tfps / $cfps | $trss / $crss | $(col tool 4) / $(col curl 4) | $(col tool 6) / $(col curl 6) |")
  echo "$n $tw $(col tool 6)" >> "$work/scaling"
done

echo
echo "| N | aasa-audit s | curl s | ratio | requests (tool / curl) | fetches/s (tool / curl) | peak RSS MB (tool / curl) | TLS handshakes (tool / curl) | CPU s (tool / curl) |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "Medians of $runs run(s); ratio = aasa-audit wall / curl wall, per run, then the median. The tool's requests"
echo "include the crawler's repeat of .well-known (AASA-Bot/1.0.0), one more per domain; curl fetches 2 per domain."
echo "CPU s is user + system time of the process (less sensitive than wall time to a busy machine)."
awk 'NR > 1 && t0 > 0 && c0 > 0 { printf "growth: N=%s takes %.2f x the wall time and %.2f x the CPU time of N=%s (linear: %.1f x)\n", $1, $2 / t0, $3 / c0, n0, $1 / n0 }
     { n0 = $1; t0 = $2; c0 = $3 }' "$work/scaling"
