#!/usr/bin/env bash
# Peak RSS of every command on dense hostile inputs against issue 32's bound (3× the input + 40 MB),
# in one run: a Markdown table, one row per input, one column per command.
#
#   Scripts/bench-memory.sh [--binary PATH] [--size BYTES]
#
# --binary  the receipt-explorer to measure (default: the release archive's binary, built as
#           Scripts/release.sh builds it into .build-release).
# --size    bytes of DER per input (default 5000000).
# Inputs (Scripts/gen-dense.py): a flat SEQUENCE of `05 00`; a PKCS#7 receipt whose payload SET holds
# `30 00` where attributes go; the flat one as base64 text; a legitimate 20,000-purchase receipt;
# and (Scripts/gen-dense-json.py) dense JSON, `[0,0,…]` as a StoreKit body and as a token's
# payload; and (Scripts/gen-history.py) a transaction history body holding --size / 4800 TEST-signed
# tokens, each a document of its own layers. `diff` compares each ASN.1 input with a copy whose
# first element differs (the whole SET goes through pairing), and the 20,000-purchase receipt with a
# copy where one digit of a value near its end moved (two whole receipts open, their purchases
# paired); the explorer is opened in tmux and quit.
# The bound of `diff` is for its two inputs together. Linux (GNU time): a benchmark, not a test.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=""
size=5000000
while (($# > 0)); do
    case "$1" in
        --binary) binary="$2"; shift 2 ;;
        --size) size="$2"; shift 2 ;;
        *) echo "usage: Scripts/bench-memory.sh [--binary PATH] [--size BYTES]" >&2; exit 2 ;;
    esac
done
if [[ -z "$binary" ]]; then
    source Scripts/release-build.sh
    binary="$(release_binary)"
fi
work=$(mktemp -d)
trap 'tmux kill-session -t bench-memory 2>/dev/null || true; rm -rf "$work"' EXIT

python3 Scripts/gen-dense.py "$work/flat.der" --size "$size" 2>/dev/null
python3 Scripts/gen-dense.py "$work/receipt.der" --size "$size" --shape receipt 2>/dev/null
python3 Scripts/gen-dense.py "$work/flat.b64" --size "$size" --base64 2>/dev/null
python3 Scripts/gen-dense-json.py "$work/body.json" --size "$size" --storekit 2>/dev/null
python3 Scripts/gen-dense-json.py "$work/payload.jws" --size "$size" --jws 2>/dev/null
# Many tokens in one body: a transaction history of TEST-signed transactions (about 4.8 KB each).
python3 Scripts/gen-history.py "$work/history.json" --transactions $((size / 4800)) > /dev/null
# A legitimate shape at scale: 20,000 purchases in an unsigned PKCS#7 (7.4 MB; its json is 60 MB).
python3 Scripts/gen-payload.py "$work/payload.der" --purchases 20000 --quiet
python3 - "$work" <<'PY'
import sys
sys.path.insert(0, "Scripts")
from der import oid, tlv
def long_form(tag, content): return bytes([tag, 0x84]) + len(content).to_bytes(4, "big") + content
work = sys.argv[1]
payload = open(f"{work}/payload.der", "rb").read()
content = long_form(0x30, oid("1.2.840.113549.1.7.1") + long_form(0xA0, long_form(0x04, payload)))
signed = long_form(0x30, tlv(0x02, b"\x01") + b"\x31\x00" + content + b"\x31\x00")
open(f"{work}/purchases.der", "wb").write(long_form(0x30, oid("1.2.840.113549.1.7.2") + long_form(0xA0, signed)))
PY
# The copy for diff: the first tiny element after the headers changes its tag (05 → 04, 30 → 31).
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
for name, (old, new) in {"flat.der": (b"\x05\x00\x05\x00", b"\x04\x00\x05\x00"),
                         "receipt.der": (b"\x30\x00\x30\x00", b"\x31\x00\x30\x00")}.items():
    data = bytearray(open(f"{work}/{name}", "rb").read())
    at = data.find(old)
    data[at:at + len(new)] = new
    open(f"{work}/b-{name}", "wb").write(data)
# The legitimate receipt: one digit of a value near its end (in its last purchases) moves by one.
data = bytearray(open(f"{work}/purchases.der", "rb").read())
at = len(data) - 600
while not 0x30 <= data[at] <= 0x39:
    at -= 1
data[at] = 0x30 + (data[at] - 0x30 + 1) % 10
open(f"{work}/b-purchases.der", "wb").write(data)
PY

peak() {  # peak RSS in MiB of the command given
    /usr/bin/time -f %M -o "$work/time" "$@" >/dev/null 2>&1 || true
    echo "scale=1; $(tail -1 "$work/time") / 1024" | bc
}
explorer_peak() {
    tmux kill-session -t bench-memory 2>/dev/null || true
    tmux new-session -d -s bench-memory -x 120 -y 40 "/usr/bin/time -f %M -o $work/time-ui $binary $1"
    for _ in $(seq 1 120); do
        sleep 0.5
        tmux capture-pane -t bench-memory -p | grep -q "q quit" && break
    done
    tmux send-keys -t bench-memory q
    for _ in $(seq 1 20); do [[ -s "$work/time-ui" ]] && break; sleep 0.5; done
    echo "scale=1; $(tail -1 "$work/time-ui") / 1024" | bc
}

echo "binary: $binary; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| input | bound | dump | json | explain | verify | tour --print | timeline | redact | explorer | diff (bound) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for name in flat.der receipt.der flat.b64 purchases.der body.json payload.jws history.json; do
    file="$work/$name"
    bytes=$(stat -c %s "$file")
    bound=$(echo "scale=1; (3 * $bytes + 40000000) / 1048576" | bc)
    row="| $name ($bytes bytes) | $bound"
    for command in dump json explain verify "tour --print" timeline; do
        # shellcheck disable=SC2086
        row+=" | $(peak "$binary" $command "$file")"
    done
    row+=" | $(peak "$binary" redact --output "$work/redacted" "$file")"
    row+=" | $(explorer_peak "$file")"
    if [[ -f "$work/b-$name" ]]; then
        both=$((bytes + $(stat -c %s "$work/b-$name")))
        row+=" | $(peak "$binary" diff "$file" "$work/b-$name") ($(echo "scale=1; (3 * $both + 40000000) / 1048576" | bc))"
    else
        row+=" | –"
    fi
    echo "$row |"
done
echo
echo "MiB, /usr/bin/time -f %M; load after: $(cut -d' ' -f1-3 /proc/loadavg)"
