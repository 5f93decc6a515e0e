"""What the issue-32 benchmarks (bench-floor.sh, bench-line-profile.sh) share: the corpus's real
Apple-signed tokens, the signature checks each needs, and the floor they are judged against."""
import base64, glob, json, os, subprocess

TRANSACTION = "transaction-sandbox-com.app.qysmat-2023-03-27.jws"
NOTIFICATION = "notification-sandbox-com.loki-project.loki-messenger-2025-10-01-DID_RENEW.jws"


def corpus_tokens(corpus):
    """The real Apple-signed tokens of `corpus`/jws by file name. Xcode's are left out: their chain is
    a self-signed test certificate, not Apple's."""
    return {os.path.basename(p): open(p).read().strip()
            for p in sorted(glob.glob(f"{corpus}/jws/*.jws")) if "-xcode-" not in p}


def write_lines(path, tokens, count):
    """`count` lines at `path`, cycling `tokens`: a `verify --lines` input. Returns `path`."""
    with open(path, "w") as f:
        for i in range(count):
            f.write(tokens[i % len(tokens)] + "\n")
    return path


def payload(token):
    part = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def checks(token):
    """Signature checks a token needs: its own, and each nested token's."""
    data = payload(token).get("data", {})
    return 1 + sum(1 for key in ("signedTransactionInfo", "signedRenewalInfo") if key in data)


def verifies_per_second(seconds=3, processes=1):
    """P-256 verifies a second by OpenSSL on this machine now, over `processes` processes together:
    `openssl speed ecdsap256`, whose last column is verifies a second."""
    multi = ["-multi", str(processes)] if processes > 1 else []
    speed = subprocess.run(["openssl", "speed", "-seconds", str(seconds), *multi, "ecdsap256"],
                           capture_output=True, text=True).stdout
    row = [l for l in speed.splitlines() if "nistp256" in l and "ecdsa" in l][-1].split()
    return float(row[-1])


def verify_ms_now(seconds=3):
    """One P-256 verify by OpenSSL on this machine now, in ms."""
    return 1000.0 / verifies_per_second(seconds)
