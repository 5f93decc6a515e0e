#!/usr/bin/env bash
# Compares two builds' `dump`, `json` and `verify` of every file in samples/ and the shared corpus,
# byte for byte apart from the run's own moment (today's date-times, "at_ms"): a change meant to
# leave legitimate inputs alone (a memory budget, a faster path) must print the same.
#
#   Scripts/same-outputs.sh OLD_BINARY NEW_BINARY [CORPUS_DIR]
# Prints each differing run with the start of its diff, then "compared N runs, M differ";
# exit status 1 when any differ.
set -uo pipefail
old=${1:?usage: same-outputs.sh OLD NEW [CORPUS_DIR]}; new=${2:?usage: same-outputs.sh OLD NEW [CORPUS_DIR]}
old=$(realpath "$old"); new=$(realpath "$new")
corpus=$(realpath "${3:-$(dirname "$0")/../../shared/corpus}")
cd "$(dirname "$0")/.."
norm="s/$(date -u +%Y-%m-%d)[T ][0-9:.]+/NOW/g; s/\"at_ms\": \"[0-9]+\"/\"at_ms\": NOW/g"
n=0; bad=0
while IFS= read -r f; do
  for c in dump json verify; do
    a=$("$old" "$c" "$f" 2>&1 | sed -E "$norm"; echo "exit ${PIPESTATUS[0]}")
    b=$("$new" "$c" "$f" 2>&1 | sed -E "$norm"; echo "exit ${PIPESTATUS[0]}")
    n=$((n + 1))
    if [[ "$a" != "$b" ]]; then
      bad=$((bad + 1)); echo "differs: $c $f"; diff <(echo "$a") <(echo "$b") | head -8
    fi
  done
done < <(find samples "$corpus" -type f ! -name '*.md' 2>/dev/null | sort)
echo "compared $n runs, $bad differ"
[[ $bad -eq 0 ]]
