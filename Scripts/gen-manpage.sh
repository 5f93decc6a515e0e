#!/usr/bin/env bash
# Regenerates docs/receipt-explorer.1: the commands' own help through swift-argument-parser's
# generate-manual plugin (it reads `receipt-explorer --experimental-dump-help`), then the manual's
# pages (docs/manual/*.md, by Scripts/manual-to-mdoc.py), so the man page and the manual are one
# text. The page records the SHA-256 of the help dump, and ends with the manual's sections, so
# Tests/CLITests/EcosystemTests.swift can tell when it is stale.
#
#   Scripts/gen-manpage.sh            # the page's date is today (UTC); MANPAGE_DATE=YYYY-MM-DD overrides
set -euo pipefail
cd "$(dirname "$0")/.."

date="${MANPAGE_DATE:-$(date -u +%Y-%m-%d)}"
# The plugin builds the package and its generate-manual tool, then writes a page.
swift package generate-manual --configuration debug --date "$date" --section 1
bin="$(swift build --show-bin-path)"
binary="$bin/receipt-explorer"
tool="$bin/generate-manual-tool"
[ -x "$tool" ] || { echo "gen-manpage.sh: the plugin left no $tool" >&2; exit 1; }

# generate-manual (1.8.2) silently drops every non-ASCII character (✓, —, …). So the tool is run
# once more on a stand-in whose help dump spells each one as an ASCII placeholder, and the
# placeholders become roff's \[uXXXX] escapes afterwards.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$binary" --experimental-dump-help > "$work/help.json"
python3 -c '
import sys
text = open(sys.argv[1], encoding="utf-8").read()
sys.stdout.write("".join(c if ord(c) < 128 else "QqU%04XqQ" % ord(c) for c in text))
' "$work/help.json" > "$work/help-ascii.json"
printf '#!/bin/sh\nexec cat "%s"\n' "$work/help-ascii.json" > "$work/receipt-explorer"
chmod +x "$work/receipt-explorer"
"$tool" "$work/receipt-explorer" --date "$date" --section 1 --output-directory "$work"

sha256() { if command -v sha256sum >/dev/null; then sha256sum | cut -d' ' -f1; else shasum -a 256 | cut -d' ' -f1; fi; }
help_sha="$(sha256 < "$work/help.json")"

# The page's footer names the version (mdoc's .Os, which the tool leaves empty), read from the
# binary: ReceiptExplorer.version stays the one source, and a test fails when the page lags it.
version="$("$binary" --version | sed -nE '1s/^receipt-explorer ([0-9]+\.[0-9]+\.[0-9]+) .*/\1/p')"
[ -n "$version" ] || { echo "gen-manpage.sh: no version in '$("$binary" --version)'" >&2; exit 1; }

# The tool's first line is its own comment; the hash goes right after it. Its blank lines between
# paragraphs of a discussion become .Pp, which is what mdoc means by them (groff warns otherwise).
{
    head -n 1 "$work/receipt-explorer.1"
    printf '.\\" help-sha256: %s (Scripts/gen-manpage.sh)\n' "$help_sha"
    tail -n +2 "$work/receipt-explorer.1" | sed -E -e 's/QqU([0-9A-F]{4,6})qQ/\\[u\1]/g' -e 's/^$/.Pp/' \
        -e "s/^\.Os\$/.Os receipt-explorer $version/"
} > docs/receipt-explorer.1
grep -qx "\.Os receipt-explorer $version" docs/receipt-explorer.1 || { echo "gen-manpage.sh: the page has no .Os line to carry the version" >&2; exit 1; }
[ -z "$(tail -c 1 docs/receipt-explorer.1)" ] || echo >> docs/receipt-explorer.1  # the tool ends without one
python3 Scripts/manual-to-mdoc.py >> docs/receipt-explorer.1
echo "wrote docs/receipt-explorer.1 (help-sha256 $help_sha)"
