#!/usr/bin/env bash
# Installs receipt-explorer under PREFIX: the binary, its man page and bash/zsh/fish completions.
#
#   Scripts/install.sh [--configuration release|debug] [--bin-path DIR] PREFIX
#
# By default builds with `swift build -c release` first. --bin-path installs the receipt-explorer
# already built in DIR instead (no SwiftPM call: the test reuses the binary `swift test` built).
# The binary loads the Swift runtime from the toolchain that built it; for an installation that does
# not need the toolchain, use the release archive or Debian package (Scripts/release.sh, README).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: Scripts/install.sh [--configuration release|debug] [--bin-path DIR] PREFIX" >&2; exit 2; }

configuration=release
bin_path=""
prefix=""
while (($# > 0)); do
    case "$1" in
        --configuration) (($# >= 2)) || usage; configuration="$2"; shift 2 ;;
        --bin-path) (($# >= 2)) || usage; bin_path="$2"; shift 2 ;;
        -h|--help) usage ;;
        -*) echo "install.sh: unknown option '$1'" >&2; usage ;;
        *) [ -z "$prefix" ] || usage; prefix="$1"; shift ;;
    esac
done
[ -n "$prefix" ] || usage
case "$configuration" in release|debug) ;; *) echo "install.sh: --configuration must be release or debug" >&2; exit 2 ;; esac

if [ -z "$bin_path" ]; then
    swift build -c "$configuration" --product receipt-explorer
    bin_path="$(swift build -c "$configuration" --show-bin-path)"
fi
binary="$bin_path/receipt-explorer"
[ -x "$binary" ] || { echo "install.sh: no receipt-explorer binary in '$bin_path'" >&2; exit 2; }

install -d "$prefix/bin" "$prefix/share/man/man1" \
    "$prefix/share/bash-completion/completions" "$prefix/share/zsh/site-functions" \
    "$prefix/share/fish/vendor_completions.d"
install -m 755 "$binary" "$prefix/bin/receipt-explorer"
install -m 644 docs/receipt-explorer.1 "$prefix/share/man/man1/receipt-explorer.1"

# The completions come from the installed binary itself, so they always match it.
installed="$prefix/bin/receipt-explorer"
"$installed" --generate-completion-script bash > "$prefix/share/bash-completion/completions/receipt-explorer"
"$installed" --generate-completion-script zsh > "$prefix/share/zsh/site-functions/_receipt-explorer"
"$installed" --generate-completion-script fish > "$prefix/share/fish/vendor_completions.d/receipt-explorer.fish"

echo "installed $("$installed" --version) into $prefix"
