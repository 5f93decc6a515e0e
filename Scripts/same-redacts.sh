#!/usr/bin/env bash
# Compares two builds' `redact --seed same` byte for byte: the copy, the summary, the exit status and
# the --mapping file, for every file of samples/ and the shared corpus, data pasted in text (a log
# line with a token, one with a receipt, a curl body with a password, a JSON log object), and any
# FILE given, each with no option, --keep transaction-id, --bundle-id and
# --keep bundle-id --keep app-apple-id --keep password; and one run of every sample receipt and
# token together into a directory. A change meant to leave redact's results alone (a memory bound)
# must print the same.
#
#   Scripts/same-redacts.sh OLD_BINARY NEW_BINARY [CORPUS_DIR] [FILE...]
# Prints each differing run, then "compared N redact runs, M differ"; exit status 1 when any differ.
set -uo pipefail
old=${1:?usage: same-redacts.sh OLD NEW [CORPUS_DIR] [FILE...]}
new=${2:?usage: same-redacts.sh OLD NEW [CORPUS_DIR] [FILE...]}
old=$(realpath "$old"); new=$(realpath "$new")
corpus=$(realpath "${3:-$(dirname "$0")/../../shared/corpus}")
extra=()
for f in "${@:4}"; do extra+=("$(realpath "$f")"); done
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir "$work/paste"
token=$(cat samples/jws/transaction.jws)
receipt=$(base64 -w0 samples/typical.receipt)
printf '2026-03-01T10:00:00Z INFO [verify] signedTransaction=%s status=ok\n' "$token" > "$work/paste/log-token.txt"
printf 'Mar  1 10:00:00 app[42]: receipt %s (sandbox)\n' "$receipt" > "$work/paste/log-receipt.txt"
printf "txn 2000000510000004 bundle=com.example.receiptexplorer: curl -d 'password=s3cretpass&jws=%s' https://example.com/verify\n" \
    "$token" > "$work/paste/curl-token.txt"
printf '{"level":"info","transaction_id":"2000000510000004","latest_receipt":"%s","password":"abcdef123456"}\n' \
    "$receipt" > "$work/paste/json-log.txt"

# One run of BIN into $work/B.{out,err,rc,map}; the mapping is written to one path for both builds
# (the summary names it).
run() {
    local b=$1; shift
    "${!b}" redact --seed same "$@" > "$work/$b.out" 2> "$work/$b.err"
    echo $? > "$work/$b.rc"
    if [[ -e "$work/m.map" ]]; then mv "$work/m.map" "$work/$b.map"; else rm -f "$work/$b.map"; fi
}
same() { cmp -s "$work/old.$1" "$work/new.$1" || { [[ ! -e "$work/old.$1" && ! -e "$work/new.$1" ]]; }; }

n=0; bad=0
options=("" "--keep transaction-id" "--bundle-id" "--keep bundle-id --keep app-apple-id --keep password")
while IFS= read -r f; do
    for o in "${options[@]}"; do
        # shellcheck disable=SC2086
        run old $o --mapping "$work/m.map" -o - "$f"
        # shellcheck disable=SC2086
        run new $o --mapping "$work/m.map" -o - "$f"
        n=$((n + 1))
        if ! same out || ! same err || ! same rc || ! same map; then
            bad=$((bad + 1)); echo "differs: redact $o $f"; diff "$work/old.err" "$work/new.err" | head -6
        fi
    done
done < <(find samples "$corpus" "$work/paste" -type f ! -name '*.md' 2>/dev/null | sort; printf '%s\n' "${extra[@]}")

for b in old new; do
    run "$b" --mapping "$work/m.map" -o "$work/copies" samples/*.receipt samples/jws/*.jws
    mv "$work/copies" "$work/copies-$b"
done
n=$((n + 1))
if ! diff -r "$work/copies-old" "$work/copies-new" >/dev/null || ! same out || ! same err || ! same rc || ! same map; then
    bad=$((bad + 1)); echo "differs: redact of every sample receipt and token together"
fi
echo "compared $n redact runs, $bad differ"
[[ $bad -eq 0 ]]
