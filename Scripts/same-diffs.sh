#!/usr/bin/env bash
# Compares two builds' `diff` (text, then --format json) on pairs of inputs, byte for byte with the
# exit status: a change meant to leave diff's results alone (a memory bound, a faster walk) must
# print the same. Pairs: every file of samples/ and the shared corpus against itself and against
# the next file of its folder; every two files of samples/diff; each dense input of
# Scripts/gen-dense.py against a copy whose first tiny element differs and one whose last does.
#
#   Scripts/same-diffs.sh OLD_BINARY NEW_BINARY [CORPUS_DIR] [--dense-size BYTES]
# Prints each differing run with the start of its diff, then "compared N runs, M differ";
# exit status 1 when any differ.
set -uo pipefail
old=${1:?usage: same-diffs.sh OLD NEW [CORPUS_DIR] [--dense-size BYTES]}
new=${2:?usage: same-diffs.sh OLD NEW [CORPUS_DIR] [--dense-size BYTES]}
old=$(realpath "$old"); new=$(realpath "$new")
shift 2
corpus=$(dirname "$0")/../../shared/corpus
size=1000000
while (($# > 0)); do
  case "$1" in
    --dense-size) size="$2"; shift 2 ;;
    *) corpus="$1"; shift ;;
  esac
done
corpus=$(realpath "$corpus")
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

pairs="$work/pairs"
while IFS= read -r dir; do
  files=$(find "$dir" -maxdepth 1 -type f ! -name '*.md' | sort)
  prev=""
  for f in $files; do
    echo "$f $f" >> "$pairs"
    [[ -n "$prev" ]] && echo "$prev $f" >> "$pairs"
    prev=$f
  done
done < <(find samples "$corpus" -type d | sort)
for a in samples/diff/*; do for b in samples/diff/*; do [[ "$a" != "$b" ]] && echo "$a $b" >> "$pairs"; done; done
for shape in flat indefinite nested receipt; do
  python3 Scripts/gen-dense.py "$work/$shape.der" --size "$size" --shape "$shape" 2>/dev/null
  python3 - "$work/$shape.der" "$shape" <<'PY'
import sys
path, shape = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
tiny = b"\x30\x00" if shape == "receipt" else b"\x05\x00"
for name, at in (("first", data.find(tiny)), ("last", data.rfind(tiny))):
    copy = bytearray(data)
    copy[at] ^= 0x01  # 05 -> 04, 30 -> 31
    open(f"{path}.{name}", "wb").write(copy)
PY
  echo "$work/$shape.der $work/$shape.der.first" >> "$pairs"
  echo "$work/$shape.der $work/$shape.der.last" >> "$pairs"
done

n=0; bad=0
while read -r a b; do
  for format in text json; do
    x=$("$old" diff --format "$format" --color never "$a" "$b" 2>&1; echo "exit $?")
    y=$("$new" diff --format "$format" --color never "$a" "$b" 2>&1; echo "exit $?")
    n=$((n + 1))
    if [[ "$x" != "$y" ]]; then
      bad=$((bad + 1)); echo "differs: diff --format $format $a $b"; diff <(echo "$x") <(echo "$y") | head -8
    fi
  done
done < "$pairs"
echo "compared $n runs, $bad differ"
[[ $bad -eq 0 ]]
