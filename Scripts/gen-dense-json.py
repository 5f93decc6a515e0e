#!/usr/bin/env python3
"""Write dense hostile JSON (issue 32's memory bound): as many tiny values as the bytes allow.

    python3 Scripts/gen-dense-json.py OUT --size 5000000                  # [0,0,0,…]
    python3 Scripts/gen-dense-json.py OUT --size 5000000 --shape arrays   # [[],[],…]
    python3 Scripts/gen-dense-json.py OUT --size 5000000 --shape objects  # [{},{},…]
    python3 Scripts/gen-dense-json.py OUT --size 5000000 --shape strings  # ["","",…]
    python3 Scripts/gen-dense-json.py OUT --size 5000000 --shape dupkeys  # {"a":0,"a":0,…}
    python3 Scripts/gen-dense-json.py OUT --size 5000000 --shape deep     # [[[[…]]]]
    python3 Scripts/gen-dense-json.py OUT --size 5000000 --shape commas   # [0,,,,,…] (a finding a byte)
    python3 Scripts/gen-dense-json.py OUT --size 5000000 --jws            # any of them as a JWS payload
    python3 Scripts/gen-dense-json.py OUT --size 5000000 --storekit       # any of them in a StoreKit body

A plain JSON file holds no purchase data (it is read as text); `--storekit` wraps the value as
`{"signedTransactions":[],"x":…}`, a body naming a StoreKit key, which the tool reads as JSON.

Each value is a few bytes, so a reader without a node budget builds one node (tens of bytes) per
2–3 input bytes (docs/performance.md, "Dense JSON"). `--size` is the size of the JSON (before
base64url); the output is deterministic. Prints the byte count and the value count.
"""

from __future__ import annotations

import argparse
import base64
import sys

UNITS = {"numbers": b"0,", "arrays": b"[],", "objects": b"{},", "strings": b'"",', "dupkeys": b'"a":0,'}


def build(shape: str, size: int) -> tuple[bytes, int]:
    if shape in UNITS:
        unit = UNITS[shape]
        count = max(1, (size - 1) // len(unit))
        body = unit * count
        open_, close = (b"{", b"}") if shape == "dupkeys" else (b"[", b"]")
        return open_ + body[:-1] + close, count
    if shape == "deep":
        half = size // 2
        return b"[" * half + b"]" * half, half
    # commas: one value, then a comma a byte (an empty element each, diagnosed), then the closer.
    return b"[0" + b"," * (size - 3) + b"]", size - 3


def b64url(data: bytes) -> bytes:
    return base64.urlsafe_b64encode(data).rstrip(b"=")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--size", type=int, required=True, help="bytes of JSON to write (before base64url)")
    ap.add_argument("--shape", choices=["numbers", *list(UNITS)[1:], "deep", "commas"], default="numbers")
    ap.add_argument("--jws", action="store_true",
                    help="write header.payload.signature with the JSON as the payload (an ES256 header, no chain)")
    ap.add_argument("--storekit", action="store_true",
                    help='wrap the value as {"signedTransactions":[],"x":…} (a body the tool reads as JSON)')
    args = ap.parse_args()
    prefix, suffix = (b'{"signedTransactions":[],"x":', b"}") if args.storekit else (b"", b"")
    data, values = build(args.shape, args.size - len(prefix) - len(suffix))
    data = prefix + data + suffix
    if args.jws:
        header = b'{"alg":"ES256","x5c":["MA=="]}'
        out = b64url(header) + b"." + b64url(data) + b"." + b64url(bytes(64)) + b"\n"
    else:
        out = data + b"\n"
    with open(args.out, "wb") as f:
        f.write(out)
    print(f"{args.out}: {len(out)} bytes ({len(data)} JSON), {values} tiny values", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
