#!/usr/bin/env bash
# How far each kind of work is from what it must cost (issue 32), every row measured in one run:
# the floor (OpenSSL's own P-256 verify time, measured right before and after each batch row, × the
# signature checks a token needs), Apple's Python library on the same tokens, and the one-shot
# anchors (a static Swift hello that imports FoundationEssentials, `jq --version`, `openssl version`).
#
#   Scripts/bench-floor.sh [--binary PATH] [--count N] [--repeat K]
#
# --binary  the receipt-explorer to measure (default: the release archive's binary, built as
#           Scripts/release.sh builds it: static stdlib, --no-export-dynamic, .build-release).
# --count   lines per batch row (default 5000; the mixed row uses 2×).
# --repeat  runs of each batch row and rounds of the `--jobs` rows (default 5): the median and range.
#           The `--jobs 2` row comes with the machine's ceiling for the same work, measured in the
#           same rounds: two `--jobs 1` processes side by side on half the tokens each, which share
#           nothing, and `openssl speed -multi 2 ecdsap256`.
# Tokens: the real Apple-signed ones in ../shared/corpus/jws (Xcode tokens left out: their chain is
# a self-signed test certificate), judged against ../shared/corpus/certs/AppleRootCA-G3.cer.
# Apple's app-store-server-library goes into Benchmarks/.venv (git-ignored), as bench-batch.sh does.
# Batch rows also give the cost a token adds, start-up apart: the run less one that reads each
# distinct token once (start, roots, each chain's first checks), over the lines beyond those.
# Prints a Markdown table; the load average before and after. Linux (GNU time, /proc): a benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=""
count=5000
repeat=5
while (($# > 0)); do
    case "$1" in
        --binary) binary="$2"; shift 2 ;;
        --count) count="$2"; shift 2 ;;
        --repeat) repeat="$2"; shift 2 ;;
        *) echo "usage: Scripts/bench-floor.sh [--binary PATH] [--count N] [--repeat K]" >&2; exit 2 ;;
    esac
done
# Start-up apart divides by the lines beyond the distinct tokens (9 in the mixed row).
[[ "$count" =~ ^[0-9]+$ && "$count" -ge 10 ]] || { echo "bench-floor.sh: --count must be a number of at least 10" >&2; exit 2; }
[[ "$repeat" =~ ^[0-9]+$ && "$repeat" -ge 1 ]] || { echo "bench-floor.sh: --repeat must be a number of at least 1" >&2; exit 2; }
corpus=../shared/corpus
[[ -d "$corpus/jws" ]] || { echo "bench-floor.sh: $corpus/jws is missing (the shared corpus beside the project)" >&2; exit 2; }
if [[ -z "$binary" ]]; then
    source Scripts/release-build.sh
    binary="$(release_binary)"
fi
venv=Benchmarks/.venv
[[ -x "$venv/bin/python" ]] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check app-store-server-library

# The anchor for one-shot commands: a static Swift hello importing FoundationEssentials, linked
# as the release is (static stdlib, no exported symbols, a PIE: Scripts/release-build.sh), once,
# into .build-bench-hello (git-ignored).
hello_dir=.build-bench-hello
hello="$hello_dir/hello-as-released"
if [[ ! -x "$hello" ]]; then
    mkdir -p "$hello_dir"
    printf 'import FoundationEssentials\nprint("hello \\(Date.now.timeIntervalSince1970 > 0)")\n' > "$hello_dir/hello.swift"
    swiftc -O -static-stdlib -Xlinker --no-export-dynamic "$hello_dir/hello.swift" -o "$hello" >&2
fi

exec "$venv/bin/python" - "$binary" "$count" "$corpus" "$hello" "$repeat" <<'PY'
import os, resource, statistics, subprocess, sys, tempfile, time
sys.path.insert(0, "Scripts")
from bench_tokens import NOTIFICATION, TRANSACTION, checks, corpus_tokens, payload, verifies_per_second, verify_ms_now, write_lines

binary, count, corpus, hello, repeat = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
root = f"{corpus}/certs/AppleRootCA-G3.cer"
load = lambda: " ".join(f"{x:.2f}" for x in os.getloadavg())
print(f"binary: {binary}; load before: {load()}", file=sys.stderr)

# --- the floor: OpenSSL's P-256 verify, on this machine, now ---
verify_ms = verify_ms_now()
print(f"floor: one P-256 verify {verify_ms:.4f} ms (openssl speed ecdsap256)", file=sys.stderr)

tokens = corpus_tokens(corpus)
transaction = tokens[TRANSACTION]
notification = tokens[NOTIFICATION]
mixed = list(tokens.values())

def lines_file(items, n):
    fd, path = tempfile.mkstemp(suffix=".txt")
    os.close(fd)
    return write_lines(path, items, n)

def cpu_run(args, runs=3):
    """Median CPU seconds (user + system) of the child over `runs` runs, and its wall seconds."""
    cpus, walls = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        r = subprocess.run([binary] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r.returncode not in (0, 1):
            sys.exit(f"{args}: exit {r.returncode}: {r.stderr.decode()[:400]}")
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(cpus), statistics.median(walls)

rows = []
def spread(ratios):
    """The median ratio, and the range in brackets when the runs were several."""
    med = f"{statistics.median(ratios):.2f}×"
    return med if len(ratios) == 1 else f"{med} [{min(ratios):.2f}–{max(ratios):.2f}]"

def batch_row(name, items, n, sigs):
    """Each of `repeat` runs is judged against the floor measured right before and right after it
    (the mean of the two): this shared machine's speed drifts by several per cent within a minute,
    and one floor for the whole row put that drift into the ratio. The row gives the median of the
    runs' ratios and their range. Start-up apart: a run on each distinct token once (the process's
    start, the roots, each chain's first checks), taken off, over the lines beyond those."""
    path = lines_file(items, n)
    firsts = lines_file(items, len(items))
    args = ["verify", "--lines", path, "--root", root, "--jobs", "1", "--quiet"]
    first_args = ["verify", "--lines", firsts, "--root", root, "--jobs", "1", "--quiet"]
    floors, pers, ratios, marginal_ratios = [], [], [], []
    before = verify_ms_now(2)
    for _ in range(repeat):
        cpu, _ = cpu_run(args, runs=1)
        fixed, _ = cpu_run(first_args, runs=5)
        after = verify_ms_now(2)
        floor = sigs * (before + after) / 2
        per = cpu / n * 1000
        floors.append(floor)
        pers.append(per)
        ratios.append(per / floor)
        marginal_ratios.append((cpu - fixed) / (n - len(items)) * 1000 / floor)
        print(f"'{name[:40]}…': floor {before:.4f} → {after:.4f} ms, {per:.4f} ms a token, "
              f"{ratios[-1]:.2f}× ({marginal_ratios[-1]:.2f}× start-up apart; start-up {fixed * 1000:.1f} ms)", file=sys.stderr)
        before = after
    os.unlink(firsts)
    rows.append((name, f"{sigs:g}", f"{statistics.median(floors):.3f} ms", f"{statistics.median(pers):.3f} ms",
                 f"{spread(ratios)} ({spread(marginal_ratios)})", "≤ 1.5×"))
    return path, statistics.median(pers)

batch_row(f"`verify --lines --jobs 1`, {count:,} × one real sandbox transaction", [transaction], count, 1)
batch_row(f"the same, {count:,} × one real DID_RENEW notification (2 nested tokens)", [notification], count, 3)
mixed_sigs = statistics.mean(checks(t) for t in mixed)
mixed_path, mixed_per = batch_row(f"{2 * count:,} real mixed tokens ({len(mixed)} distinct, cycled)", mixed, 2 * count, mixed_sigs)

# --- Apple's SignedDataVerifier on the same mixed tokens, in-process, one core ---
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
from appstoreserverlibrary.models.Environment import Environment
root_bytes = open(root, "rb").read()
verifiers = {}
def apple_verify(token):
    p = payload(token)
    data = p.get("data", {})
    env = data.get("environment") or p.get("environment") or "Sandbox"
    bundle = data.get("bundleId") or p.get("bundleId") or "x"
    apple_id = data.get("appAppleId") or p.get("appAppleId") or 1
    key = (env, bundle, apple_id)
    if key not in verifiers:
        verifiers[key] = SignedDataVerifier([root_bytes], False, Environment(env), bundle, apple_id)
    v = verifiers[key]
    try:
        if "notificationType" in p: v.verify_and_decode_notification(token)
        elif "autoRenewStatus" in p or "autoRenewProductId" in p: v.verify_and_decode_renewal_info(token)
        else: v.verify_and_decode_signed_transaction(token)
    except Exception:
        pass   # the time is what is compared; a verdict difference is not this benchmark's question
apple_n = min(2 * count, 2000)
start = time.process_time()
for i in range(apple_n):
    apple_verify(mixed[i % len(mixed)])
apple_per = (time.process_time() - start) / apple_n * 1000
rows.append(("Apple's Python `SignedDataVerifier`, the same mixed tokens (per core)", "", "", f"{apple_per:.3f} ms",
             f"ours {apple_per / mixed_per:.1f}× faster", "≥ 50×"))

# Alternating runs, each round's own ratios: the machine's drift between two separate medians was
# larger than the distance to the target. Beside them, the machine's own ceiling for this very work:
# two `--jobs 1` processes side by side, each on half the lines, sharing nothing (no lock, no
# allocator, no cache line), against one process on all of them. Whatever keeps that pair under 2×
# (the two vCPUs' shared caches and memory bandwidth, neighbours on the host) caps `--jobs 2` too.
def pair_run(paths):
    """Wall seconds until both processes are done, and their CPU seconds together."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    procs = [subprocess.Popen([binary, "verify", "--lines", p, "--root", root, "--jobs", "1", "--quiet"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for p in paths]
    codes = [proc.wait() for proc in procs]
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if any(code not in (0, 1) for code in codes):
        sys.exit(f"side-by-side halves: exits {codes}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
halves = [lines_file(mixed, count), lines_file(mixed[count % len(mixed):] + mixed[:count % len(mixed)], count)]
walls1, walls2, pair_walls, speedups, pair_speedups, cpu_growth, pair_cpu_growth = [], [], [], [], [], [], []
for _ in range(repeat):
    cpu1, wall1 = cpu_run(["verify", "--lines", mixed_path, "--root", root, "--jobs", "1", "--quiet"], runs=1)
    cpu2, wall2 = cpu_run(["verify", "--lines", mixed_path, "--root", root, "--jobs", "2", "--quiet"], runs=1)
    pair_wall, pair_cpu = pair_run(halves)
    walls1.append(wall1)
    walls2.append(wall2)
    pair_walls.append(pair_wall)
    speedups.append(wall1 / wall2)
    pair_speedups.append(wall1 / pair_wall)
    cpu_growth.append(cpu2 / cpu1)
    pair_cpu_growth.append(pair_cpu / cpu1)
    print(f"--jobs 1 {wall1:.2f} s, --jobs 2 {wall2:.2f} s ({speedups[-1]:.2f}×, CPU ×{cpu_growth[-1]:.2f}), "
          f"two halves side by side {pair_wall:.2f} s ({pair_speedups[-1]:.2f}×, CPU ×{pair_cpu_growth[-1]:.2f})", file=sys.stderr)
for path in halves:
    os.unlink(path)
openssl_scaling = verifies_per_second(3, processes=2) / verifies_per_second(3)   # two processes' verify/s over one's
rows.append(("`--jobs 2` against `--jobs 1`, the same mixed tokens (wall)", "", "",
             f"{statistics.median(walls1):.2f} s → {statistics.median(walls2):.2f} s (CPU ×{statistics.median(cpu_growth):.2f})",
             spread(speedups), "≥ 1.9×"))
rows.append(("the machine's ceiling for it: two `--jobs 1` processes side by side on half the tokens each, sharing nothing (wall)", "", "",
             f"{statistics.median(walls1):.2f} s → {statistics.median(pair_walls):.2f} s, the pair's last done (CPU ×{statistics.median(pair_cpu_growth):.2f}); "
             f"`openssl speed -multi 2 ecdsap256` {openssl_scaling:.2f}× one",
             spread(pair_speedups), "(a ceiling, not a target)"))

# --- one-shot commands: wall time, median of 30 ---
def wall_of(cmd, runs=30):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000
one = lines_file([notification], 1)
hello_ms = wall_of([hello])
anchors = f"hello {hello_ms:.1f} ms; `jq --version` {wall_of(['jq', '--version']):.1f} ms; `openssl version` {wall_of(['openssl', 'version']):.1f} ms"
version_ms = wall_of([binary, "--version"])
rows.append(("one process: `--version`", "0", anchors, f"{version_ms:.1f} ms", f"{version_ms / hello_ms:.2f}× the hello", "≤ 3.5 ms"))
verify_one = wall_of([binary, "verify", one, "--root", root])
rows.append(("one process: `verify` of one DID_RENEW notification", "3", f"{3 * verify_ms:.2f} ms + start", f"{verify_one:.1f} ms",
             f"{verify_one / (3 * verify_ms + hello_ms):.1f}× (floor + hello)", "≤ 5 ms"))

# --- memory: dump of 50 MB of base64-like text ---
import random
random.seed(32)
alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
big = tempfile.NamedTemporaryFile(suffix=".b64", delete=False)
big.write(bytes(alphabet[b >> 2] for b in random.randbytes(50_000_000)))
big.close()
r = subprocess.run(["/usr/bin/time", "-f", "%M %e", binary, "dump", big.name], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
kib, seconds = r.stderr.strip().splitlines()[-1].split()
rows.append(("`dump` of 50 MB of base64-like text", "0", "3× input + 40 MB = 190 MB", f"{int(kib) * 1024 / 1e6:.0f} MB peak, {float(seconds):.1f} s",
             f"{int(kib) * 1024 / 50e6:.1f}× input", "≤ 3× + 40 MB"))
for path in (mixed_path, one, big.name):
    os.unlink(path)

print(f"Batch rows and `--jobs 2`: the median of {repeat} runs, their range in square brackets; in round brackets, start-up apart (the run less one on each distinct token once).\n")
print("| work | signature checks | floor | receipt-explorer | ratio | target |")
print("|---|---:|---:|---:|---:|---|")
for r in rows:
    print("| " + " | ".join(r) + " |")
print(f"\nload before → after: see stderr; after: {load()}", file=sys.stderr)
PY
