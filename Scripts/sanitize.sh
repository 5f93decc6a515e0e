#!/usr/bin/env bash
# Runs the whole test suite under a sanitizer, in its own scratch path.
# Linux and macOS alike (swift test -Xswiftc -sanitize=...); the ASan note below is about Linux.
#
#   Scripts/sanitize.sh [address|thread] [extra `swift test` arguments, e.g. --filter Hostile]
#
# address without --filter/--skip skips the terminal, picture, documentation and packaging suites
# (`asan_skip` below); `Scripts/sanitize.sh address --skip '^$'` runs the whole suite.
# address (default): AddressSanitizer, scratch .build-asan. Note: ASan turns a deliberate SIGSEGV into
# "exit 1", so TmuxEndToEndTests.crashSignalRestoresTheTerminalAndStillCrashes (expects 139) fails under it.
# thread: ThreadSanitizer, scratch .build-tsan. Without a --filter it runs the batch and concurrency
# suites only (`tsan_suites`: the batch pipeline in-process, the batch commands through the
# instrumented binary, the shared verified-chain cache), which keeps the CI step short; Swift Testing
# also runs those tests concurrently in one process, so TSan sees the shared caches and globals too.
# The binary's reports (children of CLITests) and the test process's go to files
# fuzz-out/sanitize/tsan-report.<pid>, printed here; any report fails the run.
# HOSTILE_BIG=1 also runs the 100 MB / 50 MB hostile-input cases at full size (slow under ASan:
# see docs/robustness.md); by default they run at 8 MiB.
# Log and timing: fuzz-out/sanitize/<mode>.log (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-address}
shift || true
tsan_suites='BatchPipelineTests|BatchCommandTests|BatchRecipeTests|VerifiedPathCacheTests|ChainPoolTests'
# address without a --filter or --skip: every suite but those that drive a terminal, render the docs'
# pictures, check documentation and packaging, or run other programs' recipes. They read no outside
# bytes that the other suites and the fuzz targets (built with ASan too) do not, and under ASan on
# two cores they were most of the step's time (docs/robustness.md).
asan_skip='Tmux|PictureTests|ReadmeTests|ReadmeExamplesTests|DocLinkTests|EcosystemTests|ReleaseTests|BatchRecipeTests|PrimerDriftTests|PlatformBoundaryTests|ModuleLayerTests'
case "$mode" in
  address) scratch=.build-asan ;;
  thread) scratch=.build-tsan ;;
  *) echo "sanitize.sh: unknown sanitizer '$mode' (address, thread)" >&2; exit 2 ;;
esac
mkdir -p fuzz-out/sanitize
log=fuzz-out/sanitize/$mode.log

# Swift's runtime backtracer and ASan both want the crash signals; let the sanitizer report.
export SWIFT_BACKTRACE=enable=no
# The Swift runtime and Foundation keep global caches alive until exit; leak reports would be noise.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:log_path=$PWD/fuzz-out/sanitize/tsan-report}
rm -f fuzz-out/sanitize/tsan-report.*
if [[ $mode == thread && " $* " != *" --filter "* ]]; then set -- --filter "$tsan_suites" "$@"; fi
if [[ $mode == address && " $* " != *" --filter "* && " $* " != *" --skip "* ]]; then set -- --skip "$asan_skip" "$@"; fi
# Tells the hostile-input tests that the binary is instrumented (their memory bounds are scaled).
export HOSTILE_SANITIZER=$mode
export HOSTILE_BIG=${HOSTILE_BIG:-0}

start=$(date +%s)
echo "== swift build --build-tests --sanitize=$mode --scratch-path $scratch" | tee "$log"
swift build --build-tests --sanitize="$mode" --scratch-path "$scratch" 2>&1 | tee -a "$log" | grep -E "error|warning: .*sanitiz|Compiling|Build" | grep -v "^\[" || true
built=$(date +%s)
echo "== swift test --sanitize=$mode --scratch-path $scratch $* (HOSTILE_BIG=$HOSTILE_BIG)" | tee -a "$log"
set +e
swift test --skip-build --sanitize="$mode" --scratch-path "$scratch" "$@" >>"$log" 2>&1
status=$?
set -e
end=$(date +%s)
# The closing lines of both test runners, any sanitizer report, and every failing test with its
# message (CI shows only this output, so a failure must name itself here, not only in the log).
grep -E "^Test Suite 'All tests' (passed|failed)|Executed [0-9]+ tests|Test run with [0-9]+ tests|ERROR: (AddressSanitizer|ThreadSanitizer)|WARNING: ThreadSanitizer|SUMMARY: " "$log" | sort -u | head -20
grep -E -A4 "^✘ Test .*recorded an issue|: error: -\[" "$log" | head -60 || true
for report in fuzz-out/sanitize/tsan-report.*; do
    [[ -f "$report" ]] || continue
    echo "== $report:"; head -80 "$report"
    cat "$report" >>"$log"
    if ((status == 0)); then status=1; fi
done
echo "sanitizer: $mode  build: $((built - start)) s  tests: $((end - built)) s  exit: $status" | tee -a "$log"
exit $status
