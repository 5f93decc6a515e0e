#!/usr/bin/env bash
# Builds and runs one libFuzzer target of the Fuzz/ package.
# Linux (or a swift.org toolchain on macOS): Xcode's Swift has no -sanitize=fuzzer.
#
#   Scripts/fuzz.sh TARGET [SECONDS] [extra libFuzzer flags...]
#   TARGET: parse | load | paste | receipt | render | diff | edit | redact | batch | timeline | apibody | keys
#           (or the product name: FuzzParse, FuzzLoad, ...)
#   SECONDS: -max_total_time (default 60)
#   Scripts/fuzz.sh build: builds every target in one go and runs none (Scripts/fuzz-smoke.sh).
#
# FUZZ_BUILT=1: the targets were built (`fuzz.sh build`); run without building again.
#
# Scratch path: .build-fuzz (never the main .build). Everything the run writes goes to fuzz-out/TARGET/
# (git-ignored): corpus/ (inputs libFuzzer found; the committed seeds in Fuzz/corpus/TARGET/ are read,
# never written), artifacts/ (crash-*, timeout-*, oom-*), fuzz.log, summary.txt.
# Exit status: 0 when the run ended without a finding, libFuzzer's non-zero status otherwise.
# Extra flags go to libFuzzer, e.g. `-fork=1 -ignore_crashes=1` to keep going after a crash that is
# known and not fixed yet (each crash input is still written to artifacts/).
# FUZZ_CONFIG: release (default; -O keeps bounds and overflow checks and runs 5-20x faster than
# debug under ASan) or debug.
set -euo pipefail
cd "$(dirname "$0")/.."
config=${FUZZ_CONFIG:-release}
scratch=.build-fuzz

# Builds the product named, or every product of the Fuzz package when none is.
build() {
    echo "== building ${1:-every fuzz target} ($config, -sanitize=fuzzer,address)" >&2
    # SwiftPM keeps the path dependency's source lists in its build plan and misses a source file
    # added to the main package since the last fuzz build ("cannot find X in scope"): plan afresh.
    rm -f "$scratch/$config.yaml" "$scratch"/*/"$config"/description.json
    swift build --package-path Fuzz --scratch-path "$scratch" -c "$config" ${1:+--product "$1"} \
      -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library 2>&1 \
      | grep -v "Cannot export local symbol" >&2
}
if [[ ${1:-} == build ]]; then build; exit; fi

target=${1:?usage: Scripts/fuzz.sh parse|load|paste|receipt|render|diff|edit|redact|batch|timeline|apibody|keys [SECONDS] [libFuzzer flags...]}
seconds=${2:-60}
shift $(( $# >= 2 ? 2 : 1 ))
case "$target" in
  parse|FuzzParse) name=parse; product=FuzzParse ;;
  load|FuzzLoad) name=load; product=FuzzLoad ;;
  paste|FuzzPaste) name=paste; product=FuzzPaste ;;
  receipt|FuzzReceipt) name=receipt; product=FuzzReceipt ;;
  render|FuzzRender) name=render; product=FuzzRender ;;
  diff|FuzzDiff) name=diff; product=FuzzDiff ;;
  edit|FuzzEdit) name=edit; product=FuzzEdit ;;
  redact|FuzzRedact) name=redact; product=FuzzRedact ;;
  batch|FuzzBatch) name=batch; product=FuzzBatch ;;
  timeline|FuzzTimeline) name=timeline; product=FuzzTimeline ;;
  apibody|FuzzAPIBody) name=apibody; product=FuzzAPIBody ;;
  keys|FuzzKeys) name=keys; product=FuzzKeys ;;
  *) echo "fuzz.sh: unknown target '$target' (parse, load, paste, receipt, render, diff, edit, redact, batch, timeline, apibody, keys)" >&2; exit 2 ;;
esac
# A target's own dictionary when it has one (load: base64/PEM/JSON tokens), else the ASN.1 one.
dict=Fuzz/dict/$name.dict
[[ -f "$dict" ]] || dict=Fuzz/dict/asn1.dict

if [[ ${FUZZ_BUILT:-0} != 1 ]]; then build "$product"; fi
binary="$scratch/$config/$product"
[[ -x "$binary" ]] || { echo "fuzz.sh: $binary was not built" >&2; exit 2; }

out="fuzz-out/$name"
mkdir -p "$out/corpus" "$out/artifacts"
log="$out/fuzz.log"
echo "== running $product for ${seconds}s; log: $log" >&2
set +e
# The Swift runtime backtracer reads memory ASan flags as a wild read after a trap: off; libFuzzer
# and ASan print the stack of every crash themselves.
SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no} \
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1} \
"$binary" "$out/corpus" "Fuzz/corpus/$name" \
  -dict="$dict" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="${FUZZ_MAX_LEN:-16384}" \
  -artifact_prefix="$out/artifacts/" -print_final_stats=1 "$@" >"$log" 2>&1
status=$?
set -e

# Summary: the last status line (cov/ft/corp/exec/s) and libFuzzer's final stats.
{
  echo "target: $name ($product, $config build, ASan+libFuzzer)"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  seconds: $seconds  exit: $status"
  grep -E '^#[0-9]+' "$log" | tail -n 1 || true
  grep -E '^stat::' "$log" || true
  echo "corpus files: $(find "$out/corpus" -type f | wc -l), bytes: $(du -sb "$out/corpus" | cut -f1)"
  echo "artifacts: $(find "$out/artifacts" -type f | wc -l)"
  find "$out/artifacts" -type f -newer "$binary" -printf '  %p\n' 2>/dev/null || true
} | tee "$out/summary.txt"
exit $status
