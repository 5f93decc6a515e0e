#!/usr/bin/env bash
# Benchmark `receipt-explorer dump` in every format (the default tree, --color always, --format json,
# --format openssl) against `dumpasn1 -z` and `openssl asn1parse` on the same large payload-shaped
# DER file, plus the parser's pure throughput and memory per node.
# Linux only: the machine line reads /proc/cpuinfo, nproc and dpkg-query, sizes use GNU stat -c.
#
#   Scripts/bench-dump.sh                 # build release, generate inputs, measure, print tables
#   RUNS=10 Scripts/bench-dump.sh         # more repetitions (median is reported; default 5)
#   Scripts/bench-dump.sh --no-build      # reuse the existing release binaries
#   Scripts/bench-dump.sh --layout receipt   # only one of the two layouts (receipt, flat)
#   Scripts/bench-dump.sh --callgrind     # also count instructions (valgrind): independent of machine load
#
# Inputs (Scripts/gen-payload.py, deterministic, written to Benchmarks/.inputs/, never committed):
#   receipt layout: the receipt payload shape, in-app purchases inside OCTET STRINGs. dumpasn1, our
#                   parser and our tree / json dumps walk every node; openssl asn1parse (and
#                   `dump --format openssl`, which prints its line shape) print the in-app purchase
#                   SETs as hex dumps.
#   flat layout:    the same attributes with values directly in the SEQUENCEs, so that every tool,
#                   openssl included, prints one line per node.
#
# Wall time: hyperfine (median of RUNS, one warm-up run; output to /dev/null); without hyperfine,
# repeated /usr/bin/time. CPU time: user + system of the same runs (GNU time, median). Peak memory:
# GNU time's "Maximum resident set size" (median of 3). Every ratio compares tools measured in the
# same run. Memory per node = (peak RSS on the big file − peak RSS of the same command on a
# 1-purchase file − 2 × file size) / nodes: what a format holds for the tree beyond twice the input.
# Targets (issues 2, 5, 12): parse ≥ 300 MB/s and ≤ 15 ns/node, ≤ 24 B/node; dump --format openssl ≥ 3× faster than openssl
# asn1parse and dumpasn1; the default tree dump ≤ 0.33× dumpasn1's time, json ≤ 0.5×, colour ≤ 1.2×
# the tree without; every format's peak memory ≤ 24 B/node + 2× the input.
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
        -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
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

# Median CPU seconds (user + system) of a shell command line.
cpu_s() {
    local cmd="$1" i
    for i in $(seq 1 "$RUNS"); do
        /usr/bin/time -f "%U %S" -o /dev/stdout bash -c "$cmd > /dev/null 2>&1" 2>/dev/null | tail -1 | awk '{ print $1 + $2 }'
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
echo "runs: $RUNS (median); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

mkdir -p "$WORK"
tiny="$WORK/tiny.der"
python3 "$ROOT/Scripts/gen-payload.py" "$tiny" --purchases 1 --quiet
# Our dump commands, by label (the same order in every table).
labels=(tree color json openssl)
declare -A ours=(
    [tree]="dump --color never"
    [color]="dump --color always"
    [json]="dump --format json"
    [openssl]="dump --format openssl"
)
declare -A base_kb
for k in "${labels[@]}"; do base_kb[$k]="$(peak_kb "'$BIN' ${ours[$k]} '$tiny'")"; done

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

    t_openssl="$(wall "openssl asn1parse -inform DER -i -in '$file'")"
    t_dumpasn1="$(wall "dumpasn1 -z '$file'")"
    c_openssl="$(cpu_s "openssl asn1parse -inform DER -i -in '$file'")"
    c_dumpasn1="$(cpu_s "dumpasn1 -z '$file'")"
    m_openssl="$(peak_kb "openssl asn1parse -inform DER -i -in '$file'")"
    m_dumpasn1="$(peak_kb "dumpasn1 -z '$file'")"
    declare -A t c m lines per_node
    for k in "${labels[@]}"; do
        t[$k]="$(wall "'$BIN' ${ours[$k]} '$file'")"
        c[$k]="$(cpu_s "'$BIN' ${ours[$k]} '$file'")"
        m[$k]="$(peak_kb "'$BIN' ${ours[$k]} '$file'")"
        lines[$k]="$("$BIN" ${ours[$k]} "$file" 2>/dev/null | wc -l)"
        per_node[$k]="$(awk -v m="${m[$k]}" -v b="${base_kb[$k]}" -v s="$size" -v n="$nodes" 'BEGIN { printf "%.1f", ((m - b) * 1024 - 2 * s) / n }')"
    done
    ours_lines="${lines[openssl]}"
    [ "$ours_lines" = "$openssl_lines" ] || check="MISMATCH: dump printed $ours_lines lines, openssl $openssl_lines"
    mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

    echo "load average after timing: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo
    echo "| command | median wall s | median CPU s | wall ÷ dumpasn1 | wall ÷ openssl | peak RSS MB | B/node beyond 2× input | printed |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for k in "${labels[@]}"; do
        echo "| receipt-explorer ${ours[$k]} | $(fmt "${t[$k]}") | $(fmt "${c[$k]}" 2) | $(ratio "${t[$k]}" "$t_dumpasn1") | $(ratio "${t[$k]}" "$t_openssl") | $(mb "${m[$k]}") | ${per_node[$k]} | ${lines[$k]} lines |"
    done
    echo "| openssl asn1parse -inform DER -i | $(fmt "$t_openssl") | $(fmt "$c_openssl" 2) | $(ratio "$t_openssl" "$t_dumpasn1") | 1.00× | $(mb "$m_openssl") | | $openssl_lines lines |"
    echo "| dumpasn1 -z | $(fmt "$t_dumpasn1") | $(fmt "$c_dumpasn1" 2) | 1.00× | $(ratio "$t_dumpasn1" "$t_openssl") | $(mb "$m_dumpasn1") | | $dumpasn1_nodes objects |"
    if [ "$CALLGRIND" = 1 ] && command -v valgrind >/dev/null; then
        i_openssl="$(instructions "openssl asn1parse -inform DER -i -in '$file'")"
        i_dumpasn1="$(instructions "dumpasn1 -z '$file'")"
        echo
        echo "| command | instructions (callgrind) | ÷ dumpasn1 | ÷ openssl |"
        echo "| --- | ---: | ---: | ---: |"
        for k in "${labels[@]}"; do
            i_k="$(instructions "'$BIN' ${ours[$k]} '$file'")"
            echo "| receipt-explorer ${ours[$k]} | $i_k | $(ratio "$i_k" "$i_dumpasn1") | $(ratio "$i_k" "$i_openssl") |"
        done
        echo "| openssl asn1parse -inform DER -i | $i_openssl | $(ratio "$i_openssl" "$i_dumpasn1") | 1.00× |"
        echo "| dumpasn1 -z | $i_dumpasn1 | 1.00× | $(ratio "$i_dumpasn1" "$i_openssl") |"
    fi
    echo
    echo "walk check: $check"
    echo "memory per node: (peak − the same command's peak on a 1-purchase file (tree ${base_kb[tree]}, color ${base_kb[color]}, json ${base_kb[json]}, openssl ${base_kb[openssl]} KB) − 2 × $size B) / $nodes nodes"

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
        echo "| time per node (CPU) | $nspn ns | ≤ 15 ns: $(awk -v a="$nspn" 'BEGIN { print (a <= 15) ? "met" : "MISSED" }') |"
        echo "| arena beyond the input (stride × capacity + diagnostics) | $arena B/node | ≤ 24: $(awk -v a="$arena" 'BEGIN { print (a <= 24.05) ? "met" : "MISSED" }') (the 16 B stride, the escape table and the roots array) |"
        echo "| heap retained by the tree (mallinfo2) | $heap B/node | |"
        echo "| swift-asn1 BER.parse + OCTET STRING descent, same nodes | $asn1 MB/s | |"
    fi
    echo
    verdict() { awk -v a="$1" -v b="$2" 'BEGIN { print (a <= b) ? "met" : "MISSED" }'; }
    echo "targets: openssl format vs openssl $(ratio "$t_openssl" "${t[openssl]}") faster ($(verdict 3 "$(awk -v a="$t_openssl" -v b="${t[openssl]}" 'BEGIN { print a / b }')") ≥ 3×), vs dumpasn1 $(ratio "$t_dumpasn1" "${t[openssl]}") faster ($(verdict 3 "$(awk -v a="$t_dumpasn1" -v b="${t[openssl]}" 'BEGIN { print a / b }')") ≥ 3×);"
    echo "  tree $(ratio "${t[tree]}" "$t_dumpasn1") of dumpasn1 ($(verdict "$(awk -v a="${t[tree]}" -v b="$t_dumpasn1" 'BEGIN { print a / b }')" 0.33) ≤ 0.33×), json $(ratio "${t[json]}" "$t_dumpasn1") ($(verdict "$(awk -v a="${t[json]}" -v b="$t_dumpasn1" 'BEGIN { print a / b }')" 0.5) ≤ 0.5×), colour $(ratio "${t[color]}" "${t[tree]}") of the tree ($(verdict "$(awk -v a="${t[color]}" -v b="${t[tree]}" 'BEGIN { print a / b }')" 1.2) ≤ 1.2×);"
    echo "  memory beyond 2× the input: tree ${per_node[tree]}, color ${per_node[color]}, json ${per_node[json]}, openssl ${per_node[openssl]} B/node (≤ 24: tree $(verdict "${per_node[tree]}" 24), color $(verdict "${per_node[color]}" 24), json $(verdict "${per_node[json]}" 24), openssl $(verdict "${per_node[openssl]}" 24))"
done
