#!/usr/bin/env python3
"""Measure the terminal UI's first-frame and per-key frame times through a real terminal (tmux).

    swift build -c release --scratch-path .build-tui-rel
    python3 Scripts/generate-samples.py --large 10000        # samples/generated/large-10000.receipt
    python3 Scripts/tui-timing.py [--binary PATH] [--runs 3]  # writes samples/generated/million-nodes.der

The binary runs in a detached tmux session (120x40) with RECEIPT_EXPLORER_TIMING pointing at a log
file; the adapter appends one line per frame (first-frame: from the command's start to the first
drawn frame, split into setup = load + parse + receipt analysis + state, render, copy, refresh;
frame: reduce + render + copy to curses + doupdate for each key). Keys are sent one at a time and
each waits for its frame, so no two keys share a frame. Prints a summary; numbers are milliseconds.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from der import TAG_SEQUENCE, TAG_SET, integer, tlv  # the one DER encoder

# glibc always has C.UTF-8; macOS only from macOS 15, en_US.UTF-8 on every version.
UTF8_LOCALE = "en_US.UTF-8" if sys.platform == "darwin" else "C.UTF-8"

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "samples" / "generated"


def million_nodes(path: Path, pairs: int = 333_333) -> Path:
    """A SET of `pairs` SEQUENCE { INTEGER, INTEGER }: 1 + 3 * 333,333 = 1,000,000 nodes."""
    if path.exists():
        return path
    elements = []
    for i in range(pairs):
        elements.append(tlv(TAG_SEQUENCE, integer(i) + integer(i * 7919 % 1_000_003)))
    elements.sort()  # DER SET OF order
    content = b"".join(elements)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(tlv(TAG_SET, content))
    return path


class Session:
    def __init__(self, binary: Path, args: list[str], log: Path, width: int = 120, height: int = 40):
        self.socket = str(log.parent / "tmux.sock")  # private server; the socket goes with the temp dir
        self.log = log
        env = f"LC_ALL={UTF8_LOCALE} RECEIPT_EXPLORER_TIMING={log}"
        command = f"cd {ROOT} && {env} {binary} " + " ".join(args) + "; sleep 600"
        self.started = time.monotonic()
        self.tmux("new-session", "-d", "-x", str(width), "-y", str(height), "-s", "t", command)

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-S", self.socket, "-f", "/dev/null", *args], check=True,
                              capture_output=True, text=True, env={**os.environ, "LC_ALL": UTF8_LOCALE}).stdout

    def lines(self) -> list[str]:
        try:
            return self.log.read_text().splitlines()
        except FileNotFoundError:
            return []

    def wait_lines(self, count: int, timeout: float = 30) -> list[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            lines = self.lines()
            if len(lines) >= count:
                return lines
            time.sleep(0.002)
        raise SystemExit(f"timed out waiting for frame {count} in {self.log}; screen:\n" + self.tmux("capture-pane", "-p", "-t", "t"))

    def key(self, *keys: str) -> None:
        before = len(self.lines())
        self.tmux("send-keys", "-t", "t", *keys)
        self.wait_lines(before + 1)

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True)


def field(line: str, name: str) -> float:
    match = re.search(rf"\b{name}=([0-9.]+)", line)
    return float(match.group(1)) if match else float("nan")


KEYS = (
    ["j"] * 20 + ["k"] * 10 + ["l", "h", "l", "Enter", "Enter"] + ["PageDown"] * 5 + ["PageUp"] * 3
    + ["G", "g", "End", "Home", "Tab"] + ["Right"] * 10 + ["Down"] * 5 + ["Tab", "Tab"]
    + ["x", "x", "H", "H", "]", "[", "E"] + ["j"] * 10 + ["G", "k", "k", "C", "g"]
)


def measure(binary: Path, args: list[str], label: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "timing.log"
        session = Session(binary, args, log)
        try:
            first = session.wait_lines(1, timeout=120)[0]
            wall = (time.monotonic() - session.started) * 1000
            frames = []
            for k in KEYS:
                session.key(k)
            # A search over every node: typed into the prompt, then Enter runs it.
            session.key("/")
            for ch in "INTEGER":
                session.key(ch)
            session.key("Enter")
            session.key("n")
            lines = session.lines()
            session.tmux("send-keys", "-t", "t", "q")
        finally:
            session.close()
    for line in lines[1:]:
        keys = re.search(r"keys=(\S+)", line).group(1)
        frames.append((keys, field(line, "total_ms"), field(line, "render_ms"), field(line, "copy_ms"),
                       field(line, "refresh_ms"), field(line, "reduce_ms"), int(field(line, "cells"))))
    return {"label": label, "first": first, "wall": wall, "frames": frames}


def report(result: dict) -> None:
    first = result["first"]
    print(f"== {result['label']}")
    print(f"first frame: {field(first, 'total_ms'):.1f} ms from the command's start "
          f"(setup {field(first, 'setup_ms'):.1f}: load {field(first, 'load_ms'):.1f}, parse + receipt analysis {field(first, 'analyse_ms'):.1f}, "
          f"UI state {field(first, 'state_ms'):.1f}; render {field(first, 'render_ms'):.2f}; "
          f"copy {field(first, 'copy_ms'):.2f}; refresh {field(first, 'refresh_ms'):.2f}); "
          f"{result['wall']:.0f} ms wall from tmux launch to the logged frame")
    frames = result["frames"]
    totals = [f[1] for f in frames]
    ordinary = [f for f in frames if not any(k in f[0] for k in ('character("E")', 'character("C")', "enter"))]
    def stats(values):
        values = sorted(values)
        p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
        return f"median {statistics.median(values):.3f}, p95 {p95:.3f}, max {values[-1]:.3f}"
    print(f"per key ({len(frames)} frames): total {stats(totals)}")
    print(f"  render {stats([f[2] for f in frames])}; copy {stats([f[3] for f in frames])}; "
          f"refresh {stats([f[4] for f in frames])}; reduce {stats([f[5] for f in frames])}")
    print(f"  ordinary keys (no E/C/search): total {stats([f[1] for f in ordinary])}")
    named = {'character("E")': "E (expand all)", 'character("C")': "C (collapse all)", 'character("G")': "G (last row)",
             'character("]")': "] (next diagnostic)"}
    heavy = [f"{named[k]} {t:.2f}" for k, t, *_ in frames[:len(KEYS)] if k in named]  # not the typed search text
    search = [t for k, t, *_ in frames if k == "enter"][-1:]
    print("  named keys: " + ", ".join(heavy) + (f", search Enter (all nodes) {search[0]:.2f}" if search else ""))
    slow = sorted(frames, key=lambda f: -f[1])[:6]
    print("  slowest: " + "; ".join(f"{k} {t:.2f} (reduce {r:.2f}, render {rd:.2f}, copy {c:.2f}, refresh {rf:.2f})"
                                    for k, t, rd, c, rf, r, _ in slow))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", type=Path, default=ROOT / ".build-tui-rel" / "release" / "receipt-explorer")
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    million = million_nodes(GENERATED / "million-nodes.der")
    large = GENERATED / "large-10000.receipt"
    inputs = [([str(ROOT / "samples" / "typical.receipt")], "typical.receipt (7.7 KB, 1,320 nodes)")]
    if large.exists():
        inputs.append(([str(large)], "large-10000.receipt (3.5 MB, 10,000 purchases)"))
        inputs.append(([str(large), "--no-validate"], "large-10000.receipt --no-validate (decode only, no OpenSSL steps)"))
    else:
        print(f"note: {large} is missing: python3 Scripts/generate-samples.py --large 10000")
    inputs.append(([str(million)], f"million-nodes.der ({million.stat().st_size / 1e6:.1f} MB, 1,000,000 nodes)"))
    for arguments, label in inputs:
        for run in range(args.runs):
            report(measure(args.binary, arguments, label + (f" run {run + 1}" if args.runs > 1 else "")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
