#!/usr/bin/env python3
"""Write dense hostile ASN.1 (issue 32's memory bound): as many tiny elements as the bytes allow.

    python3 Scripts/gen-dense.py OUT --size 5000000                    # SEQUENCE of 05 00 (flat)
    python3 Scripts/gen-dense.py OUT --size 5000000 --shape indefinite # 30 80 … 05 00 … 00 00
    python3 Scripts/gen-dense.py OUT --size 5000000 --shape nested     # SEQUENCE of 30 02 05 00
    python3 Scripts/gen-dense.py OUT --size 5000000 --shape receipt    # PKCS#7 whose payload SET holds 30 00
    python3 Scripts/gen-dense.py OUT --size 5000000 --base64           # any of them as base64 text

Every element is 2 bytes (an empty NULL or SEQUENCE), so the parser builds one 16-byte node per 2
input bytes unless it bounds the nodes (docs/performance.md, "Dense ASN.1"). `--size` is the size of
the DER (before base64); the output is deterministic. Prints the byte count and the element count.
"""

from __future__ import annotations

import argparse
import base64
import sys

from der import der_length, oid, tlv


def long_form(tag: int, content: bytes) -> bytes:
    """A header with a 4-octet length, whatever the content's size (the size stays predictable)."""
    return bytes([tag, 0x84]) + len(content).to_bytes(4, "big") + content


def build(shape: str, size: int) -> tuple[bytes, int]:
    if shape == "flat":
        pairs = (size - 6) // 2
        return long_form(0x30, b"\x05\x00" * pairs), pairs
    if shape == "indefinite":
        pairs = (size - 4) // 2
        return b"\x30\x80" + b"\x05\x00" * pairs + b"\x00\x00", pairs
    if shape == "nested":
        quads = (size - 6) // 4
        return long_form(0x30, b"\x30\x02\x05\x00" * quads), 2 * quads
    # A receipt's shape (ContentInfo → SignedData → the data ContentInfo → OCTET STRING → SET),
    # unsigned, whose payload SET holds empty SEQUENCEs where attributes go.
    overhead = 6 * 5 + 2 * 4 + 11 + 11 + 3
    pairs = max(0, (size - overhead) // 2)
    payload = long_form(0x31, b"\x30\x00" * pairs)
    content = long_form(0x30, oid("1.2.840.113549.1.7.1") + long_form(0xA0, long_form(0x04, payload)))
    signed = long_form(0x30, tlv(0x02, b"\x01") + b"\x31\x00" + content + b"\x31\x00")
    return long_form(0x30, oid("1.2.840.113549.1.7.2") + long_form(0xA0, signed)), pairs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--size", type=int, required=True, help="bytes of DER to write (before base64)")
    ap.add_argument("--shape", choices=["flat", "indefinite", "nested", "receipt"], default="flat")
    ap.add_argument("--base64", action="store_true", help="write the DER as one line of base64")
    args = ap.parse_args()
    data, elements = build(args.shape, args.size)
    out = base64.b64encode(data) + b"\n" if args.base64 else data
    with open(args.out, "wb") as f:
        f.write(out)
    print(f"{args.out}: {len(out)} bytes ({len(data)} DER), {elements} tiny elements", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
