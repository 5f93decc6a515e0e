#!/usr/bin/env python3
"""Regenerates docs/primer.md from Scripts/gen-primer.template.md: the prose is the template's, every
example is the output of the built tool on the committed samples.

A marker line `<!-- run: ARGS -->` (optionally `<!-- run: ARGS | lines A-B -->`, or for `tour --print`
`<!-- run: ARGS | steps A-B -->`) becomes that command line and the tool's output (lines A to B,
1-based, or the tour's steps A to B, when given) in a fenced block.

  Scripts/gen-primer.py [--binary PATH]          # rewrite docs/primer.md
  Scripts/gen-primer.py --check [--binary PATH]  # exit 1 and show a diff when it is stale

The binary defaults to .build/debug/receipt-explorer (build it first: swift build).
"""
import argparse, difflib, os, re, shlex, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATE = os.path.join(ROOT, "Scripts", "gen-primer.template.md")
PRIMER = os.path.join(ROOT, "docs", "primer.md")
MARKER = re.compile(r"^<!-- run: (.+?)(?: \| (lines|steps) (\d+)-(\d+))? -->$")


def render(binary):
    out = []
    for line in open(TEMPLATE, encoding="utf-8").read().splitlines():
        m = MARKER.match(line)
        if not m:
            out.append(line)
            continue
        args = shlex.split(m.group(1))
        # The exit status says whether the input has errors; the primer shows the text either way.
        result = subprocess.run([binary] + args, cwd=ROOT, capture_output=True, text=True,
                                env=dict(os.environ, NO_COLOR="1"))
        if result.returncode not in (0, 1):
            sys.exit(f"gen-primer: `receipt-explorer {m.group(1)}` failed ({result.returncode}): {result.stderr.strip()}")
        lines = result.stdout.splitlines()
        shown = lines
        if m.group(2) == "steps":
            # A tour's steps are blocks that start "Step N/M:" and end at an empty line.
            first, last = int(m.group(3)), int(m.group(4))
            starts = [i for i, line in enumerate(lines) if line.startswith("Step ")]
            if not starts or last > len(starts):
                sys.exit(f"gen-primer: `receipt-explorer {m.group(1)}` has {len(starts)} steps, not {last}")
            end = starts[last] - 1 if last < len(starts) else len(lines)
            shown = lines[starts[first - 1]:end]
            while shown and not shown[-1]:
                shown = shown[:-1]
            before = f"… (steps {first}-{last} of {len(starts)})"
            shown = [before] + shown
        elif m.group(2):
            first, last = int(m.group(3)), int(m.group(4))
            shown = lines[first - 1:last]
            if first > 1:
                shown = [f"… (lines {first}-{min(last, len(lines))} of {len(lines)})"] + shown
            if last < len(lines):
                shown = shown + [f"… ({len(lines) - last} more lines)"]
        out.append("```console")
        out.append(f"$ receipt-explorer {m.group(1)}")
        out.extend(shown)
        out.append("```")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "debug", "receipt-explorer"))
    parser.add_argument("--check", action="store_true")
    options = parser.parse_args()
    text = render(options.binary)
    if options.check:
        committed = open(PRIMER, encoding="utf-8").read() if os.path.exists(PRIMER) else ""
        if committed != text:
            sys.stdout.writelines(difflib.unified_diff(committed.splitlines(True), text.splitlines(True),
                                                       "docs/primer.md", "regenerated"))
            sys.exit(1)
        return
    with open(PRIMER, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
