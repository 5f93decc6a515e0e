#!/usr/bin/env bash
# CI's fuzz smoke step: every target built in one go, then each run for SECONDS with a fixed
# libFuzzer seed, two at a time (each run is one process on one core; CI has two).
#
#   Scripts/fuzz-smoke.sh SECONDS TARGET...
#
# Exit status: 0 when no run found anything. A finding prints the end of its fuzz.log and each
# artifact as base64 (CI's machine is gone afterwards: `base64 -d > crash; .build-fuzz/release/FuzzX
# crash` reproduces it elsewhere); the other lane still runs its targets to the end.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:?usage: Scripts/fuzz-smoke.sh SECONDS TARGET...}
shift
(($# > 0)) || { echo "fuzz-smoke.sh: name at least one target" >&2; exit 2; }

Scripts/fuzz.sh build
export FUZZ_BUILT=1

# Runs its targets one after another; a finding's report goes to the lane's output.
lane() {
    local failed=0 target artifact status
    for target in "$@"; do
        echo "== [$(date -u +%H:%M:%S)] fuzz $target"
        # A fixed libFuzzer seed (the run still varies: Swift seeds its hashing per process, which
        # changes coverage, so a finding is kept below), and a generous per-input timeout keeps a busy
        # machine from reporting slowness as a hang; the long runs are recorded in docs/robustness.md.
        status=0
        Scripts/fuzz.sh "$target" "$seconds" -seed=1 -timeout=60 2>&1 || status=$?
        ((status == 0)) && continue
        failed=1
        echo "== $target: exit status $status; the end of fuzz-out/$target/fuzz.log:"
        tail -n 80 "fuzz-out/$target/fuzz.log" 2>&1 || true
        for artifact in "fuzz-out/$target"/artifacts/*; do
            [[ -f "$artifact" ]] || continue
            echo "== $artifact ($(stat -c %s "$artifact") bytes), base64:"
            base64 -w 0 "$artifact"; echo
        done
    done
    return $failed
}

# Two lanes, the targets dealt out in turn; each lane's output is printed whole when both are done.
lanes=("" "")
dealt=0
for target in "$@"; do
    lanes[dealt % 2]+=" $target"
    dealt=$((dealt + 1))
done
logs=("$(mktemp)" "$(mktemp)")
# shellcheck disable=SC2086 # each lane's targets are words
lane ${lanes[0]} >"${logs[0]}" 2>&1 & first=$!
# shellcheck disable=SC2086
lane ${lanes[1]} >"${logs[1]}" 2>&1 & second=$!
status=0
wait "$first" || status=1
wait "$second" || status=1
cat "${logs[0]}" "${logs[1]}"
rm -f "${logs[@]}"
exit $status
