"""The one DER encoder of the Python generators (generate-samples.py, gen-payload.py,
completeness.py, tui-timing.py). Each function returns a complete TLV as bytes, in DER: definite lengths in the
fewest octets, minimal INTEGERs, SET OF sorted by encoding unless asked otherwise.
"""

from __future__ import annotations

import datetime as dt

TAG_BOOLEAN, TAG_INTEGER, TAG_BIT_STRING, TAG_OCTET_STRING = 0x01, 0x02, 0x03, 0x04
TAG_NULL, TAG_OID, TAG_UTF8 = 0x05, 0x06, 0x0C
TAG_PRINTABLE, TAG_IA5, TAG_UTCTIME = 0x13, 0x16, 0x17
TAG_SEQUENCE, TAG_SET = 0x30, 0x31


def der_length(n: int) -> bytes:
    """Definite length in the fewest octets (short form below 128), as DER requires."""
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def tlv(tag: int, content: bytes) -> bytes:
    return bytes([tag]) + der_length(len(content)) + content


def integer(n: int) -> bytes:
    # Two's complement in the fewest octets: a leading 0x00 only when the top bit would be set.
    size = max(1, (n + (n < 0)).bit_length() // 8 + 1)
    return tlv(TAG_INTEGER, n.to_bytes(size, "big", signed=True))


def utf8(s: str | bytes) -> bytes:
    return tlv(TAG_UTF8, s if isinstance(s, bytes) else s.encode("utf-8"))


def ia5(s: str | bytes) -> bytes:
    return tlv(TAG_IA5, s if isinstance(s, bytes) else s.encode("ascii"))


def octets(b: bytes) -> bytes:
    return tlv(TAG_OCTET_STRING, b)


def null() -> bytes:
    return b"\x05\x00"


def boolean(v: bool) -> bytes:
    return tlv(TAG_BOOLEAN, b"\xff" if v else b"\x00")


def bit_string(b: bytes, unused_bits: int = 0) -> bytes:
    return tlv(TAG_BIT_STRING, bytes([unused_bits]) + b)


def oid(dotted: str) -> bytes:
    arcs = [int(a) for a in dotted.split(".")]
    body = bytearray()
    for arc in [arcs[0] * 40 + arcs[1]] + arcs[2:]:
        chunk = [arc & 0x7F]
        while arc > 0x7F:
            arc >>= 7
            chunk.append(0x80 | (arc & 0x7F))
        body += bytes(reversed(chunk))
    return tlv(TAG_OID, bytes(body))


def seq(*items: bytes) -> bytes:
    return tlv(TAG_SEQUENCE, b"".join(items))


def set_of(items: list[bytes], der_order: bool = True) -> bytes:
    """SET OF. DER orders the elements by their encodings (X.690 11.6); Xcode receipts don't.
    Python's bytes ordering is DER's except for equal-after-zero-padding pairs, which distinct TLVs
    never are."""
    return tlv(TAG_SET, b"".join(sorted(items) if der_order else items))


def explicit(n: int, inner: bytes) -> bytes:
    return tlv(0xA0 | n, inner)


def utc_time(when: dt.datetime) -> bytes:
    return tlv(TAG_UTCTIME, when.strftime("%y%m%d%H%M%SZ").encode())
