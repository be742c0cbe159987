#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ with `swiftc -sanitize=fuzzer` and runs each for a set time.
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]    (default 60 s; targets: document domains macho report apk)
#   scripts/fuzz.sh --self-test                         proves a crash makes this script fail: builds a
#                                                       throw-away target (in .build/fuzz) that traps on
#                                                       its first input; exits 0 only if that crash was
#                                                       caught and reported
# The module sources are compiled straight from Sources/ with coverage instrumentation (SwiftPM has no
# fuzzer sanitizer). Working corpora and crash files stay in .build/fuzz/; a crash stops that target,
# leaves crash-<sha1> there, and makes the script exit non-zero. Keep each crashing input as a regression
# test: a `domains` crash in Tests/AuditTests/Fuzz/Inputs (excluded from the test target in Package.swift),
# replayed by FuzzRegressionTests there; a `document` crash in Fuzz/Seeds/document plus a unit test for it
# (the document target has no replay folder of its own); a `report` crash in Tests/ReportingTests/Fuzz/Inputs,
# replayed by ReportFuzzRegressionTests there.
set -euo pipefail
cd "$(dirname "$0")/.."
build=.build/fuzz
mkdir -p "$build"
swiftc=${SWIFTC:-swiftc}
flags=(-sanitize=fuzzer -parse-as-library -O -g -wmo -I "$build")

# fuzz TARGET SECONDS: runs .build/fuzz/fuzz-TARGET on its corpus; prints how many inputs it ran and
# whether it crashed (libFuzzer's own log goes to .build/fuzz/TARGET.log); fails on a crash.
fuzz() {
  local target=$1 seconds=$2 log="$build/$1.log" status=0 executions crash
  echo "fuzzing $target for ${seconds}s (log: $log)" >&2
  mkdir -p "$build/corpus-$target"
  # -rss_limit_mb: a memory blow-up is a finding too; -timeout: one input taking over 10 s is a hang.
  (cd "$build" && SWIFT_BACKTRACE=enable=no ./"fuzz-$target" -max_total_time="$seconds" -rss_limit_mb=1024 -timeout=10 -max_len=262144 \
      -print_final_stats=1 -artifact_prefix="$PWD/$target-" "corpus-$target") >"$log" 2>&1 || status=$?
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [ -z "$executions" ]; then  # a crash ends the run before the final stats: count the last status line
    executions=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
  fi
  crash=$(sed -n 's/^artifact_prefix=.*; Test unit written to //p' "$log" | tail -1)
  if [ "$status" -ne 0 ]; then
    echo "fuzz $target: FAILED after ${executions:-0} executions (exit $status)${crash:+; input kept in $crash}" >&2
    grep -m 5 -E 'ERROR: libFuzzer|Fatal error|SUMMARY' "$log" >&2 || true
    return 1
  fi
  echo "fuzz $target: ${executions:-0} executions in ${seconds}s, no crash" >&2
}

if [ "${1:-}" = "--self-test" ]; then
  # A target that traps on any input: the run must fail, name the crash and keep the input.
  cat > "$build/SelfTestTarget.swift" <<'SWIFT'
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSelfTest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    precondition(count < 1, "fuzz.sh --self-test: the deliberate crash")
    return 0
}
SWIFT
  "$swiftc" "${flags[@]}" "$build/SelfTestTarget.swift" -o "$build/fuzz-self-test"
  rm -rf "$build/corpus-self-test" "$build"/self-test-crash-*
  mkdir -p "$build/corpus-self-test" && printf 'x' > "$build/corpus-self-test/seed"
  if fuzz self-test 10; then
    echo "fuzz.sh --self-test: the crashing target was reported as passing" >&2
    exit 1
  fi
  ls "$build"/self-test-crash-* >/dev/null 2>&1 || { echo "fuzz.sh --self-test: no crash input was kept" >&2; exit 1; }
  echo "fuzz.sh --self-test: a crash fails the run, as it should" >&2
  exit 0
fi

seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(document domains macho report apk)

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
wants() { [[ " ${targets[*]} " == *" $1 "* ]]; }

if wants domains || wants report || wants macho; then
  # The Entitlements target (which Audit imports) links libzip (CZip shim, for .ipa files) and OpenSSL
  # (profiles), and reads Mach-O bytes through ByteSources.
  shim CZip zip
  module ByteSources $(find Sources/ByteSources -name '*.swift' | sort)
  module Entitlements -I "$build/CZip" -I "$build/CCMS" $(find Sources/Entitlements -name '*.swift' | sort)
  entitlements=("$build/Entitlements.o" "$build/ByteSources.o" "$build/CZip.o")
fi

if wants domains || wants report; then
  # Audit imports Fetching (libcurl shim) and uses libidn2 (CIDN2 shim) for international names.
  shim CCurl curl
  shim CIDN2 idn2
  module Fetching -I "$build/CCurl" $(find Sources/Fetching -name '*.swift' | sort)
  module Audit -I "$build/CCurl" -I "$build/CIDN2" -I "$build/CCMS" -I "$build/CZip" $(find Sources/Audit -name '*.swift' | sort)
  "$swiftc" "${flags[@]}" -I "$build/CCurl" -I "$build/CIDN2" -I "$build/CCMS" -I "$build/CZip" Fuzz/DomainListTarget.swift \
    "$build/Audit.o" "$build/Fetching.o" "$build/SignedFiles.o" "$build/AASA.o" "$build/CCurl.o" "$build/CIDN2.o" "$build/CCMS.o" \
    "${entitlements[@]}" -lcurl -lssl -lcrypto -lidn2 -lzip -o "$build/fuzz-domains"
fi

if wants report; then
  # Reports read back: decoded by the model (Audit), rendered by Reporting; ReportFuzzRegressionTests replays crashers the same way.
  module Reporting -I "$build/CCurl" -I "$build/CIDN2" -I "$build/CCMS" -I "$build/CZip" $(find Sources/Reporting -name '*.swift' | sort)
  "$swiftc" "${flags[@]}" -I "$build/CCurl" -I "$build/CIDN2" -I "$build/CCMS" -I "$build/CZip" Fuzz/ReportTarget.swift \
    "$build/Reporting.o" "$build/Audit.o" "$build/Fetching.o" "$build/SignedFiles.o" "$build/AASA.o" "$build/CCurl.o" "$build/CIDN2.o" "$build/CCMS.o" \
    "${entitlements[@]}" -lcurl -lssl -lcrypto -lidn2 -lzip -o "$build/fuzz-report"
fi

if wants macho; then
  "$swiftc" "${flags[@]}" -I "$build/CZip" -I "$build/CCMS" Fuzz/MachOTarget.swift "${entitlements[@]}" "$build/CCMS.o" \
    -lzip -lcrypto -o "$build/fuzz-macho"
fi

if wants apk; then
  # The AndroidPackage target links libzip (CZip) and OpenSSL (CCMS); the target reads manifest and APK bytes.
  shim CZip zip
  shim CCMS crypto
  [ -n "${entitlements+set}" ] || module ByteSources $(find Sources/ByteSources -name '*.swift' | sort)
  module AndroidPackage -I "$build/CZip" -I "$build/CCMS" $(find Sources/AndroidPackage -name '*.swift' | sort)
  "$swiftc" "${flags[@]}" -I "$build/CZip" -I "$build/CCMS" Fuzz/APKTarget.swift "$build/AndroidPackage.o" "$build/ByteSources.o" "$build/CZip.o" \
    "$build/CCMS.o" -lzip -lcrypto -o "$build/fuzz-apk"
fi

# Seed corpora: the real AASA files in the repository's test corpus and the committed seeds.
seed() {  # seed TARGET SOURCE_DIR...
  local corpus="$build/corpus-$1"; shift
  mkdir -p "$corpus"
  for dir in "$@"; do
    [ -d "$dir" ] || { echo "fuzz.sh: the seed folder $dir does not exist" >&2; exit 1; }
    find "$dir" -type f -size -300k -exec cp -n {} "$corpus/" \;
  done
}
seed document Tests/Corpus/real-aasa/files Fuzz/Seeds/document
seed domains Fuzz/Seeds/domains Tests/AuditTests/Fuzz/Inputs
# Mach-O images made by TestSupport's MachOImage: thin 64-bit, thin 32-bit big-endian, signed without
# entitlements, universal of both forms.
seed macho Fuzz/Seeds/macho
# Reports: the snapshot report and the crafted ones of the third red-team round.
seed report Fuzz/Seeds/report Tests/ReportingTests/Fuzz/Inputs
# A binary AndroidManifest.xml compiled by aapt and a whole v2+v3-signed APK (tests' AndroidAppFixture).
seed apk Fuzz/Seeds/apk

status=0
for target in "${targets[@]}"; do
  fuzz "$target" "$seconds" || status=1
done
exit $status
