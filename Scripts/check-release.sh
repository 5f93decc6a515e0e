#!/usr/bin/env bash
# Checks what Scripts/release.sh put in OUTDIR, for real (run as root: it mounts, installs and removes
# the Debian package):
# Linux only, by design (unshare, mount, ldd, readelf, dpkg): it checks release.sh's Linux artefacts.
#
#   Scripts/check-release.sh OUTDIR
#
# - the checksums; the archive's files; its binary runs --version, dump and verify on the samples with
#   the Swift toolchain hidden (`unshare -m`, a tmpfs over the toolchain's directory) and under
#   `env -i`; `ldd` lists only the system's libc, OpenSSL 3, ncursesw/tinfo and C++ runtime; no ICU
#   or full Foundation is linked in (FoundationEssentials only); it exports no symbols of its own and
#   needs no glibc symbol newer than 2.35;
# - the Debian package: its Depends, `dpkg -i`, `receipt-explorer --version`, `man -w`, the
#   completions, then `dpkg -r` leaves none of its files;
# - the formula: `ruby -c`, its url names the source archive and its sha256 is the archive's, the
#   archive is `git archive HEAD` byte for byte, and the formula's install and `test do` run against
#   that archive and the release binary (Scripts/check-formula.rb).
#
# Every check prints a line; the first that fails stops the script with status 1.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"

fail() { echo "check-release.sh: FAILED: $*" >&2; exit 1; }
ok() { echo "  ok  $*"; }

# --- Inside the mount namespace (the script calls itself): hide the toolchain, run the samples. ---
if [ "${1:-}" = "--hidden-toolchain" ]; then
    hide="$2"
    swift_real="$(readlink -f "$(command -v swift)" 2>/dev/null || true)"
    mount -t tmpfs -o size=1m,mode=755 receipt-explorer-check "$hide" || fail "cannot mount a tmpfs over $hide"
    [ -z "$(ls -A "$hide")" ] || fail "$hide is still visible"
    if [[ "$swift_real" == "$hide"/* ]]; then
        [ ! -e "$swift_real" ] || fail "$swift_real is still there with $hide hidden"
    fi
    ok "toolchain hidden: $hide is an empty tmpfs${swift_real:+ (${swift_real} is gone)}"
    shift 2
    exec "$@"
fi

outdir="${1:-}"
[ -n "$outdir" ] && [ -d "$outdir" ] || { echo "usage: Scripts/check-release.sh OUTDIR" >&2; exit 2; }
outdir="$(cd "$outdir" && pwd)"
[ "$(id -u)" -eq 0 ] || fail "run as root (it uses unshare -m, mount and dpkg -i)"
for tool in unshare mount ldd readelf nm objdump dpkg dpkg-deb man ruby sha256sum git bash; do
    command -v "$tool" >/dev/null || fail "needs $tool (apt: util-linux, binutils, dpkg, man-db, ruby, git)"
done

shopt -s nullglob
archives=("$outdir"/receipt-explorer-*-linux-*.tar.gz)
((${#archives[@]} == 1)) || fail "expected one receipt-explorer-VERSION-linux-ARCH.tar.gz in $outdir, found ${#archives[@]}"
archive="${archives[0]}"
name="$(basename "$archive" .tar.gz)"
version="$(sed -nE 's/^receipt-explorer-([0-9]+\.[0-9]+\.[0-9]+)-linux-.*/\1/p' <<< "$name")"
[ -n "$version" ] || fail "no version in $name"
debs=("$outdir"/receipt-explorer_"$version"_*.deb)
((${#debs[@]} == 1)) || fail "expected one receipt-explorer_${version}_ARCH.deb in $outdir"
deb="${debs[0]}"
source_archive="$outdir/receipt-explorer-$version.tar.gz"
formula="$outdir/Formula/receipt-explorer.rb"
work="$(mktemp -d)"
installed_package=false
cleanup() {
    if $installed_package; then dpkg -r receipt-explorer >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

echo "== checksums ($outdir)"
for file in "$archive" "$deb" "$source_archive"; do
    [ -f "$file.sha256" ] || fail "no $(basename "$file").sha256"
    (cd "$outdir" && sha256sum --quiet -c "$(basename "$file").sha256") || fail "$(basename "$file") does not match its .sha256"
    ok "$(basename "$file").sha256 ($(cut -c1-16 "$file.sha256")…)"
done

echo "== the archive $(basename "$archive")"
tar -xzf "$archive" -C "$work"
root="$work/$name"
expected_files="bin/receipt-explorer
share/bash-completion/completions/receipt-explorer
share/doc/receipt-explorer/CHANGELOG.md
share/doc/receipt-explorer/LICENSE
share/doc/receipt-explorer/README.md
share/doc/receipt-explorer/copyright
share/fish/vendor_completions.d/receipt-explorer.fish
share/man/man1/receipt-explorer.1
share/zsh/site-functions/_receipt-explorer"
actual_files="$(cd "$root" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)"
[ "$actual_files" = "$expected_files" ] || fail "the archive holds:"$'\n'"$actual_files"$'\n'"expected:"$'\n'"$expected_files"
ok "holds exactly: $(tr '\n' ' ' <<< "$expected_files")"
binary="$root/bin/receipt-explorer"
cmp -s "$root/share/doc/receipt-explorer/LICENSE" LICENSE || fail "the archive's LICENSE is not the repository's"
grep -q "^\.Os receipt-explorer $version\$" "$root/share/man/man1/receipt-explorer.1" || fail "the man page does not carry version $version"
ok "the man page carries version $version"

# The toolchain's directory: the real path of `swift` is TOOLCHAIN/usr/bin/swift-driver. A toolchain
# installed straight into /usr would leave nothing to hide but its libraries' directory.
swift_path="$(readlink -f "$(command -v swift)" 2>/dev/null)" || fail "no swift on PATH: nothing to hide"
toolchain="${swift_path%/usr/bin/*}"
[ -n "$toolchain" ] && [ "$toolchain" != "$swift_path" ] || toolchain="/usr/lib/swift"
[ -d "$toolchain" ] || fail "the toolchain directory $toolchain does not exist"
echo "== ldd (toolchain: $toolchain)"
ldd_out="$(ldd "$binary")"
echo "$ldd_out" | sed 's/^\s*/       /'
allowed='^(linux-vdso\.so\.1|/lib64/ld-linux-x86-64\.so\.2|ld-linux-x86-64\.so\.2|ld-linux-aarch64\.so\.1|/lib/ld-linux-aarch64\.so\.1|libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|libssl\.so\.3|libcrypto\.so\.3|libncursesw\.so\.6|libtinfo\.so\.6|libstdc\+\+\.so\.6|libgcc_s\.so\.1)$'
while read -r library arrow path _; do
    [[ "$library" =~ $allowed ]] || fail "ldd lists $library, which is not a system library the release may depend on"
    [ "$path" != "not" ] || fail "ldd: $library not found"
    [[ "$arrow" != "=>" || "$path" != "$toolchain"/* ]] || fail "ldd: $library resolves under the toolchain ($path)"
done <<< "$ldd_out"
! grep -q "$toolchain" <<< "$ldd_out" || fail "ldd mentions the toolchain"
ok "only the system's libc, OpenSSL 3, ncursesw/tinfo and C++ runtime; nothing under $toolchain"
# Issue 21, fast start: FoundationEssentials only. Full Foundation would bring ICU, whose data
# (icudtNNl-…) and FoundationInternationalization's type names stay in the binary even when stripped.
! grep -aqE 'icudt[0-9]+l|FoundationInternationalization' "$binary" || fail "the binary carries ICU or full Foundation (FoundationInternationalization): a Source imports Foundation instead of FoundationEssentials"
ok "no ICU, no FoundationInternationalization (FoundationEssentials only)"
# Issue 21, fast start: the release links with --no-export-dynamic (Scripts/release.sh), so the loader
# has no table of the binary's own symbols to map and search at start-up.
exported="$(nm -D --defined-only "$binary" | wc -l)"
[ "$exported" -lt 100 ] || fail "the binary exports $exported symbols: it was linked without --no-export-dynamic"
ok "exports $exported symbols of its own (linked with --no-export-dynamic)"
# A PIE, so the code of a tool that reads hostile input is at a random address (ASLR); the
# relocations that cost at start are accepted for it (Scripts/release-build.sh).
elf_type="$(readelf -h "$binary" | sed -nE 's/^ *Type: *([A-Z]+).*/\1/p')"
[ "$elf_type" = DYN ] || fail "the binary is an ELF $elf_type, not a PIE (DYN): its code would sit at a fixed address"
ok "a position-independent executable (its code at a random address)"
# Ubuntu 22.04 has glibc 2.35: nothing may need a newer symbol version (a static libstdc++ from GCC 12
# would, with arc4random@GLIBC_2.36).
newest_glibc="$(objdump -T "$binary" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -uV | tail -1)"
[ "$(printf '%s\n' "$newest_glibc" GLIBC_2.35 | sort -V | tail -1)" = GLIBC_2.35 ] || fail "the binary needs $newest_glibc: glibc 2.35 (Ubuntu 22.04) could not run it"
ok "needs glibc $newest_glibc at most (2.35 and later run it)"
! readelf -d "$binary" | grep -Eq '\((RPATH|RUNPATH)\)' || fail "the binary has an RPATH/RUNPATH: $(readelf -d "$binary" | grep -E 'RPATH|RUNPATH')"
ok "no RPATH/RUNPATH"

# The samples, run through `env -i` (no PATH, HOME, LANG, TERM…) by absolute path.
run_samples() {
    local bin="$1" out status
    local clean=(env -i)
    out="$("${clean[@]}" "$bin" --version)" || fail "--version exited $?"
    [[ "$out" =~ ^receipt-explorer\ $version\ \(OpenSSL\ 3\.[0-9]+\.[0-9]+ ]] || fail "--version printed '$out'"
    ok "env -i $(basename "$bin") --version: $out"
    out="$("${clean[@]}" "$bin" dump "$repo/samples/typical.receipt")" || fail "dump typical.receipt exited $?"
    [ "$(tail -n 1 <<< "$out")" = "# 1,320 elements; 0 errors, 0 der, 0 warnings, 0 info" ] || fail "dump typical.receipt ended '$(tail -n 1 <<< "$out")'"
    ok "dump samples/typical.receipt: exit 0, 1,320 elements, 0 errors"
    status=0; out="$("${clean[@]}" "$bin" dump "$repo/samples/malformed-truncated.receipt")" || status=$?
    [ "$status" -eq 1 ] || fail "dump malformed-truncated.receipt exited $status, expected 1"
    [ "$(tail -n 1 <<< "$out")" = "# 546 elements; 13 errors, 0 der, 0 warnings, 0 info" ] || fail "dump malformed-truncated.receipt ended '$(tail -n 1 <<< "$out")'"
    ok "dump samples/malformed-truncated.receipt: exit 1, 13 errors"
    out="$("${clean[@]}" "$bin" verify --quiet "$repo/samples/typical.receipt" --root "$repo/samples/pki/test-root.cer" \
        --device-id A1B2C3D4-E5F6-4789-9ABC-DEF012345678 --bundle-id com.example.receiptexplorer --at 2024-03-05)" || fail "verify typical.receipt exited $?"
    [ "$out" = "VALID (sandbox receipt) — valid, anchored at a root you supplied" ] || fail "verify typical.receipt: '$out'"
    ok "verify samples/typical.receipt --root test-root.cer: exit 0, $out"
    out="$("${clean[@]}" "$bin" verify --quiet "$repo/samples/jws/transaction.jws" --root "$repo/samples/pki/test-ec-root.cer" \
        --bundle-id com.example.receiptexplorer --environment Sandbox)" || fail "verify transaction.jws exited $?"
    [ "$out" = "VALID — valid, anchored at a root you supplied" ] || fail "verify transaction.jws: '$out'"
    ok "verify samples/jws/transaction.jws --root test-ec-root.cer: exit 0, $out"
    status=0; out="$("${clean[@]}" "$bin" verify --quiet "$repo/samples/jws/malformed-tampered-payload.jws" --root "$repo/samples/pki/test-ec-root.cer")" || status=$?
    [ "$status" -eq 1 ] && [ "$out" = "INVALID: ES256 signature: the signature does not match header.payload under x5c[0]'s key: the token was altered or signed by another key" ] || fail "verify malformed-tampered-payload.jws: exit $status, '$out'"
    ok "verify samples/jws/malformed-tampered-payload.jws: exit 1, $out"
    status=0; out="$("${clean[@]}" "$bin" dump /nonexistent/receipt 2>&1)" || status=$?
    [ "$status" -eq 2 ] || fail "dump of a missing file exited $status, expected 2"
    ok "dump of a missing file: exit 2"
}
export -f run_samples fail ok
export version repo

echo "== the archive's binary with the toolchain hidden and the environment cleared"
unshare -m "$0" --hidden-toolchain "$toolchain" bash -c 'run_samples "$0"' "$binary" || fail "the samples failed with the toolchain hidden"

echo "== the Debian package $(basename "$deb")"
depends="$(dpkg-deb -f "$deb" Depends)"
echo "     Depends: $depends"
IFS=',' read -ra alternatives <<< "$depends"
for dependency in "${alternatives[@]}"; do
    package="$(sed -E 's/^ *([^ (]+).*/\1/' <<< "$dependency")"
    [[ "$package" =~ ^(libc6|libssl3|libssl3t64|libncursesw6|libtinfo6|libstdc\+\+6|libgcc-s1)$ ]] || fail "Depends names $package"
done
grep -q 'libssl3' <<< "$depends" && grep -q 'libncursesw6' <<< "$depends" || fail "Depends lacks OpenSSL 3 or ncursesw: $depends"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "the package's Version is $(dpkg-deb -f "$deb" Version)"
ok "Version $version; Depends only OpenSSL 3, ncursesw/tinfo, libc and the C++ runtime"
! dpkg -s receipt-explorer >/dev/null 2>&1 || fail "receipt-explorer is already installed here; remove it (dpkg -r receipt-explorer) before checking"
# Minimal images exclude /usr/share/man and /usr/share/doc from every package (dpkg.cfg.d); this
# package's own files are let through so the check sees what a full system gets.
dpkg --path-include='/usr/share/man/man1/receipt-explorer.1.gz' --path-include='/usr/share/doc/receipt-explorer/*' \
    -i "$deb" >/dev/null || fail "dpkg -i failed"
installed_package=true
ok "dpkg -i"
[ "$(command -v receipt-explorer)" = /usr/bin/receipt-explorer ] || fail "receipt-explorer on PATH is '$(command -v receipt-explorer)'"
out="$(receipt-explorer --version)"
[[ "$out" =~ ^receipt-explorer\ $version\ \( ]] || fail "receipt-explorer --version: '$out'"
ok "receipt-explorer --version: $out"
page="$(man -w receipt-explorer)" || fail "man -w receipt-explorer found nothing"
[ "$page" = /usr/share/man/man1/receipt-explorer.1.gz ] || fail "man -w receipt-explorer: $page"
man_text="$(MANWIDTH=80 man -P cat receipt-explorer 2>/dev/null | sed 's/.\x08//g')" || fail "man receipt-explorer failed"
grep -q "receipt-explorer $version" <<< "$man_text" || fail "the rendered man page does not show receipt-explorer $version"
ok "man -w receipt-explorer: $page (its footer: receipt-explorer $version)"
for completion in /usr/share/bash-completion/completions/receipt-explorer /usr/share/zsh/vendor-completions/_receipt-explorer \
    /usr/share/fish/vendor_completions.d/receipt-explorer.fish /usr/share/doc/receipt-explorer/copyright; do
    [ -s "$completion" ] || fail "$completion is missing"
done
bash -c 'source /usr/share/bash-completion/completions/receipt-explorer && complete -p receipt-explorer' | grep -q 'receipt-explorer$' ||
    fail "the bash completion does not register a completion for receipt-explorer"
ok "bash, zsh and fish completions and the copyright file in place (bash registers: complete -p receipt-explorer)"
# The files dpkg says it installed are exactly the package's own (its directories aside).
mapfile -t package_files < <(dpkg -L receipt-explorer)
files=()
for path in "${package_files[@]}"; do [ -d "$path" ] || files+=("$path"); done
in_package="$(dpkg-deb --fsys-tarfile "$deb" | tar -t | grep -v '/$' | sed 's|^\./|/|' | LC_ALL=C sort)"
[ "$(printf '%s\n' "${files[@]}" | LC_ALL=C sort)" = "$in_package" ] || fail "dpkg -L lists ${files[*]}; the package holds $in_package"
dpkg -r receipt-explorer >/dev/null || fail "dpkg -r failed"
installed_package=false
for path in "${files[@]}"; do [ ! -e "$path" ] || fail "$path is still there after dpkg -r"; done
! dpkg -s receipt-explorer 2>/dev/null | grep -q '^Status: install' || fail "dpkg still lists receipt-explorer as installed"
ok "dpkg -r removed all ${#files[@]} files dpkg -L listed: ${files[*]}"

echo "== the formula and the source archive"
[ -f "$formula" ] || fail "no $formula"
ruby -c "$formula" >/dev/null || fail "ruby -c $formula"
ok "ruby -c Formula/receipt-explorer.rb: Syntax OK"
url="$(sed -nE 's/^  url "(.*)"$/\1/p' "$formula")"
sha="$(sed -nE 's/^  sha256 "(.*)"$/\1/p' "$formula")"
[ "$(basename "$url")" = "receipt-explorer-$version.tar.gz" ] || fail "the formula's url is '$url'"
[ "$sha" = "$(sha256sum "$source_archive" | cut -d' ' -f1)" ] || fail "the formula's sha256 $sha is not the source archive's"
! grep -q '@[A-Z_]*@' "$formula" || fail "the formula still has a placeholder"
ok "url names receipt-explorer-$version.tar.gz ($url); sha256 $sha is the archive's"
case "$url" in file://*) cmp -s "${url#file://}" "$source_archive" || fail "the formula's file:// url is not the archive" ;; esac
# The archive is HEAD's, byte for byte: anyone can recompute the formula's checksum from the commit.
git archive --format=tar.gz --prefix="receipt-explorer-$version/" -o "$work/source.tar.gz" HEAD
cmp -s "$work/source.tar.gz" "$source_archive" || fail "git archive HEAD does not reproduce $(basename "$source_archive")"
ok "git archive HEAD reproduces the source archive byte for byte"
tar -xzf "$source_archive" -C "$work"
formula_ok=true
ruby Scripts/check-formula.rb "$formula" "$work/receipt-explorer-$version" "$binary" "$work/brew-prefix" > "$work/formula.log" 2>&1 || formula_ok=false
sed 's/^/     /' "$work/formula.log"
$formula_ok || fail "the formula's install or test do failed (Scripts/check-formula.rb)"
ok "the formula's install (from the source archive) and test do pass"

echo "check-release.sh: all checks passed for receipt-explorer $version in $outdir"
