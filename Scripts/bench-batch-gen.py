#!/usr/bin/env python3
"""Inputs for Scripts/bench-batch.sh: N TEST-signed notifications and N TEST-signed receipts, one per line.

    python3 Scripts/bench-batch-gen.py OUTDIR [--count N]

Writes OUTDIR/notifications.txt (a DID_RENEW signedPayload per line, each with its own nested
signedTransactionInfo and signedRenewalInfo, every token signed ES256 by the samples' TEST EC PKI)
and OUTDIR/receipts.txt (a base64 PKCS#7 receipt per line: samples/typical.receipt's payload with
its transaction ids made unique, signed by the samples' TEST RSA PKI without signed attributes, as
Scripts/generate-samples.py signs its receipts). Everything is built with generate-samples.py's own
encoders and keys; nothing here is Apple's and nothing is secret.
"""
from __future__ import annotations

import argparse
import base64
import dataclasses
import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("generate_samples", HERE / "generate-samples.py")
gen = importlib.util.module_from_spec(spec)
sys.modules["generate_samples"] = gen  # dataclasses look their module up there
spec.loader.exec_module(gen)


def notifications(count: int) -> list[str]:
    certs = gen.ec_certificates(gen.PKI)
    header = gen.apple_header(certs)
    lines = []
    for n in range(count):
        txn_id = f"{3000000000000000 + n}"
        txn = gen.transaction_payload(txn_id, f"{gen.BUNDLE}.monthly", 1708430400000 + n * 1000)
        token, _ = gen.sign_jws(header, gen.compact(txn), "ec-signer", certs, gen.PKI)
        renewal, _ = gen.sign_jws(header, gen.compact(gen.renewal_payload()), "ec-signer", certs, gen.PKI)
        body = {"notificationType": "DID_RENEW", "notificationUUID": f"3f0c6b1e-8d2a-4c5b-9e7f-{n:012d}",
                "data": {"appAppleId": gen.APP_ID, "bundleId": gen.BUNDLE, "bundleVersion": "231",
                         "environment": "Sandbox", "signedTransactionInfo": token.decode(),
                         "signedRenewalInfo": renewal.decode(), "status": 1},
                "version": "2.0", "signedDate": gen.SIGNED_MS}
        note, _ = gen.sign_jws(header, gen.compact(body), "ec-signer", certs, gen.PKI)
        lines.append(note.decode())
    return lines


def receipts(count: int) -> list[str]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.serialization import pkcs7

    load = lambda name: x509.load_pem_x509_certificate(gen.cert_path(gen.PKI, name).read_bytes())
    signer, chain = load("receipt-signer"), [load(c) for c in gen.APPLE_CHAIN]
    key = serialization.load_pem_private_key(gen.key_path(gen.PKI, "receipt-signer").read_bytes(), password=None)
    template = gen.typical_receipt()
    lines = []
    for n in range(count):
        purchases = [dataclasses.replace(p, transaction_id=f"{4000000000000000 + n * 100 + i}")
                     for i, p in enumerate(template.purchases)]
        payload = dataclasses.replace(template, purchases=purchases).payload()
        builder = pkcs7.PKCS7SignatureBuilder().set_data(payload).add_signer(signer, key, hashes.SHA256())
        for c in chain:
            builder = builder.add_certificate(c)
        der = builder.sign(serialization.Encoding.DER, [pkcs7.PKCS7Options.Binary, pkcs7.PKCS7Options.NoAttributes])
        lines.append(base64.b64encode(der).decode())
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--count", type=int, default=10000)
    args = ap.parse_args()
    args.outdir.mkdir(parents=True, exist_ok=True)
    (args.outdir / "notifications.txt").write_text("\n".join(notifications(args.count)) + "\n")
    (args.outdir / "receipts.txt").write_text("\n".join(receipts(args.count)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
