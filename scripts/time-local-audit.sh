#!/usr/bin/env bash
# Times one audit of N generated domains (default 200) against nginx on loopback, with a wildcard
# certificate from a throw-away CA: wall time, peak memory and TLS handshakes (from nginx's log).
#   scripts/time-local-audit.sh [N]
# A one-off measurement; the benchmark against curl itself is `make bench` (issue 7).
set -euo pipefail
n=${1:-200}
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test >/dev/null
swift build -c release >/dev/null
work=$(mktemp -d)
chmod 755 "$work"  # nginx workers run as nobody
trap 'nginx -c "$work/nginx.conf" -p "$work" -e "$work/error.log" -s stop 2>/dev/null; sleep 0.2; rm -rf "$work"' EXIT

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 90 -subj "/CN=timing CA" \
  -keyout "$work/ca.key" -out "$work/ca.pem" 2>/dev/null
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=*.bench.test" \
  -keyout "$work/site.key" -out "$work/site.csr" 2>/dev/null
printf 'subjectAltName=DNS:*.bench.test\nextendedKeyUsage=serverAuth\n' > "$work/ext"
openssl x509 -req -in "$work/site.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial -days 90 \
  -extfile "$work/ext" -out "$work/site.pem" 2>/dev/null
printf '{"applinks":{"details":[{"appIDs":["K4B7C2D9E1.com.benchmark.shop"],"components":[{"/":"/buy/*"}]}]}}\n' > "$work/aasa.json"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$work/nginx.conf" <<CONF
daemon on; master_process on; worker_processes 1; pid $work/nginx.pid; error_log $work/error.log;
events { worker_connections 4096; }
http {
  log_format c '\$connection'; access_log $work/access.log c;
  client_body_temp_path $work/t1; proxy_temp_path $work/t2; fastcgi_temp_path $work/t3; uwsgi_temp_path $work/t4; scgi_temp_path $work/t5;
  server { listen 127.0.0.1:$port ssl http2; server_name *.bench.test; ssl_certificate $work/site.pem; ssl_certificate_key $work/site.key;
    location = /.well-known/apple-app-site-association { default_type application/json; alias $work/aasa.json; }
    location = /apple-app-site-association { default_type application/json; alias $work/aasa.json; } }
}
CONF
nginx -c "$work/nginx.conf" -p "$work" -e "$work/error.log"
for i in $(seq 1 "$n"); do echo "d$i.bench.test"; done > "$work/domains.txt"

/usr/bin/time -v -o "$work/time.txt" .build/release/aasa-audit --domains "$work/domains.txt" --cacert "$work/ca.pem" \
  --connect-to "::127.0.0.1:$port" --no-cdn --out "$work/out" > "$work/stdout.txt" || true
wall=$(grep "Elapsed (wall clock)" "$work/time.txt" | awk '{print $NF}')
rss=$(grep "Maximum resident set size" "$work/time.txt" | awk '{print $NF}')
requests=$(wc -l < "$work/access.log")
handshakes=$(sort -u "$work/access.log" | wc -l)
echo "domains=$n requests=$requests handshakes=$handshakes wall=$wall peak_rss_kb=$rss"
tail -1 "$work/stdout.txt" >/dev/null
grep -E "^[0-9]+ domains" "$work/stdout.txt"
