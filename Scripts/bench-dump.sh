#!/usr/bin/env bash
# Benchmark `receipt-explorer dump --format openssl` against `openssl asn1parse` and `dumpasn1` on
# the same large payload-shaped DER file, plus the parser's pure throughput and memory per node.
#
#   Scripts/bench-dump.sh                 # build release, generate inputs, measure, print tables
#   RUNS=10 Scripts/bench-dump.sh         # more repetitions (median is reported; default 5)
#   Scripts/bench-dump.sh --no-build      # reuse the existing release binaries
#   Scripts/bench-dump.sh --layout receipt   # only one of the two layouts (receipt, flat)
#   Scripts/bench-dump.sh --callgrind     # also count instructions (valgrind): independent of machine load
#
# Inputs (Scripts/gen-payload.py, deterministic, written to Benchmarks/.inputs/, never committed):
#   receipt layout: the receipt payload shape, in-app purchases inside OCTET STRINGs. dumpasn1 and
#                   our parser walk every node; openssl asn1parse (and `dump --format openssl`,
#                   which prints its line shape) print the in-app purchase SETs as hex dumps.
#   flat layout:    the same attributes with values directly in the SEQUENCEs, so that every tool,
#                   openssl included, prints one line per node.
#
# Wall time: hyperfine (median of RUNS, one warm-up run; output to /dev/null); without hyperfine,
# repeated /usr/bin/time. Peak memory: GNU time's "Maximum resident set size" (median of 3).
# Memory per node beyond the input = (peak RSS on the big file − peak RSS on a tiny file − file
# size) / nodes, i.e. everything the dump command holds for the tree, measured from outside.
# Targets (issue 2 / issue 5): parse ≥ 300 MB/s; ≤ 48 B of memory per node beyond the input;
# dump ≥ 3× faster than openssl asn1parse and dumpasn1.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCRATCH="${SCRATCH:-$ROOT/.build-bench}"
RUNS="${RUNS:-5}"
WORK="${WORK:-$ROOT/Benchmarks/.inputs}"
BUILD=1
CALLGRIND=0
LAYOUTS="receipt flat"
while [ $# -gt 0 ]; do
    case "$1" in
        --no-build) BUILD=0 ;;
        --callgrind) CALLGRIND=1 ;;
        --layout) LAYOUTS="$2"; shift ;;
        --runs) RUNS="$2"; shift ;;
        -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
        *) echo "bench-dump.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done

# --- tools -----------------------------------------------------------------------------------
missing=()
command -v hyperfine >/dev/null || missing+=(hyperfine)
command -v dumpasn1 >/dev/null || missing+=(dumpasn1)
[ -x /usr/bin/time ] || missing+=(time)
command -v openssl >/dev/null || missing+=(openssl)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "installing ${missing[*]} ..." >&2
        apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 \
            || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1; } || true
    fi
fi
for tool in openssl dumpasn1; do
    command -v "$tool" >/dev/null || { echo "bench-dump.sh: $tool is required (apt-get install $tool)" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "bench-dump.sh: GNU time is required (apt-get install time)" >&2; exit 2; }

# --- build -----------------------------------------------------------------------------------
BIN="$SCRATCH/release/receipt-explorer"
REPORT="$ROOT/Benchmarks/.build/release/bench-report"
if [ "$BUILD" = 1 ]; then
    echo "building receipt-explorer (release, $SCRATCH) ..." >&2
    # Retried: in a tree other people edit, swiftc stops when a source changes mid-build.
    build() { local i; for i in 1 2 3; do "$@" >&2 && return 0; sleep 20; done; return 1; }
    (cd "$ROOT" && build swift build -c release --scratch-path "$SCRATCH" --product receipt-explorer)
    echo "building bench-report (release, Benchmarks/.build) ..." >&2
    (cd "$ROOT/Benchmarks" && build swift build -c release --product bench-report)
fi
[ -x "$BIN" ] || { echo "bench-dump.sh: $BIN not built" >&2; exit 2; }

# --- helpers ---------------------------------------------------------------------------------
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# Median wall seconds of a shell command line (stdout to /dev/null).
wall() {
    local cmd="$1"
    if command -v hyperfine >/dev/null; then
        local json; json="$(mktemp)"
        hyperfine --style none --warmup 1 --runs "$RUNS" -i --export-json "$json" "$cmd > /dev/null" >/dev/null 2>&1
        python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' "$json"
        rm -f "$json"
    else
        local i
        for i in $(seq 1 "$RUNS"); do
            /usr/bin/time -f "%e" -o /dev/stdout bash -c "$cmd > /dev/null 2>&1" 2>/dev/null | tail -1
        done | median
    fi
}

# Median peak RSS in KB of a shell command line.
peak_kb() {
    local cmd="$1" i
    for i in 1 2 3; do
        /usr/bin/time -f "%M" -o /dev/stdout bash -c "$cmd > /dev/null 2>&1" 2>/dev/null | tail -1
    done | median
}

# Instructions executed by a shell command line (valgrind --tool=callgrind), stdout to /dev/null.
instructions() {
    local out; out="$(mktemp)"
    bash -c "valgrind --tool=callgrind --callgrind-out-file=/dev/null $1 > /dev/null 2> '$out'" || true
    sed -n 's/.*refs: *//p' "$out" | tr -d ','
    rm -f "$out"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f×", a / b; else print "-" }'; }
fmt() { awk -v a="$1" -v d="${2:-3}" 'BEGIN { printf "%." d "f", a }'; }

# --- machine ---------------------------------------------------------------------------------
cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
mem="$(free -g | awk '/^Mem:/ { print $2 " GiB" }')"
echo "# bench-dump $(date -u +%Y-%m-%dT%H:%MZ)"
echo
echo "machine: $(nproc) cores, $cpu, $mem; $(swift --version 2>&1 | head -1); $(openssl version | cut -d' ' -f1-2); dumpasn1 $(dpkg-query -W -f '${Version}' dumpasn1 2>/dev/null || echo '?'); hyperfine $(hyperfine --version 2>/dev/null | cut -d' ' -f2 || echo 'absent')"
echo "runs: $RUNS (median)"

mkdir -p "$WORK"
tiny="$WORK/tiny.der"
python3 "$ROOT/Scripts/gen-payload.py" "$tiny" --purchases 1 --quiet
base_kb="$(peak_kb "'$BIN' dump --format openssl '$tiny'")"

for layout in $LAYOUTS; do
    file="$WORK/payload-$layout.der"
    info="$(python3 "$ROOT/Scripts/gen-payload.py" "$file" --layout "$layout")"
    size="$(stat -c %s "$file")"
    nodes="$(sed -E 's/.* ([0-9]+) nodes.*/\1/' <<<"$info")"
    expected_openssl="$(sed -E 's/.*openssl-lines ([0-9]+).*/\1/' <<<"$info")"
    echo
    echo "## $layout layout: $(basename "$file"), $size bytes, $nodes nodes"
    echo

    # Every tool must really walk the file: count what each printed.
    ours_lines="$("$BIN" dump --format openssl "$file" 2>/dev/null | wc -l)"
    openssl_lines="$(openssl asn1parse -inform DER -i -in "$file" 2>/dev/null | wc -l)"
    dumpasn1_nodes="$(dumpasn1 -z "$file" 2>/dev/null | grep -cE '^ *[0-9]+ +[0-9]+: ' || true)"
    check="ok"
    [ "$ours_lines" = "$openssl_lines" ] || check="MISMATCH: dump printed $ours_lines lines, openssl $openssl_lines"
    [ "$openssl_lines" = "$expected_openssl" ] || check="$check; openssl printed $openssl_lines lines, expected $expected_openssl"
    [ "$dumpasn1_nodes" = "$nodes" ] || check="$check; dumpasn1 printed $dumpasn1_nodes objects, the file has $nodes nodes"

    t_ours="$(wall "'$BIN' dump --format openssl '$file'")"
    t_openssl="$(wall "openssl asn1parse -inform DER -i -in '$file'")"
    t_dumpasn1="$(wall "dumpasn1 -z '$file'")"
    m_ours="$(peak_kb "'$BIN' dump --format openssl '$file'")"
    m_openssl="$(peak_kb "openssl asn1parse -inform DER -i -in '$file'")"
    m_dumpasn1="$(peak_kb "dumpasn1 -z '$file'")"

    echo "| command | median s | ours faster by | peak RSS MB | printed |"
    echo "| --- | ---: | ---: | ---: | ---: |"
    echo "| receipt-explorer dump --format openssl | $(fmt "$t_ours") | 1.00× | $(fmt "$(awk -v k="$m_ours" 'BEGIN{print k/1024}')" 1) | $ours_lines lines |"
    echo "| openssl asn1parse -inform DER -i | $(fmt "$t_openssl") | $(ratio "$t_openssl" "$t_ours") | $(fmt "$(awk -v k="$m_openssl" 'BEGIN{print k/1024}')" 1) | $openssl_lines lines |"
    echo "| dumpasn1 -z | $(fmt "$t_dumpasn1") | $(ratio "$t_dumpasn1" "$t_ours") | $(fmt "$(awk -v k="$m_dumpasn1" 'BEGIN{print k/1024}')" 1) | $dumpasn1_nodes objects |"
    if [ "$CALLGRIND" = 1 ] && command -v valgrind >/dev/null; then
        i_ours="$(instructions "'$BIN' dump --format openssl '$file'")"
        i_openssl="$(instructions "openssl asn1parse -inform DER -i -in '$file'")"
        i_dumpasn1="$(instructions "dumpasn1 -z '$file'")"
        echo
        echo "| command | instructions (callgrind) | ours fewer by |"
        echo "| --- | ---: | ---: |"
        echo "| receipt-explorer dump --format openssl | $i_ours | 1.00× |"
        echo "| openssl asn1parse -inform DER -i | $i_openssl | $(ratio "$i_openssl" "$i_ours") |"
        echo "| dumpasn1 -z | $i_dumpasn1 | $(ratio "$i_dumpasn1" "$i_ours") |"
    fi
    echo
    echo "walk check: $check"
    per_node="$(awk -v m="$m_ours" -v b="$base_kb" -v s="$size" -v n="$nodes" 'BEGIN { printf "%.1f", ((m - b) * 1024 - s) / n }')"
    echo "dump memory beyond the input: (peak $m_ours KB − baseline $base_kb KB on a 1-purchase file − $size B input) / $nodes nodes = $per_node B/node"

    if [ -x "$REPORT" ]; then
        kvs="$("$REPORT" --section parse --inputs payload --payload "$file" --runs "$RUNS" --kv)"
        get() { sed -n "s/^$1=//p" <<<"$kvs"; }
        mbps="$(get parse.payload.ours.mb_per_s)"
        nspn="$(get parse.payload.ours.ns_per_node)"
        arena="$(get parse.payload.arena_bytes_per_node)"
        heap="$(get parse.payload.ours.heap_bytes_per_node)"
        asn1="$(get parse.payload.swiftasn1-descend.mb_per_s)"
        echo
        echo "| parse (ASN1Parser.parse, in process) | value | target |"
        echo "| --- | ---: | --- |"
        echo "| throughput | $mbps MB/s | ≥ 300 MB/s: $(awk -v a="$mbps" 'BEGIN { print (a >= 300) ? "met" : "MISSED" }') |"
        echo "| time per node | $nspn ns | |"
        echo "| arena beyond the input (stride × capacity + diagnostics) | $arena B/node | ≤ 48: $(awk -v a="$arena" 'BEGIN { print (a <= 48) ? "met" : "MISSED" }') |"
        echo "| heap retained by the tree (mallinfo2) | $heap B/node | |"
        echo "| swift-asn1 BER.parse + OCTET STRING descent, same nodes | $asn1 MB/s | |"
    fi
    echo
    echo "targets: dump vs openssl $(ratio "$t_openssl" "$t_ours") ($(awk -v a="$t_openssl" -v b="$t_ours" 'BEGIN { print (a >= 3 * b) ? "met" : "MISSED" }') ≥ 3×), dump vs dumpasn1 $(ratio "$t_dumpasn1" "$t_ours") ($(awk -v a="$t_dumpasn1" -v b="$t_ours" 'BEGIN { print (a >= 3 * b) ? "met" : "MISSED" }') ≥ 3×), memory $per_node B/node ($(awk -v a="$per_node" 'BEGIN { print (a <= 48) ? "met" : "MISSED" }') ≤ 48)"
done
