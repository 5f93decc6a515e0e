#!/usr/bin/env bash
# Regenerates docs/receipt-explorer.1 from the commands' own help with swift-argument-parser's
# generate-manual plugin (it reads `receipt-explorer --experimental-dump-help`). The page records
# the SHA-256 of that help dump so Tests/CLITests/EcosystemTests.swift can tell when it is stale.
#
#   Scripts/gen-manpage.sh            # the page's date is today (UTC); MANPAGE_DATE=YYYY-MM-DD overrides
set -euo pipefail
cd "$(dirname "$0")/.."

date="${MANPAGE_DATE:-$(date -u +%Y-%m-%d)}"
# Where the plugin writes (its work directory, then the executable target's name).
generated=.build/plugins/GenerateManual/outputs/receipt-explorer/receipt-explorer.1
rm -f "$generated"
swift package generate-manual --configuration debug --date "$date" --section 1
[ -f "$generated" ] || { echo "gen-manpage.sh: the plugin wrote no $generated" >&2; exit 1; }

sha256() { if command -v sha256sum >/dev/null; then sha256sum | cut -d' ' -f1; else shasum -a 256 | cut -d' ' -f1; fi; }
help_sha="$("$(swift build --show-bin-path)/receipt-explorer" --experimental-dump-help | sha256)"

# The plugin's first line is its own comment; the hash goes right after it.
{
    head -n 1 "$generated"
    printf '.\\" help-sha256: %s (Scripts/gen-manpage.sh)\n' "$help_sha"
    tail -n +2 "$generated"
} > docs/receipt-explorer.1
echo "wrote docs/receipt-explorer.1 (help-sha256 $help_sha)"
