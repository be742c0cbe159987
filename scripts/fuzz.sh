#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ with `swiftc -sanitize=fuzzer` and runs each for a set time.
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]    (default 60 s; targets: document domains)
# The module sources are compiled straight from Sources/ with coverage instrumentation (SwiftPM has no
# fuzzer sanitizer). Working corpora and crash files stay in .build/fuzz/; a crash stops that target,
# leaves crash-<sha1> there, and makes the script exit non-zero. Keep each crashing input as a regression
# test: a `domains` crash in Tests/AuditTests/Fuzz/Inputs (excluded from the test target in Package.swift),
# replayed by FuzzRegressionTests there; a `document` crash in Fuzz/Seeds/document plus a unit test for it
# (the document target has no replay folder of its own).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(document domains)

build=.build/fuzz
mkdir -p "$build"
swiftc=${SWIFTC:-swiftc}
flags=(-sanitize=fuzzer -parse-as-library -O -g -wmo -I "$build")

module() {  # module NAME SOURCES...: an instrumented object and its .swiftmodule
  local name=$1; shift
  "$swiftc" "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$build/$name.swiftmodule" \
    -c "$@" -o "$build/$name.o"
}

# The C shims: a module map for each and its C file compiled plain (SwiftPM makes these for `swift build`).
clang=$(dirname "$(command -v "$swiftc")")/clang
shim() {  # shim NAME LIBRARY: Sources/NAME/include/<name>.h and Sources/NAME/<name>.c
  local name=$1 library=$2 lower
  lower=$(echo "$1" | tr '[:upper:]' '[:lower:]')
  mkdir -p "$build/$name"
  printf 'module %s {\n  header "%s/Sources/%s/include/%s.h"\n  link "%s"\n  export *\n}\n' \
    "$name" "$PWD" "$name" "$lower" "$library" > "$build/$name/module.modulemap"
  "$clang" -O1 -c "Sources/$name/$lower.c" -I "Sources/$name/include" -o "$build/$name.o"
}

echo "building fuzz targets in $build" >&2
module AASA $(find Sources/AASA -name '*.swift' | sort)
# Served bytes go through the CMS unwrap (OpenSSL, via the CCMS shim) before the core, as in the audit.
shim CCMS crypto
module SignedFiles -I "$build/CCMS" $(find Sources/SignedFiles -name '*.swift' | sort)
"$swiftc" "${flags[@]}" -I "$build/CCMS" Fuzz/DocumentTarget.swift "$build/SignedFiles.o" "$build/AASA.o" "$build/CCMS.o" \
  -lcrypto -o "$build/fuzz-document"
if [[ " ${targets[*]} " == *" domains "* ]]; then
  # Audit imports Fetching (libcurl shim) and uses libidn2 (CIDN2 shim) for international names.
  shim CCurl curl
  shim CIDN2 idn2
  module Fetching -I "$build/CCurl" $(find Sources/Fetching -name '*.swift' | sort)
  module Audit -I "$build/CCurl" -I "$build/CIDN2" -I "$build/CCMS" $(find Sources/Audit -name '*.swift' | sort)
  "$swiftc" "${flags[@]}" -I "$build/CCurl" -I "$build/CIDN2" -I "$build/CCMS" Fuzz/DomainListTarget.swift \
    "$build/Audit.o" "$build/Fetching.o" "$build/SignedFiles.o" "$build/AASA.o" "$build/CCurl.o" "$build/CIDN2.o" "$build/CCMS.o" \
    -lcurl -lssl -lcrypto -lidn2 -o "$build/fuzz-domains"
fi

# Seed corpora: the real AASA files in the repository's test corpus and the committed seeds.
seed() {  # seed TARGET SOURCE_DIR...
  local corpus="$build/corpus-$1"; shift
  mkdir -p "$corpus"
  for dir in "$@"; do
    [ -d "$dir" ] && find "$dir" -type f -size -300k -exec cp -n {} "$corpus/" \; || true
  done
}
seed document Tests/Corpus/real-aasa/files Fuzz/Seeds/document
seed domains Fuzz/Seeds/domains Tests/AuditTests/Fuzz/Inputs

status=0
for target in "${targets[@]}"; do
  echo "fuzzing $target for ${seconds}s" >&2
  # -rss_limit_mb: a memory blow-up is a finding too; -timeout: one input taking over 10 s is a hang.
  (cd "$build" && SWIFT_BACKTRACE=enable=no ./"fuzz-$target" -max_total_time="$seconds" -rss_limit_mb=1024 -timeout=10 -max_len=262144 \
      -print_final_stats=1 -artifact_prefix="$PWD/$target-" "corpus-$target") || status=1
done
exit $status
