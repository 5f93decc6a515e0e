#!/usr/bin/env python3
"""Write a StoreKit 2 transaction history response with N signed transactions (benchmark input).

    python3 Scripts/gen-history.py OUT.json [--transactions 1000]

The same shape as samples/jws/transaction-history.json (an App Store Server API
`{"signedTransactions": [...]}` body), each token an ES256 JWS signed by the samples' TEST EC PKI
(samples/pki, x5c signer <- intermediate <- root) with deterministic (RFC 6979) signatures, so the
file is byte-identical from run to run. It reuses generate-samples.py's signing helpers; it needs the
`cryptography` package like the JWS samples do. TEST data only: never Apple-signed.
"""
import argparse
import importlib.util
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def samples_module():
    spec = importlib.util.spec_from_file_location("generate_samples", HERE / "generate-samples.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["generate_samples"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def history(n: int) -> bytes:
    g = samples_module()
    certs = g.ec_certificates(g.PKI)
    header = g.apple_header(certs)
    day_ms = 86_400_000
    tokens = []
    for i in range(n):
        # Distinct ids and dates, one a day going back from the samples' purchase date.
        payload = g.transaction_payload(str(2000000510000004 + i), f"{g.BUNDLE}.monthly", 1708430400000 - i * day_ms)
        token, _ = g.sign_jws(header, g.compact(payload), "ec-signer", certs, g.PKI)
        tokens.append(token.decode())
    body = {"revision": f"1709294400000_{2000000510000004 + n - 1}", "bundleId": g.BUNDLE, "appAppleId": g.APP_ID,
            "environment": "Sandbox", "hasMore": False, "signedTransactions": tokens}
    return (json.dumps(body, indent=2) + "\n").encode()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--transactions", type=int, default=1000)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    data = history(args.transactions)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    if not args.quiet:
        print(f"wrote {args.out} ({len(data):,} bytes, {args.transactions} transactions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
