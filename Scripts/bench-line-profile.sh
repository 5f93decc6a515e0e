#!/usr/bin/env bash
# Where a batch line's work goes (issue 32), in instructions: the steady measure on this shared
# machine, whose wall time moves by ±25 % from one minute to the next. For each row (a real
# transaction, a real DID_RENEW notification, the corpus's real Apple-signed tokens cycled) it runs
# `verify --lines --jobs 1 --quiet` under callgrind on SHORT and 4 × SHORT lines, so that start-up
# and each chain's one-time checks cancel out, and prints per line:
#   - the floor in instructions: what OpenSSL's ECDSA verify costs a line in this very run
#     (`DecodedCertificate.verifies`, inclusive: one call a signature check), and the line's ratio to it;
#   - each phase of the line, inclusive, and its share of what is above the floor.
#
#   Scripts/bench-line-profile.sh [--binary PATH] [--short N] [--time]
#
# --binary  the receipt-explorer to measure (default: the release build, as bench-floor.sh makes it).
#           The script measures a copy without debug info (`strip -g`); a binary stripped of its
#           symbol table (plain `strip`) leaves callgrind no names to match the phases by.
# --short   lines in the short run (default 90: ten cycles of the nine mixed tokens); with --time, a
#           quarter of the lines of each run (default 2,016).
# --time    CPU time instead of instructions, by library and Swift module: `perf record` (cpu-clock
#           at 2 kHz: at 20 kHz this VM's timer interrupts made the run 60 % slower, at 2 kHz no
#           slower) of three runs of 4 × SHORT lines, each less a run of its row's distinct tokens
#           once (differencing two long runs put the machine's drift between them into every row).
#           Each sample's time goes to its library or, in the binary, to its Swift module, the Swift
#           runtime or the standard library's generic code; µs a line, the median of the three. The
#           floor is `openssl speed ecdsap256` before and after, in the same run. Instructions hide
#           what a line's allocations and reference counting cost in time; this shows it.
# The phases are matched by the Swift symbols of the functions that do them (listed below); a phase
# whose symbol is gone after a rename prints "(not found)", and its work shows in "the rest".
# Needs valgrind (Debian: valgrind), or perf for --time (Debian: linux-perf). A benchmark, not a
# test: it prints numbers, it asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=""
short=""
mode=instructions
while (($# > 0)); do
    case "$1" in
        --binary) binary="$2"; shift 2 ;;
        --short) short="$2"; shift 2 ;;
        --time) mode="time"; shift ;;
        *) echo "usage: Scripts/bench-line-profile.sh [--binary PATH] [--short N] [--time]" >&2; exit 2 ;;
    esac
done
[[ $mode == time ]] && short=${short:-2016} || short=${short:-90}
corpus=../shared/corpus
[[ -d "$corpus/jws" ]] || { echo "bench-line-profile.sh: $corpus/jws is missing (the shared corpus beside the project)" >&2; exit 2; }
if [[ $mode == time ]]; then
    command -v perf > /dev/null || { echo "bench-line-profile.sh: perf is missing (apt-get install linux-perf)" >&2; exit 2; }
else
    command -v valgrind > /dev/null || { echo "bench-line-profile.sh: valgrind is missing (apt-get install valgrind)" >&2; exit 2; }
fi
if [[ -z "$binary" ]]; then
    source Scripts/release-build.sh
    binary="$(release_binary)"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Debug info makes callgrind's start slow and changes nothing it counts.
cp "$binary" "$work/receipt-explorer"
strip -g "$work/receipt-explorer"

exec python3 - "$work" "$short" "$corpus" "$mode" <<'PY'
import collections, re, statistics, subprocess, sys
sys.path.insert(0, "Scripts")
from bench_tokens import NOTIFICATION, TRANSACTION, checks, corpus_tokens, verify_ms_now, write_lines

work, short, corpus, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
binary = f"{work}/receipt-explorer"
root = f"{corpus}/certs/AppleRootCA-G3.cer"

tokens = corpus_tokens(corpus)
rows = [("one real sandbox transaction", [tokens[TRANSACTION]]),
        ("one real DID_RENEW notification", [tokens[NOTIFICATION]]),
        (f"{len(tokens)} real tokens, cycled", list(tokens.values()))]

# (phase, symbol pattern): inclusive costs, so a phase is everything its function calls. Listed in
# the order a line goes through them. The printed rows "the rest of it", "the rest of the worker's
# line" and "the writer and everything else" are what their parent has left beyond the rows above.
PHASES = [
    ("reading and splitting lines (reader thread)", r"DocumentBatch0B6InputsV7produce"),
    ("loading the line (text tests, shape scan)", r"DocumentCore0A5InputO4readAA04ReadC0VyKF"),
    ("recognising and classifying (base64, payload JSON)", r"DocumentCore14FormatRegistryO6format3forAA0aC0_pAA0C5ProbeC_tFZ$"),
    ("decoding (schema, nested tokens)", r"JWSKit11JWSDocumentV6decode_10textOffsetA2C8PreparedV_SitFZ$"),
    ("layers", r"JWSLayerBuilderV8addToken_4path6parent6holder5extra.*tF$"),
    ("verification", r"JWSLayerBuilderV6verify7options3jws.*tF$"),
    ("  the ECDSA verify (the floor)", r"X509Trust18DecodedCertificateC8verifies6digest12derSignatureSbSays5UInt8VG_AItF$"),
    # With a shared header (since 329fd31) the signed text goes through `sha256(_:sharedPrefix:)`.
    ("  SHA-256 of the signed text", r"X509Trust18DigestVerificationO6sha256(_12sharedPrefix.*_SitFZ|ySays5UInt8VGSgs10ArraySliceVyAFGFZ)$"),
    ("  the chain (cached after its first token)", r"JWSKit22JWSVerificationSessionC5chain_7anchors.*tF$"),
    ("the report", r"DocumentCore18VerificationReportV9verifying3now5words3jws8bundleID6detail.*tcfC$"),
    ("the whole line (worker thread)", r"DocumentBatch0B5CheckV8evaluate(_4turn.*tF|yAA0B7OutcomeVAA0B4ItemVF)$"),
]

def lines_file(tokens, lines, name):
    return write_lines(f"{work}/{name}.txt", tokens, lines)

def floor_now():
    """One P-256 verify by OpenSSL on this machine now, in µs."""
    return 1000 * verify_ms_now(2)

LIBRARIES = {"libcrypto.so.3": "libcrypto (the ECDSA verify, SHA-256, the rest of OpenSSL)",
             "libc.so.6": "libc (malloc and free, copies, memchr)",
             "[kernel.kallsyms]": "the kernel (reading the lines, page faults)"}

def bucket(dso, symbol):
    """Where a sample's time goes: its library, or, in the binary, its Swift module, the Swift
    runtime or the standard library's generic code."""
    if dso != "receipt-explorer":
        return LIBRARIES.get(dso, "other libraries")
    module = re.match(r"\$s(\d+)", symbol)
    if module:
        start = module.end()
        return f"module {symbol[start:start + int(module.group(1))]}"
    if re.match(r"_{0,2}swift_|swift::|_ZN5swift", symbol):
        return "the Swift runtime (reference counting, allocation, metadata)"
    if symbol.startswith("$s"):
        return "the standard library's generic code (arrays, strings, dictionaries, hashing)"
    return "other code in the binary"

def time_profile(tokens, lines, name):
    """CPU nanoseconds of a run of `lines` lines cycling `tokens`, by `bucket`."""
    path = lines_file(tokens, lines, name)
    data = f"{work}/{name}.perf"
    subprocess.run(["perf", "record", "-q", "-F", "2000", "-o", data, binary, "verify", "--lines", path,
                    "--root", root, "--jobs", "1", "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # cpu-clock samples: each one's period is the nanoseconds it stands for.
    report = subprocess.run(["perf", "report", "-i", data, "--no-children", "-g", "none", "--sort", "dso,sym",
                             "-F", "period,dso,sym", "--stdio"], capture_output=True, text=True).stdout
    spent = collections.Counter()
    for line in report.splitlines():
        sample = re.match(r"^\s*(\d+)\s+(\S+)\s+\[.\]\s+(\S+)", line)
        if sample:
            spent[bucket(sample.group(2), sample.group(3))] += int(sample.group(1))
    return spent

if mode == "time":
    for title, line_tokens in rows:
        sigs = sum(checks(t) for t in line_tokens) / len(line_tokens)
        lines = 4 * short
        distinct = list(dict.fromkeys(line_tokens))
        before = floor_now()
        # One run of every distinct token once (start-up, the roots, each chain's first checks) is
        # taken off each long run: a small amount, so this machine's drift between two runs barely
        # moves it, where differencing two long runs put that drift into every row.
        runs = []
        for _ in range(3):
            long, once = time_profile(line_tokens, lines, "long"), time_profile(distinct, len(distinct), "once")
            runs.append({k: (long[k] - once.get(k, 0)) / (lines - len(distinct)) / 1e3 for k in long})
        after = floor_now()
        per = {k: statistics.median(run.get(k, 0) for run in runs) for k in set().union(*runs)}
        line = statistics.median(sum(run.values()) for run in runs)
        floor = sigs * (before + after) / 2
        above = line - floor
        crypto = per.pop(LIBRARIES["libcrypto.so.3"], 0)
        print(f"### {title}: {sigs:g} signature check{'s' if sigs != 1 else ''} a line\n")
        print(f"- the whole process, per line: {line:.1f} µs CPU (median of 3 runs of {lines:,} lines, each less "
              f"a run of the {len(distinct)} distinct token{'s' if len(distinct) != 1 else ''} once; "
              f"range {min(sum(r.values()) for r in runs):.1f}–{max(sum(r.values()) for r in runs):.1f})")
        print(f"- the floor, OpenSSL's P-256 verify in this run: {floor:.1f} µs ({sigs:g} × {before:.1f} µs before, "
              f"{after:.1f} µs after: `openssl speed ecdsap256`)")
        print(f"- ratio in time: **{line / floor:.2f}×**; above the floor: {above:.1f} µs a line\n")
        print("| where (each row the median of the 3 runs) | µs a line | of what is above the floor |")
        print("|---|---:|---:|")
        print(f"| {LIBRARIES['libcrypto.so.3']} | {crypto:.1f} | |")
        print(f"| libcrypto beyond the floor | {crypto - floor:.1f} | {(crypto - floor) / above * 100:.0f} % |")
        for where, value in sorted(per.items(), key=lambda item: -item[1]):
            if value >= 0.05:
                print(f"| {where} | {value:.1f} | {value / above * 100:.0f} % |")
        print()
    print("Sampled at 2 kHz: a row under 2 µs is a few dozen samples. libcrypto beyond the floor is what OpenSSL "
          "takes beyond `openssl speed`'s verify (SHA-256, decoding the signature, setting the verify up); below "
          "zero, the verify ran faster in the process than in `openssl speed`.")
    sys.exit(0)

def profile(tokens, lines, name):
    """Callgrind's whole count and each phase's inclusive count for `lines` lines cycling `tokens`."""
    path = lines_file(tokens, lines, name)
    out = f"{work}/{name}.cg"
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, "verify", "--lines", path,
                    "--root", root, "--jobs", "1", "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out],
                          capture_output=True, text=True).stdout
    total = int(re.search(r"^([\d,]+) .*PROGRAM TOTALS", text, re.M).group(1).replace(",", ""))
    costs, calls = {}, {}
    for line in text.splitlines():
        m = re.match(r"^\s*([\d,]+) \([^)]*\)\s+\S*?:(\S+) \[", line)
        if not m:
            continue
        value, symbol = int(m.group(1).replace(",", "")), m.group(2)
        for phase, pattern in PHASES:
            if re.search(pattern, symbol):
                costs[phase] = max(costs.get(phase, 0), value)
    return total, costs

def share(value, above):
    return f"{value / above * 100:.0f} %"

for title, line_tokens in rows:
    sigs = sum(checks(t) for t in line_tokens) / len(line_tokens)
    long = 4 * short
    t1, c1 = profile(line_tokens, short, "short")
    t4, c4 = profile(line_tokens, long, "long")
    def per(phase):
        return (c4[phase] - c1[phase]) / (long - short) if phase in c4 and phase in c1 else None
    names = [phase for phase, _ in PHASES]
    line = (t4 - t1) / (long - short)
    floor = per(names[6]) or 0
    above = line - floor
    print(f"### {title}: {sigs:g} signature check{'s' if sigs != 1 else ''} a line\n")
    print(f"- the whole process, per line: {line / 1e3:,.0f} K instructions")
    print(f"- the floor, OpenSSL's ECDSA verify in this run: {floor / 1e3:,.0f} K ({sigs:g} × {floor / sigs / 1e3:,.0f} K)")
    print(f"- ratio in instructions: **{line / floor:.2f}×**; above the floor: {above / 1e3:,.0f} K a line\n")
    print("| phase | K instructions a line | of what is above the floor |")
    print("|---|---:|---:|")
    def row(name, value, shared=True):
        print(f"| {name} | {'(not found)' if value is None else f'{value / 1e3:,.1f}'} | "
              f"{share(value, above) if shared and value is not None else ''} |")
    reader, worker = per(names[0]), per(names[10])
    row(names[0], reader)
    for name in names[1:5]:
        row(name, per(name))
    verification = per(names[5])
    row(names[5] + " (all of it)", verification, shared=False)
    row(names[6], floor, shared=False)
    for name in names[7:9]:
        row(name, per(name))
    if verification is not None:
        row("  the rest of it (steps, dates, claims, consistency)", verification - sum(per(n) or 0 for n in names[6:9]))
    row(names[9], per(names[9]))
    if worker is not None:
        listed = sum(per(n) or 0 for n in names[1:6]) + (per(names[9]) or 0)
        row("the rest of the worker's line (the document and its output line, freeing)", worker - listed)
    row("the writer and everything else", line - (reader or 0) - (worker or 0))
    print()
print("SHA-256 runs without the CPU's SHA extensions under valgrind (it hides them), so its share here is "
      "above what it takes on the real CPU (`openssl speed -evp sha256`).")
PY
