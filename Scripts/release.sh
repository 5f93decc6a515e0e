#!/usr/bin/env bash
# Builds a release of receipt-explorer into OUTDIR: a Linux archive and a Debian package whose binary
# needs no Swift toolchain (the Swift runtime and FoundationEssentials are linked statically), the source
# archive, SHA-256 files, and the Homebrew formula for that source archive.
# Linux only, by design: it builds the Linux archive and the Debian package (GNU ld flags, dpkg,
# GNU date -d, sha256sum). The macOS build is the Homebrew formula's (docs/manual/platforms.md).
#
#   Scripts/release.sh [--base-url URL] [--homepage URL] [--allow-dirty] OUTDIR
#
# --base-url   where the source archive will be published; the formula's url is
#              URL/receipt-explorer-VERSION.tar.gz (default: file://OUTDIR, installable from there).
# --homepage   the formula's and the package's homepage (default: the base URL).
# --allow-dirty  build even when tracked files differ from HEAD (the source archive is HEAD's, the
#              binary the working tree's: for trying the script out, never for a published release).
#
# The version is the binary's own (`receipt-explorer --version`, ReceiptExplorer.version): the archive
# names, the package and the formula all take it from there. Scripts/check-release.sh checks OUTDIR.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: Scripts/release.sh [--base-url URL] [--homepage URL] [--allow-dirty] OUTDIR" >&2; exit 2; }
die() { echo "release.sh: $*" >&2; exit 1; }

base_url=""
homepage=""
allow_dirty=false
outdir=""
while (($# > 0)); do
    case "$1" in
        --base-url) (($# >= 2)) || usage; base_url="${2%/}"; shift 2 ;;
        --homepage) (($# >= 2)) || usage; homepage="$2"; shift 2 ;;
        --allow-dirty) allow_dirty=true; shift ;;
        -h|--help) usage ;;
        -*) echo "release.sh: unknown option '$1'" >&2; usage ;;
        *) [ -z "$outdir" ] || usage; outdir="$1"; shift ;;
    esac
done
[ -n "$outdir" ] || usage
for tool in git swift strip dpkg-deb dpkg-shlibdeps sha256sum gzip tar; do
    command -v "$tool" >/dev/null || die "needs $tool (apt: git, binutils, dpkg-dev, coreutils, gzip, tar)"
done

git rev-parse --is-inside-work-tree >/dev/null 2>&1 || die "the source archive is made with git archive: run it in a git checkout"
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    $allow_dirty || die "tracked files differ from HEAD, so the binary would not be built from the source archive; commit them (or pass --allow-dirty to try the script out)"
    echo "release.sh: WARNING: tracked files differ from HEAD; the source archive is HEAD's, the binary the working tree's" >&2
fi

mkdir -p "$outdir"
outdir="$(cd "$outdir" && pwd)"
base_url="${base_url:-file://$outdir}"
homepage="${homepage:-$base_url}"
started=$SECONDS

# 1. The binary, built as Scripts/release-build.sh says (and why).
source Scripts/release-build.sh
build=("${release_build[@]}")
echo "== ${build[*]}"
"${build[@]}" --product receipt-explorer
built="$("${build[@]}" --show-bin-path)/receipt-explorer"
build_seconds=$((SECONDS - started))

# 2. The version, from the binary: "receipt-explorer X.Y.Z (OpenSSL 3.0.19 27 Jan 2026)".
version="$("$built" --version | sed -nE '1s/^receipt-explorer ([0-9]+\.[0-9]+\.[0-9]+) \(.*\)$/\1/p')"
[ -n "$version" ] || die "cannot read a version from '$("$built" --version)'"
grep -Eq "^## $version - [0-9]{4}-[0-9]{2}-[0-9]{2}$" CHANGELOG.md || die "CHANGELOG.md has no '## $version - DATE' section"
grep -qx "\.Os receipt-explorer $version" docs/receipt-explorer.1 || die "docs/receipt-explorer.1 does not carry version $version: run Scripts/gen-manpage.sh"
echo "== receipt-explorer $version"

machine="$(uname -m)"
arch="$(dpkg --print-architecture)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Every archive entry gets HEAD's commit time and root ownership, so a rebuild differs only where the
# binary itself does.
epoch="$(git log -1 --format=%ct HEAD)"
deterministic_tar=(tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" --format=gnu)
checksum() { (cd "$outdir" && sha256sum "$1" > "$1.sha256"); }

# 3. The Linux archive, laid out as a prefix: `tar -xzf … --strip-components=1 -C ~/.local` installs it.
name="receipt-explorer-$version-linux-$machine"
root="$work/$name"
install -d "$root/bin" "$root/share/man/man1" "$root/share/doc/receipt-explorer" \
    "$root/share/bash-completion/completions" "$root/share/zsh/site-functions" "$root/share/fish/vendor_completions.d"
install -m 755 "$built" "$root/bin/receipt-explorer"
strip "$root/bin/receipt-explorer"
binary="$root/bin/receipt-explorer"
install -m 644 docs/receipt-explorer.1 "$root/share/man/man1/receipt-explorer.1"
# The completions come from the binary itself, so they always match it.
"$binary" --generate-completion-script bash > "$root/share/bash-completion/completions/receipt-explorer"
"$binary" --generate-completion-script zsh > "$root/share/zsh/site-functions/_receipt-explorer"
"$binary" --generate-completion-script fish > "$root/share/fish/vendor_completions.d/receipt-explorer.fish"
install -m 644 README.md LICENSE CHANGELOG.md "$root/share/doc/receipt-explorer/"
install -m 644 packaging/debian/copyright "$root/share/doc/receipt-explorer/copyright"
"${deterministic_tar[@]}" -C "$work" -cf - "$name" | gzip -9n > "$outdir/$name.tar.gz"
checksum "$name.tar.gz"
echo "== $outdir/$name.tar.gz"

# 4. The Debian package (dpkg-shlibdeps wants debian/control and the package tree in debian/PACKAGE).
deb_root="$work/deb/debian/receipt-explorer"
install -d "$deb_root/DEBIAN" "$deb_root/usr/bin" "$deb_root/usr/share/man/man1" "$deb_root/usr/share/doc/receipt-explorer" \
    "$deb_root/usr/share/bash-completion/completions" "$deb_root/usr/share/zsh/vendor-completions" \
    "$deb_root/usr/share/fish/vendor_completions.d"
install -m 755 "$binary" "$deb_root/usr/bin/receipt-explorer"
gzip -9n < docs/receipt-explorer.1 > "$deb_root/usr/share/man/man1/receipt-explorer.1.gz"
# bash-completion sources its scripts: Debian wants them without the #! line the generator writes.
sed '1{/^#!/d}' "$root/share/bash-completion/completions/receipt-explorer" > "$deb_root/usr/share/bash-completion/completions/receipt-explorer"
install -m 644 "$root/share/zsh/site-functions/_receipt-explorer" "$deb_root/usr/share/zsh/vendor-completions/_receipt-explorer"
install -m 644 "$root/share/fish/vendor_completions.d/receipt-explorer.fish" "$deb_root/usr/share/fish/vendor_completions.d/receipt-explorer.fish"
install -m 644 packaging/debian/copyright "$deb_root/usr/share/doc/receipt-explorer/copyright"
# A version without a Debian revision makes a native package, whose changelog.gz must be in
# Debian's format. One entry points to the upstream changelog, which keeps its own name.
release_date="$(sed -nE "s/^## $version - ([0-9]{4}-[0-9]{2}-[0-9]{2})$/\1/p" CHANGELOG.md)"
maintainer="${RELEASE_MAINTAINER:-$(git log -1 --format='%an <%ae>' HEAD)}"
printf '%s\n' "receipt-explorer ($version) unstable; urgency=medium" "" \
    "  * Release $version: see /usr/share/doc/receipt-explorer/CHANGELOG.md.gz." "" \
    " -- $maintainer  $(LC_ALL=C date -u -R -d "$release_date")" | gzip -9n > "$deb_root/usr/share/doc/receipt-explorer/changelog.gz"
gzip -9n < CHANGELOG.md > "$deb_root/usr/share/doc/receipt-explorer/CHANGELOG.md.gz"
chmod 644 "$deb_root/usr/share/man/man1/receipt-explorer.1.gz" "$deb_root/usr/share/doc/receipt-explorer/"*.gz \
    "$deb_root/usr/share/bash-completion/completions/receipt-explorer"
# Recommends libcurl4: the `api` commands load it with dlopen (so it is no NEEDED library); every other command runs without it.
# Depends: whatever the binary's NEEDED libraries resolve to, as dpkg-shlibdeps reads them from the
# installed packages' shlibs/symbols files (no hand-kept list that could drift from the link line),
# and the two libraries it loads with dlopen on every install that verifies or explores.
printf 'Source: receipt-explorer\n\nPackage: receipt-explorer\nArchitecture: %s\n' "$arch" > "$work/deb/debian/control"
depends="$(cd "$work/deb" && dpkg-shlibdeps -O -e"debian/receipt-explorer/usr/bin/receipt-explorer" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')"
[ -n "$depends" ] || die "dpkg-shlibdeps found no dependencies"
# libcrypto (loaded at the first signature check) and libncursesw (when the explorer starts) are
# loaded with dlopen on Linux (issue 32), so they are no NEEDED libraries either, but every install
# needs them: their packages come from the same shlibs files dpkg-shlibdeps reads, by soname.
for soname in "libcrypto 3" "libncursesw 6"; do
    # awk reads the files itself: `cat … | awk '…exit'` would end in SIGPIPE under pipefail.
    entry="$(awk -v want="$soname" '$1 " " $2 == want { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }' /var/lib/dpkg/info/*.shlibs)"
    [ -n "$entry" ] || die "no installed package's shlibs file names $soname (apt: libssl-dev, libncurses-dev)"
    depends="$depends, $entry"
done
# A file:// homepage (the default) means nothing on another machine: the field is left out then.
homepage_field=""
case "$homepage" in http://*|https://*) homepage_field="Homepage: $homepage"$'\n' ;; esac
(cd "$deb_root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$deb_root/DEBIAN/md5sums"
cat > "$deb_root/DEBIAN/control" <<EOF
Package: receipt-explorer
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$deb_root" | cut -f1)
Depends: $depends
Recommends: libcurl4
Section: utils
Priority: optional
${homepage_field}Description: explore, explain and verify App Store purchase data byte by byte
 receipt-explorer opens App Store receipts (PKCS#7, any DER/BER) and StoreKit 2
 signed data (JWS transactions, renewal info, notifications) and shows which
 bytes mean what: every element with its offset and length, every defect pinned
 to the bytes at fault, the decoded fields, and the signature and certificate
 checks. Commands: explore (a terminal UI), dump, explain, json, verify, diff
 and tour.
EOF
deb="receipt-explorer_${version}_$arch.deb"
SOURCE_DATE_EPOCH="$epoch" dpkg-deb --root-owner-group -Zxz --build "$deb_root" "$outdir/$deb" >/dev/null
checksum "$deb"
echo "== $outdir/$deb (Depends: $depends)"

# 5. The source archive: git archive of HEAD is byte-for-byte reproducible (entries carry the commit's
# time), so its checksum in the formula can be recomputed by anyone from the same commit.
source="receipt-explorer-$version.tar.gz"
git archive --format=tar.gz --prefix="receipt-explorer-$version/" -o "$outdir/$source" HEAD
checksum "$source"
echo "== $outdir/$source ($(git rev-parse HEAD))"

# 6. The formula: the committed one with its url, sha256 and homepage lines replaced.
source_sha="$(cut -d' ' -f1 "$outdir/$source.sha256")"
mkdir -p "$outdir/Formula"
URL="$base_url/$source" SHA="$source_sha" HOME_URL="$homepage" awk '
    /^  url "/ { print "  url \"" ENVIRON["URL"] "\""; n["url"]++; next }
    /^  sha256 "/ { print "  sha256 \"" ENVIRON["SHA"] "\""; n["sha256"]++; next }
    /^  homepage "/ { print "  homepage \"" ENVIRON["HOME_URL"] "\""; n["homepage"]++; next }
    { print }
    END { if (n["url"] != 1 || n["sha256"] != 1 || n["homepage"] != 1) exit 1 }
' Formula/receipt-explorer.rb > "$outdir/Formula/receipt-explorer.rb" ||
    die "Formula/receipt-explorer.rb must have exactly one url, sha256 and homepage line"
echo "== $outdir/Formula/receipt-explorer.rb (url $base_url/$source)"

echo "release.sh: receipt-explorer $version in $outdir (build ${build_seconds} s, all $((SECONDS - started)) s):"
(cd "$outdir" && ls -l "$name.tar.gz" "$deb" "$source" Formula/receipt-explorer.rb | awk '{ printf "  %12d  %s\n", $5, $9 }')
