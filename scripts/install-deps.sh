#!/usr/bin/env bash
# Installs the Debian packages aasa-audit needs, only those that are missing.
#   scripts/install-deps.sh          what the tool needs to build and run (libcurl, OpenSSL, libidn2, SQLite, libzip)
#   scripts/install-deps.sh --test   plus what the tests need (nginx, the openssl command, headless
#                                    Chromium and pdftotext to read the HTML report as a person sees it,
#                                    nginx's stream module for the hostile servers, GNU time for peak memory,
#                                    groff to check the man page, cmark-gfm to render report.md as GitHub does,
#                                    tmux for a real terminal, zsh and fish to load the shell completions,
#                                    aapt and apksigner to build and sign APKs, squid as the HTTPS proxy of the
#                                    proxy tests, promtool (prometheus) for report.prom and the alerting rules,
#                                    python3-jsonschema to validate report.json against docs/report.schema.json),
#                                    and what --package installs: the tests build
#                                    the package and install it
#   scripts/install-deps.sh --package  plus what `make deb` and `make dist` need (dpkg-dev for dpkg-shlibdeps,
#                                    binutils for objdump and strip, lintian)
#   scripts/install-deps.sh --bench  plus what `make bench` needs (nginx, openssl, curl, GNU time, python3,
#                                    a C compiler and pkg-config for the bare libcurl client and the delay proxy,
#                                    valgrind and binutils for the instruction counts)
set -euo pipefail

packages=(libcurl4-openssl-dev libssl-dev libidn2-dev libsqlite3-dev libzip-dev ca-certificates)
if [ "${1:-}" = "--test" ] || [ "${1:-}" = "--package" ]; then
  packages+=(dpkg-dev binutils lintian)
fi
if [ "${1:-}" = "--test" ]; then
  packages+=(nginx-light openssl chromium poppler-utils libnginx-mod-stream time groff-base cmark-gfm tmux zsh fish aapt apksigner squid prometheus python3-jsonschema)
fi
if [ "${1:-}" = "--bench" ]; then
  packages+=(nginx-light openssl curl time python3 gcc libc6-dev pkg-config valgrind binutils)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v swift >/dev/null 2>&1; then
  echo "note: the Swift toolchain (swift.org, 6.0 or later) is also needed and is not installed by this script" >&2
fi
echo "Installing: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "error: run as root or install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
