#!/usr/bin/env bash
# The benchmark against curl itself (`make bench`): nginx on loopback serves N generated names under
# one wildcard certificate from a throw-away CA; aasa-audit audits them with its defaults (both
# locations, the crawler's repeat, JSON and HTML reports written; only --connect-to, --cacert and
# --no-cdn given), then `curl --parallel` fetches the same 2N URLs, writing nothing. For each N: wall
# time, ratio, fetches per second, peak RSS, TLS handshakes and CPU time of each (and nginx's CPU
# time during each run), medians of several runs, and
# how N = 20,000 grows over N = 5,000. Beside both, the bare libcurl client (scripts/bench-bare-client.c:
# exactly the tool's transfers, nothing else): the tool's CPU over its CPU (target: at most 1.15 at
# N = 5,000 and 20,000), also taken per CPU second nginx spent serving each (steadier on a drifting
# VM). Then the latency model: the same with every round trip made 50 ms longer by a TCP proxy
# (scripts/bench-delay-proxy.c), beside the lower bound, with the proxy's own CPU checked to be under a
# tenth of the tool's. See docs/scaling.md.
#
#   scripts/bench.sh                      N = 1000 5000 20000, curl C = 64, 3 runs per point, latency model
#   BENCH_SIZES="100 1000" BENCH_CONCURRENCY=32 BENCH_RUNS=5 scripts/bench.sh
#   BENCH_SKIP_BUILD=1 scripts/bench.sh   use the release binaries already built
#   BENCH_NGINX_WORKERS=2 scripts/bench.sh   nginx worker processes (default 1)
#   BENCH_TOOL_ARGS="--concurrency 64" scripts/bench.sh   extra options for aasa-audit (default: none)
#   BENCH_LATENCY_MS=50 BENCH_LATENCY_N=5000 BENCH_LATENCY_RUNS=1 scripts/bench.sh   the latency model
#                                         (BENCH_LATENCY_MS=0: skip it; lists, e.g. BENCH_LATENCY_MS="50 150"
#                                         BENCH_LATENCY_N="5000 20000", run every pair: the curve)
#   BENCH_LATENCY_CONCURRENCY="32 64 128" scripts/bench.sh   the tool's --concurrency values in the
#                                         latency model (default: its own default)
#   BENCH_LATENCY_PROGRAMS=tool scripts/bench.sh   which programs the latency model runs (default
#                                         "tool curl bare"; the tool alone for a quicker curve)
#   BENCH_LATENCY_GRID_MS=1 scripts/bench.sh   the delay proxy's grid (default RTT / 25: each half
#                                         trip within 2 % of RTT/2; see scripts/bench-delay-proxy.c)
#   BENCH_MERGE=20x5000 scripts/bench.sh  shards x names per shard for the merge phase (default 4x2500;
#                                         0: skip it): the shards audited, then `merge` measured
#   BENCH_PERF=DIR scripts/bench.sh       record each aasa-audit run and each bare-client run with
#                                         `perf record -g` into DIR (their CPU then includes perf's)
#   BENCH_PERF_ARGS="-F 499 --call-graph dwarf,16384"   perf record's options instead of -g (the
#                                         Swift code has no frame pointers: dwarf attributes it)
#   BENCH_BINARY=/tmp/aasa-before scripts/bench.sh   another build of aasa-audit (an A/B comparison)
#   BENCH_CALLGRIND_N=1000 scripts/bench.sh   the tool and the bare client under valgrind's callgrind
#                                         over N names (0: skip): their instructions, which unlike CPU
#                                         time do not drift with the VM (user space only)
#   BENCH_AASA=FILE scripts/bench.sh      serve FILE at both locations instead of a small valid one
#                                         (e.g. a 128 KB file of thousands of rules: audits that are
#                                         slow to check, to see that memory stays bounded)
#   BENCH_AASA_DISTINCT=1 scripts/bench.sh   each name serves its own content: the first BENCHHOST
#                                         in the file becomes the host name (nginx's sub_filter);
#                                         for report.json's size when no two domains share a file
set -euo pipefail

sizes=${BENCH_SIZES-1000 5000 20000}
concurrency=${BENCH_CONCURRENCY:-64}
runs=${BENCH_RUNS:-3}
workers=${BENCH_NGINX_WORKERS:-1}
latency_ms_list=${BENCH_LATENCY_MS:-50}
latency_n_list=${BENCH_LATENCY_N:-5000}
latency_runs=${BENCH_LATENCY_RUNS:-$runs}
latency_concurrency_list=${BENCH_LATENCY_CONCURRENCY:-}
latency_programs=${BENCH_LATENCY_PROGRAMS:-tool curl bare}
latency_grid_ms=${BENCH_LATENCY_GRID_MS:-}
merge_plan=${BENCH_MERGE:-4x2500}
callgrind_n=${BENCH_CALLGRIND_N:-1000}
read -r -a tool_args <<<"${BENCH_TOOL_ARGS:-}"
cd "$(dirname "$0")/.."
root=$(pwd)
# `make bench` passes the static build (what the package ships); run alone, the script builds and
# measures the release build of a clone.
binary=${BENCH_BINARY:-"$root/.build/release/aasa-audit"}
# The bare libcurl client and the delay proxy: small C programs, built here (not part of the product).
bare="$root/.build/bench/bench-bare-client"
proxy="$root/.build/bench/bench-delay-proxy"

for program in nginx openssl curl /usr/bin/time python3; do
  command -v "$program" >/dev/null 2>&1 || missing=1
done
if [ -n "${missing:-}" ]; then
  scripts/install-deps.sh --bench >&2
fi
if [ -z "${BENCH_SKIP_BUILD:-}" ]; then
  echo "building the release binary ..." >&2
  swift build -c release --product aasa-audit >/dev/null
fi
[ -x "$binary" ] || { echo "error: $binary is missing (run swift build -c release)" >&2; exit 1; }
mkdir -p "$root/.build/bench"
# shellcheck disable=SC2046
cc -O2 -Wall -o "$bare" scripts/bench-bare-client.c $(pkg-config --cflags --libs libcurl) \
  || { echo "error: cannot build scripts/bench-bare-client.c (needs libcurl's headers: scripts/install-deps.sh --bench)" >&2; exit 1; }
cc -O2 -Wall -o "$proxy" scripts/bench-delay-proxy.c \
  || { echo "error: cannot build scripts/bench-delay-proxy.c" >&2; exit 1; }
if [ -n "${BENCH_PERF:-}" ]; then mkdir -p "$BENCH_PERF"; fi

work=$(mktemp -d "${TMPDIR:-/tmp}/aasa-bench.XXXXXX")
chmod 755 "$work"  # nginx workers may run as nobody
proxies=()
cleanup() {
  # Each entry is the /usr/bin/time watching a proxy: the proxy (its child) first, then time.
  for pid in "${proxies[@]}"; do kill $(pgrep -P "$pid") "$pid" 2>/dev/null || true; done
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
printf 'subjectAltName=DNS:*.bench.test\nextendedKeyUsage=serverAuth\n' > "$work/ext"
openssl x509 -req -in "$work/site.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial -days 365 \
  -extfile "$work/ext" -out "$work/site.pem" 2>/dev/null
if [ -n "${BENCH_AASA:-}" ]; then
  cp "$BENCH_AASA" "$work/aasa.json"
else
  printf '{"applinks":{"details":[{"appIDs":["K4B7C2D9E1.com.benchmark.shop"],"components":[{"/":"/buy/*"}]}]},"webcredentials":{"apps":["K4B7C2D9E1.com.benchmark.shop"]}}\n' > "$work/aasa.json"
fi

# BENCH_AASA_DISTINCT=1: each name serves its own content (the first BENCHHOST in the file becomes
# the host name), as opposed to the one file every name serves; for report.json's size (docs/scaling.md).
distinct=""
if [ -n "${BENCH_AASA_DISTINCT:-}" ]; then distinct="sub_filter_types application/json; sub_filter_once on; sub_filter BENCHHOST \$host;"; fi

# Each measured command connects to its own loopback address (127.0.0.2, .3, ...): thousands of
# connections leave thousands of sockets in TIME_WAIT, and a later command to the same address
# and port would pay for the kernel's search among them.
# The latency model's proxies listen on their own addresses too (one per program and run) and reach
# nginx over its Unix socket (no TCP on that half: see scripts/bench-delay-proxy.c).
count=0; for _ in $sizes; do count=$((count + 3 * runs)); done
if [ "$latency_ms_list" != 0 ]; then
  for _ in $latency_ms_list; do for _ in $latency_n_list; do for _ in ${latency_concurrency_list:-default}; do
    count=$((count + 3 * latency_runs)); done; done; done
fi
if [ "$merge_plan" != 0 ]; then count=$((count + 1)); fi
if [ "$callgrind_n" != 0 ]; then count=$((count + 2)); fi
[ "$count" -le 250 ] || { echo "error: too many sizes x runs (at most 250 loopback addresses)" >&2; exit 1; }
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
listens=""; for i in $(seq 2 $((count + 1))); do listens="$listens listen 127.0.0.$i:$port ssl http2;"; done
listens="$listens listen unix:$work/nginx.sock ssl http2;"
next_address=1
# One line per request: the connection's serial number (distinct numbers = TLS handshakes) and
# whether the handshake resumed a session.
cat > "$work/nginx.conf" <<CONF
daemon on; master_process on; worker_processes $workers; pid $work/nginx.pid; error_log $work/error.log;
worker_rlimit_nofile 65536;
events { worker_connections 16384; }
http {
  log_format bench '\$connection \$ssl_session_reused \$connection_requests';
  access_log $work/access.log bench;
  keepalive_requests 10000;
  client_body_temp_path $work/t1; proxy_temp_path $work/t2; fastcgi_temp_path $work/t3; uwsgi_temp_path $work/t4; scgi_temp_path $work/t5;
  server { $listens server_name *.bench.test;
    ssl_certificate $work/site.pem; ssl_certificate_key $work/site.key; ssl_protocols TLSv1.2 TLSv1.3; $distinct
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

# CPU seconds (user + system) used so far by nginx's worker processes: the server's share of the
# machine, printed per run, since on loopback the server's handshakes compete with the client's.
server_cpu() {
  local master ticks=0 pid
  master=$(cat "$work/nginx.pid" 2>/dev/null) || { echo 0; return; }
  for pid in $(pgrep -P "$master"); do
    # Fields after the command name's closing parenthesis: utime is the 12th, stime the 13th.
    ticks=$((ticks + $(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | awk '{ print $12 + $13 }' || echo 0)))
  done
  awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }'
}

# Runs one measured command; prints "wall_seconds peak_rss_kb requests handshakes resumed cpu_seconds
# server_cpu_seconds".
measure() {
  local name=$1; shift
  local before after server_before
  server_before=$(server_cpu)
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
  server=$(awk -v a="$server_before" -v b="$(server_cpu)" 'BEGIN { printf "%.2f", b - a }')
  echo "$wall $rss $requests $handshakes $resumed $cpu $server"
}

# The tool's own default concurrency (what the lower bound divides by), from its --help.
tool_concurrency=$("$binary" --help | sed -n 's/.*--concurrency N .*(default: \([0-9]*\)).*/\1/p' | head -1)
for ((i = 0; i < ${#tool_args[@]}; i++)); do
  if [ "${tool_args[$i]}" = "--concurrency" ]; then tool_concurrency=${tool_args[$((i + 1))]}; fi
done
tool_concurrency=${tool_concurrency:-32}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr); load average at start:$(cut -d' ' -f1-3 /proc/loadavg | sed 's/^/ /')"
echo "curl:    $(curl --version | head -1)"
echo "nginx:   $(nginx -v 2>&1 | sed 's/^nginx version: //'), $workers worker(s); tool: $("$binary" --version) ($binary)"
echo "aasa-audit: its defaults (--concurrency $tool_concurrency) with --connect-to, --cacert, --no-cdn --format json,html${tool_args[*]:+ ${tool_args[*]}}; curl: --parallel --parallel-max $concurrency -o /dev/null; $runs run(s) per N; each command on its own 127.0.0.x"
echo

# Writes the domain list and curl's config for N names to $work.
write_lists() {
  local n=$1
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
}

# One aasa-audit run over $work/domains.txt (N names) through TARGET (address:port); checks that it
# wrote both reports and that every domain passed; prints measure's line.
run_tool() {
  local n=$1 target=$2 label=$3
  rm -rf "$work/out"
  local command=("$binary" --domains "$work/domains.txt" --cacert "$work/ca.pem" --connect-to "::$target" \
    --no-cdn --format json,html --out "$work/out" "${tool_args[@]}")
  if [ -n "${BENCH_PERF:-}" ]; then command=(perf record ${BENCH_PERF_ARGS:--g} -q -o "$BENCH_PERF/$label.perf.data" -- "${command[@]}"); fi
  measure tool "${command[@]}"
  if [ ! -s "$work/out/report.json" ] || [ ! -s "$work/out/report.html" ]; then
    echo "error: aasa-audit wrote no reports for N=$n:" >&2; cat "$work/tool.stderr" >&2; exit 1
  fi
  echo "N=$n: report.json $(stat -c %s "$work/out/report.json") bytes, report.html $(stat -c %s "$work/out/report.html") bytes" >&2
  grep -q "\"pass\" : $n" "$work/out/report.json" || { echo "error: not every domain passed for N=$n" >&2; tail -5 "$work/tool.stdout" >&2; exit 1; }
}

run_curl() {
  local n=$1 target=$2
  measure curl curl --parallel --parallel-max "$concurrency" --no-progress-meter --connect-to "::$target" --config "$work/curl.conf"
  if [ -s "$work/curl.stderr" ]; then echo "curl reported errors for N=$n:" >&2; head -5 "$work/curl.stderr" >&2; fi
}

# The bare libcurl client: the tool's transfers at the tool's concurrency, nothing else.
run_bare() {
  local n=$1 target=$2 c=$3 label=${4:-}
  local command=("$bare" "$work/domains.txt" "$target" "$work/ca.pem" "$c")
  if [ -n "${BENCH_PERF:-}" ] && [ -n "$label" ]; then command=(perf record ${BENCH_PERF_ARGS:--g} -q -o "$BENCH_PERF/$label.perf.data" -- "${command[@]}"); fi
  measure bare "${command[@]}"
  grep -q "failed 0" "$work/bare.stdout" || { echo "bench-bare-client reported failures for N=$n:" >&2; head -5 "$work/bare.stderr" >&2; }
}

rows=(); bare_rows=()
: > "$work/scaling"
: > "$work/cpu-ratios"
for n in $sizes; do
  write_lists "$n"
  : > "$work/tool.runs"; : > "$work/curl.runs"; : > "$work/bare.runs"; : > "$work/ratio.$n"; : > "$work/cpuratio.$n"; : > "$work/served.$n"
  for run in $(seq 1 "$runs"); do
    next_address=$((next_address + 3))
    tool_address=127.0.0.$((next_address - 2)); curl_address=127.0.0.$((next_address - 1)); bare_address=127.0.0.$next_address
    # The tool and the bare client back to back, in turn first (a VM's speed drifts over a minute:
    # their CPU was 10 to 14 s for the same work within one hour), then curl.
    if [ $((run % 2)) = 1 ]; then
      tool=$(run_tool "$n" "$tool_address:$port" "N$n-run$run")
      bared=$(run_bare "$n" "$bare_address:$port" "$tool_concurrency" "bare-N$n-run$run")
    else
      bared=$(run_bare "$n" "$bare_address:$port" "$tool_concurrency" "bare-N$n-run$run")
      tool=$(run_tool "$n" "$tool_address:$port" "N$n-run$run")
    fi
    curled=$(run_curl "$n" "$curl_address:$port")
    echo "$tool" >> "$work/tool.runs"; echo "$curled" >> "$work/curl.runs"; echo "$bared" >> "$work/bare.runs"
    read -r tw tr treq ths tres tcpu tsrv <<<"$tool"; read -r cw cr creq chs cres ccpu csrv <<<"$curled"
    read -r bw br breq bhs bres bcpu bsrv <<<"$bared"
    ratio=$(awk -v a="$tw" -v b="$cw" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    cpuratio=$(awk -v a="$tcpu" -v b="$bcpu" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    # The same ratio with each program's CPU taken per CPU second nginx spent serving it: nginx does
    # the same work for both (the same requests and handshakes), so its CPU gauges how fast the VM
    # was during each run, and the drift between the two runs cancels out.
    served=$(awk -v a="$tcpu" -v b="$bcpu" -v sa="$tsrv" -v sb="$bsrv" 'BEGIN { printf "%.3f", (b > 0 && sa > 0 && sb > 0 ? (a / sa) / (b / sb) : 0) }')
    echo "$ratio" >> "$work/ratio.$n"; echo "$cpuratio" >> "$work/cpuratio.$n"; echo "$served" >> "$work/served.$n"
    echo "  N=$n run $run (load$(cut -d' ' -f1 /proc/loadavg | sed 's/^/ /')): aasa-audit ${tw}s (CPU ${tcpu}s, nginx ${tsrv}s) ${tr}KB ${treq} requests ${ths} handshakes ($tres resumed) | curl ${cw}s (CPU ${ccpu}s, nginx ${csrv}s) ${cr}KB ${creq} requests ${chs} handshakes ($cres resumed) | bare client ${bw}s (CPU ${bcpu}s, nginx ${bsrv}s) ${br}KB ${breq} requests ${bhs} handshakes | ratio $ratio, CPU / bare $cpuratio (per nginx CPU $served)" >&2
  done
  col() { awk -v c="$2" '{ print $c }' "$work/$1.runs" | median; }
  tw=$(col tool 1); cw=$(col curl 1); bw=$(col bare 1)
  ratio=$(median < "$work/ratio.$n"); cpuratio=$(median < "$work/cpuratio.$n"); served=$(median < "$work/served.$n")
  tfps=$(awk -v r="$(col tool 3)" -v t="$tw" 'BEGIN { printf "%.0f", r / t }')
  cfps=$(awk -v r="$(col curl 3)" -v t="$cw" 'BEGIN { printf "%.0f", r / t }')
  trss=$(awk -v k="$(col tool 2)" 'BEGIN { printf "%.0f", k / 1024 }')
  crss=$(awk -v k="$(col curl 2)" 'BEGIN { printf "%.0f", k / 1024 }')
  brss=$(awk -v k="$(col bare 2)" 'BEGIN { printf "%.0f", k / 1024 }')
  rows+=("| $n | $tw | $cw | $ratio | $(col tool 3) / $(col curl 3) | $tfps / $cfps | $trss / $crss | $(col tool 4) / $(col curl 4) | $(col tool 6) / $(col curl 6) |")
  bare_rows+=("| $n | $tw / $bw | $(col tool 6) / $(col bare 6) | $cpuratio | $served | $(col tool 3) / $(col bare 3) | $(col tool 4) / $(col bare 4) | $trss / $brss |")
  echo "$n $tw $(col tool 6) $(col tool 2) $bw" >> "$work/scaling"
  # The audit of 5,000 names on this machine: what bench-history measures the history's share against.
  if [ "$n" = 5000 ]; then echo "$tw" > "$root/.build/bench/audit-5000.seconds"; fi
  echo "$n $cpuratio $served" >> "$work/cpu-ratios"
done

if [ -n "$sizes" ]; then
echo
echo "| N | aasa-audit s | curl s | ratio | requests (tool / curl) | fetches/s (tool / curl) | peak RSS MB (tool / curl) | TLS handshakes (tool / curl) | CPU s (tool / curl) |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "Medians of $runs run(s); ratio = aasa-audit wall / curl wall, per run, then the median (target: at most 0.6 at"
echo "N = 5000). The tool's requests include the crawler's repeat of .well-known (AASA-Bot/1.0.0), one more per domain;"
echo "curl fetches 2 per domain. CPU s is user + system time of the process (less sensitive than wall time to a busy machine)."
awk 'NR > 1 && t0 > 0 && c0 > 0 { printf "growth: N=%s takes %.2f x the wall time and %.2f x the CPU time of N=%s (linear: %.1f x)\n", $1, $2 / t0, $3 / c0, n0, $1 / n0 }
     { n0 = $1; t0 = $2; c0 = $3 }' "$work/scaling"
# The target of issue 18: N = 20,000 at most 4.2 x N = 5,000, in wall time and in peak RSS.
# The bare client's own growth beside it: the same transfers without the tool's work, so a machine that
# slowed down between the two sizes shows there too.
awk '$1 == 5000 { t5 = $2; r5 = $4; b5 = $5 } $1 == 20000 { t20 = $2; r20 = $4; b20 = $5 }
     END { if (t5 > 0 && t20 > 0) {
             tg = t20 / t5; rg = r20 / r5
             printf "growth 5000 -> 20000: wall time %.2f x (%s), peak RSS %.2f x (%s); each must be at most 4.2 x; the bare client'"'"'s wall time %.2f x\n",
               tg, (tg <= 4.2 ? "holds" : "DOES NOT HOLD"), rg, (rg <= 4.2 ? "holds" : "DOES NOT HOLD"), (b5 > 0 ? b20 / b5 : 0) } }' "$work/scaling"
echo
echo "Beside the bare libcurl client (scripts/bench-bare-client.c: the same three transfers per domain, the"
echo ".well-known one with certificate info, at the tool's --concurrency $tool_concurrency; no checks, no reports):"
echo
echo "| N | wall s (tool / bare) | CPU s (tool / bare) | CPU ratio | CPU ratio per nginx CPU | requests (tool / bare) | TLS handshakes (tool / bare) | peak RSS MB (tool / bare) |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${bare_rows[@]}"
echo
# The target of issue 28: the tool's CPU at most 1.15 x the bare client's at N = 5,000 and 20,000.
echo "CPU ratio per nginx CPU: each program's CPU over the CPU nginx spent serving it in the same run, then"
echo "the tool's over the bare client's. It cancels the VM's drift between the two runs, but not a difference in"
echo "nginx's own work: nginx has used up to 15 % more CPU serving the bare client's requests than the tool's (the same"
echo "requests, paced differently), which makes it read high. The instruction counts below neither drift nor depend on nginx."
awk '$1 == 5000 || $1 == 20000 { printf "CPU ratio at N=%s: %.2f x the bare client (%s; target: at most 1.15 x); per nginx CPU %.3f x (%s)\n", $1, $2, ($2 <= 1.15 ? "holds" : "DOES NOT HOLD"), $3, ($3 <= 1.15 ? "holds" : "DOES NOT HOLD") }' "$work/cpu-ratios"
fi

# The latency model: every round trip made longer by bench-delay-proxy in front of nginx (each command
# through its own proxy on its own address, each proxy to nginx's Unix socket), for each latency, N and
# --concurrency asked for.
if [ "$latency_ms_list" != 0 ]; then
  # Starts a proxy listening on a free port of $1, forwarding to nginx's Unix socket, under
  # /usr/bin/time (its CPU counted as the tool's is); sets proxy_target (address:port). Not in $(...):
  # the pid of time must reach this shell's list.
  start_proxy() {
    local listen=$1 output=$2
    # The previous run's file removed first: the redirection below happens in the background, so the
    # wait could otherwise read the old "listening on" line (then an empty or stale target).
    rm -f "$output"
    /usr/bin/time -f "%U %S" -o "$output.time" "$proxy" "$listen:0" "unix:$work/nginx.sock" "$latency_ms" $latency_grid_ms > "$output" 2>&1 &
    proxies+=("$!")
    for _ in $(seq 1 50); do grep -q '^listening on' "$output" 2>/dev/null && break; sleep 0.1; done
    proxy_target=$(sed -n 's/^listening on //p' "$output")
  }
  # Stops the proxy that time $1 watches and sets proxy_seconds to its CPU seconds (user + system)
  # from time's report (its last line; the line before says the proxy ended by a signal). Not in
  # $(...): only this shell can wait for time to write its report.
  stop_proxy() {
    kill $(pgrep -P "$1") 2>/dev/null || true
    wait "$1" 2>/dev/null || true
    proxy_seconds=$(tail -1 "$2.time" 2>/dev/null | awk '{ printf "%.2f", $1 + $2 }')
  }
  latency_rows=()
  saved_args=("${tool_args[@]}")
  for latency_ms in $latency_ms_list; do
    for latency_n in $latency_n_list; do
      write_lists "$latency_n"
      for c in ${latency_concurrency_list:-default}; do
        tool_args=("${saved_args[@]}"); c_used=$tool_concurrency
        if [ "$c" != default ]; then tool_args+=(--concurrency "$c"); c_used=$c; fi
        : > "$work/tool.runs"; : > "$work/curl.runs"; : > "$work/bare.runs"; : > "$work/proxy.runs"
        for run in $(seq 1 "$latency_runs"); do
          next_address=$((next_address + 3))
          start_proxy 127.0.0.$((next_address - 2)) "$work/proxy-tool.out"; tool_proxy=$proxy_target
          start_proxy 127.0.0.$((next_address - 1)) "$work/proxy-curl.out"; curl_proxy=$proxy_target
          start_proxy 127.0.0.$next_address "$work/proxy-bare.out"; bare_proxy=$proxy_target
          [ -n "$tool_proxy" ] && [ -n "$curl_proxy" ] && [ -n "$bare_proxy" ] || { echo "error: bench-delay-proxy did not start" >&2; cat "$work"/proxy-*.out >&2; exit 1; }
          tool=$(run_tool "$latency_n" "$tool_proxy" "latency-${latency_ms}ms-N$latency_n-C$c_used-run$run")
          # A program left out (BENCH_LATENCY_PROGRAMS) gets a line of zeros: "-" in the table.
          curled="0 0 0 0 0 0 0"; bared="0 0 0 0 0 0 0"
          case " $latency_programs " in *" curl "*) curled=$(run_curl "$latency_n" "$curl_proxy") ;; esac
          case " $latency_programs " in *" bare "*) bared=$(run_bare "$latency_n" "$bare_proxy" "$c_used") ;; esac
          # Each proxy serves one program and idles after it: its whole CPU is that program's share.
          stop_proxy "${proxies[0]}" "$work/proxy-tool.out"; tool_proxy_cpu=$proxy_seconds
          stop_proxy "${proxies[1]}" "$work/proxy-curl.out"; curl_proxy_cpu=$proxy_seconds
          stop_proxy "${proxies[2]}" "$work/proxy-bare.out"; bare_proxy_cpu=$proxy_seconds
          proxy_cpu="${tool_proxy_cpu}s ${curl_proxy_cpu}s ${bare_proxy_cpu}s"
          proxies=()
          echo "$tool" >> "$work/tool.runs"; echo "$curled" >> "$work/curl.runs"; echo "$bared" >> "$work/bare.runs"
          read -r tw tr treq ths tres tcpu tsrv <<<"$tool"; read -r cw cr creq chs cres ccpu csrv <<<"$curled"
          read -r bw br breq bhs bres bcpu bsrv <<<"$bared"
          echo "$tool_proxy_cpu $tcpu" >> "$work/proxy.runs"
          echo "  latency ${latency_ms} ms, N=$latency_n, --concurrency $c_used, run $run (load$(cut -d' ' -f1 /proc/loadavg | sed 's/^/ /')): aasa-audit ${tw}s (CPU ${tcpu}s, nginx ${tsrv}s) ${tr}KB ${ths} handshakes | curl ${cw}s (CPU ${ccpu}s) ${chs} handshakes | bare client ${bw}s (CPU ${bcpu}s) | proxies' CPU (tool, curl, bare) ${proxy_cpu}" >&2
        done
        tw=$(awk '{ print $1 }' "$work/tool.runs" | median); cw=$(awk '{ print $1 }' "$work/curl.runs" | median)
        bw=$(awk '{ print $1 }' "$work/bare.runs" | median); tcpu=$(awk '{ print $6 }' "$work/tool.runs" | median)
        if [ "$cw" = 0 ]; then cw=-; fi
        if [ "$bw" = 0 ]; then bw=-; fi
        ths=$(awk '{ print $4 }' "$work/tool.runs" | median)
        pcpu=$(awk '{ print $1 }' "$work/proxy.runs" | median)
        pshare=$(awk '$2 > 0 { print $1 / $2 }' "$work/proxy.runs" | median)
        # Round trips: the TCP handshake, the TLS 1.3 handshake, then the requests. The tool sends its three
        # requests of a domain at once over HTTP/2 (docs/scaling.md): 3 per domain. curl makes 2 transfers
        # per domain, each on its own connection here: 3 each.
        tool_bound=$(awk -v r=3 -v l="$latency_ms" -v n="$latency_n" -v c="$c_used" 'BEGIN { printf "%.1f", r * l / 1000 * n / c }')
        curl_bound=$(awk -v r=3 -v l="$latency_ms" -v n="$((2 * latency_n))" -v c="$concurrency" 'BEGIN { printf "%.1f", r * l / 1000 * n / c }')
        per_domain=$(awk -v c="$tcpu" -v n="$latency_n" 'BEGIN { printf "%.2f", c * 1000 / n }')
        verdict=$(awk -v s="$pshare" 'BEGIN { print (s != "-" && s < 0.1 ? "holds" : "DOES NOT HOLD") }')
        latency_rows+=("| ${latency_ms} | $latency_n | $c_used | $tw | $tool_bound | $(awk -v a="$tw" -v b="$tool_bound" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }') | $bw | $cw ($curl_bound) | $tcpu ($per_domain ms/domain) | $pcpu ($(awk -v s="$pshare" 'BEGIN { printf "%.3f", s }') x, $verdict) | $ths |")
      done
    done
  done
  tool_args=("${saved_args[@]}")
  echo
  echo "Latency model (bench-delay-proxy in front of nginx), medians of $latency_runs run(s). Lower bound = 3 round trips x"
  echo "latency x domains / --concurrency (curl's: 3 x latency x 2N URLs / $concurrency). The proxy's CPU must stay under a"
  echo "tenth of the tool's (target of issue 28), or the model measures the proxy."
  echo
  echo "| RTT ms | N | --concurrency | aasa-audit s | lower bound s | tool / bound | bare client s | curl s (its bound) | tool CPU s | tool's proxy CPU s (share) | TLS handshakes |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${latency_rows[@]}"
fi

# The merge: K shards of M names each audited (not measured), then `merge` of their reports measured:
# its wall time and peak RSS (target of issue 28: under 100 MB for 20 shards of 5,000, whatever the
# shard count), and the merged reports' sizes.
if [ "$merge_plan" != 0 ]; then
  shards=${merge_plan%x*}; per_shard=${merge_plan#*x}
  write_lists "$((shards * per_shard))"
  next_address=$((next_address + 1))
  shard_rss=0
  for k in $(seq 1 "$shards"); do
    rm -rf "$work/shard-$k"
    /usr/bin/time -v -o "$work/shard.time" "$binary" --domains "$work/domains.txt" --shard "$k/$shards" --cacert "$work/ca.pem" \
      --connect-to "::127.0.0.$next_address:$port" --no-cdn --format json --out "$work/shard-$k" "${tool_args[@]}" > /dev/null 2>&1 || true
    [ -s "$work/shard-$k/report.json" ] || { echo "error: shard $k/$shards wrote no report" >&2; exit 1; }
    rss=$(field "Maximum resident set size" "$work/shard.time"); [ "$rss" -gt "$shard_rss" ] && shard_rss=$rss
  done
  rm -rf "$work/merged"
  merged=$(measure merge "$binary" merge "$work"/shard-*/report.json --out "$work/merged" --format json,html --no-history)
  read -r mw mr _ <<<"$merged"
  [ -s "$work/merged/report.json" ] || { echo "error: merge wrote no report:" >&2; cat "$work/merge.stderr" >&2; exit 1; }
  size() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1048576 }'; }
  echo
  echo "Merge: $shards shards x $per_shard names ($((shards * per_shard)) domains); each shard's audit peaked at $((shard_rss / 1024)) MB"
  echo
  echo "| shards | domains | shard report.json MB (each) | merge s | merge peak RSS MB | merged report.json MB | merged report.html MB |"
  echo "|---|---|---|---|---|---|---|"
  echo "| $shards | $((shards * per_shard)) | $(size "$work/shard-1/report.json") | $mw | $((mr / 1024)) | $(size "$work/merged/report.json") | $(size "$work/merged/report.html") |"
  awk -v r="$mr" -v s="$shards" -v n="$per_shard" 'BEGIN { if (s == 20 && n == 5000) printf "merge peak at 20 x 5000: %.0f MB (%s; target: under 100 MB)\n", r / 1024, (r / 1024 < 100 ? "holds" : "DOES NOT HOLD") }'
fi
# Instructions: the tool and the bare client each once under valgrind's callgrind over the same names.
# An instruction count does not drift with the VM as CPU time does (the same run gives the same count to
# a fraction of a percent), so it tells small changes apart; it counts user space only (the kernel's
# network work, the same for both, is left out, so its ratio is above the CPU time's) and not cache misses.
# Split at curl_multi_perform: inside it is libcurl's and OpenSSL's work (and the tool's callbacks),
# outside it the program's own.
if [ "$callgrind_n" != 0 ]; then
  command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1 \
    || { echo "error: valgrind is missing (scripts/install-deps.sh --bench)" >&2; exit 1; }
  write_lists "$callgrind_n"
  # Both at 16 transfers in flight: valgrind runs a program about 50 times slower, and at 64 a
  # transfer waiting for its turn could pass its connect timeout (5 s), which changes the work.
  callgrind_concurrency=16
  # valgrind cannot read the static build's debug information: a copy without it (symbols kept).
  strip --strip-debug -o "$work/aasa-audit.nodebug" "$binary"
  next_address=$((next_address + 2))
  valgrind --tool=callgrind --callgrind-out-file="$work/tool.callgrind" "$work/aasa-audit.nodebug" --domains "$work/domains.txt" \
    --cacert "$work/ca.pem" --connect-to "::127.0.0.$((next_address - 1)):$port" --no-cdn --format json,html --out "$work/out" \
    "${tool_args[@]}" --concurrency "$callgrind_concurrency" > /dev/null 2> "$work/tool.callgrind.log" || { echo "error: the tool failed under callgrind:" >&2; tail -5 "$work/tool.callgrind.log" >&2; exit 1; }
  valgrind --tool=callgrind --callgrind-out-file="$work/bare.callgrind" "$bare" "$work/domains.txt" "127.0.0.$next_address:$port" \
    "$work/ca.pem" "$callgrind_concurrency" > "$work/bare.stdout" 2> "$work/bare.callgrind.log" \
    || { echo "error: the bare client failed under callgrind ($(cat "$work/bare.stdout")):" >&2; grep -v '^==' "$work/bare.callgrind.log" | head -5 >&2; exit 1; }
  # "total inside-curl_multi_perform" of one callgrind file, in instructions.
  instructions() {
    callgrind_annotate --inclusive=yes "$1" 2>/dev/null | awk '
      /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
      /:curl_multi_perform / { gsub(",", "", $1); inside = $1 }
      END { print total + 0, inside + 0 }'
  }
  read -r tool_ir tool_curl <<<"$(instructions "$work/tool.callgrind")"
  read -r bare_ir bare_curl <<<"$(instructions "$work/bare.callgrind")"
  echo
  echo "Instructions (valgrind's callgrind, user space), $callgrind_n names at --concurrency $callgrind_concurrency, one run each:"
  echo
  echo "| | instructions | in curl_multi_perform | outside it | outside it per domain |"
  echo "|---|---|---|---|---|"
  awk -v t="$tool_ir" -v ti="$tool_curl" -v b="$bare_ir" -v bi="$bare_curl" -v n="$callgrind_n" 'BEGIN {
    printf "| aasa-audit | %.1f M | %.1f M | %.1f M | %.0f K |\n", t / 1e6, ti / 1e6, (t - ti) / 1e6, (t - ti) / n / 1e3
    printf "| bare client | %.1f M | %.1f M | %.1f M | %.0f K |\n", b / 1e6, bi / 1e6, (b - bi) / 1e6, (b - bi) / n / 1e3
    printf "\ninstruction ratio: %.3f x the bare client (inside curl_multi_perform %.3f x); the tool runs %.0f K instructions per domain of its own\n",
      t / b, ti / bi, ((t - ti) - (b - bi)) / n / 1e3 }'
fi

echo "load average at the end:$(cut -d' ' -f1-3 /proc/loadavg | sed 's/^/ /')"
