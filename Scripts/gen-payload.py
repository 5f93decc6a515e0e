#!/usr/bin/env python3
"""Write a large DER file shaped like an App Store receipt payload, for benchmarks.

    python3 Scripts/gen-payload.py OUT                      # default: 14,200 purchases, 5.29 MB (5.04 MiB), 1.28 M nodes
    python3 Scripts/gen-payload.py OUT --purchases 10000    # a given number of in-app purchases
    python3 Scripts/gen-payload.py OUT --nodes 1000000      # exactly this many nodes (the UI benchmark)
    python3 Scripts/gen-payload.py OUT --layout flat        # same content, no OCTET STRING wrappers

Shape (the payload inside a receipt's signed content, see GUIDE.md §3):

    SET OF                                  -- top level, DER order
      SEQUENCE { INTEGER type, INTEGER version, OCTET STRING value }
      ...                                   -- app attributes 0..25 (receipt type, bundle id, dates, …)
      SEQUENCE { INTEGER 17, INTEGER 1, OCTET STRING {     -- one per in-app purchase
          SET OF SEQUENCE { INTEGER 1701.., INTEGER 1, OCTET STRING { value } } }}

Each in-app purchase carries the 17 attributes a real Apple sandbox receipt has (1701-1721, with the
empty Apple-private ones), so it is about 400 bytes and 90 nodes, like the real receipts in
../shared/corpus. "Nodes" are counted the way receipt-explorer's parser counts them: every TLV,
including the values inside OCTET STRINGs (which the parser recognises as encapsulated ASN.1).
`openssl asn1parse` does not descend into OCTET STRINGs, so it prints fewer lines (the in-app
purchase SETs appear as hex dumps); dumpasn1 does descend.

`--layout flat` writes the same attributes with each value placed directly in the SEQUENCE instead
of inside an OCTET STRING, so that every tool, openssl included, walks every node.

The output is deterministic (no randomness, no clock): the same arguments give the same bytes.
The script prints the byte count, the node count and the line counts each tool is expected to print.
"""

from __future__ import annotations

import argparse
import hashlib
import sys

from der import ia5, integer, octets, set_of, tlv, utf8  # the one DER encoder


def looks_like_one_element(b: bytes) -> bool:
    """The parser's pre-check for guessing encapsulated ASN.1 (Parser/Encapsulation.swift)."""
    if len(b) < 2 or b[0] == 0:
        return False
    p = 1
    if b[0] & 0x1F == 0x1F:
        while p < len(b) and b[p] & 0x80:
            p += 1
        p += 1
    if p >= len(b):
        return False
    lo = b[p]
    p += 1
    if lo == 0x80:
        return bool(b[0] & 0x20)
    if lo < 0x80:
        return p + lo == len(b)
    n = lo & 0x7F
    if n > 8 or p + n > len(b):
        return False
    return p + n + int.from_bytes(b[p:p + n], "big") == len(b)


def opaque_bytes(seed: str, size: int) -> bytes:
    """Deterministic pseudo-random bytes that never look like one ASN.1 element (so the node count
    is exact: the parser's encapsulation guess skips them)."""
    counter = 0
    while True:
        out = b""
        while len(out) < size:
            out += hashlib.sha256(f"{seed}/{counter}/{len(out)}".encode()).digest()
        out = out[:size]
        if not looks_like_one_element(out):
            return out
        counter += 1


# ---------------------------------------------------------------------------------------------
# Attributes. An attribute is (type, version, value TLV or raw bytes); `raw` values are opaque.
# ---------------------------------------------------------------------------------------------


class Attribute:
    __slots__ = ("type", "version", "value", "raw")

    def __init__(self, type_: int, value: bytes, version: int = 1, raw: bool = False):
        self.type = type_
        self.version = version
        self.value = value
        self.raw = raw

    def encode(self, layout: str) -> bytes:
        if layout == "flat" and not self.raw:
            inner = self.value
        else:
            inner = octets(self.value)
        return tlv(0x30, integer(self.type) + integer(self.version) + inner)

    def nodes(self, layout: str) -> int:
        """Nodes in the parser's tree: SEQUENCE, 2 INTEGERs, the value (and the OCTET STRING)."""
        value_nodes = 0 if self.raw else count_nodes(self.value)
        return 3 + value_nodes + (1 if (layout == "receipt" or self.raw) else 0)

    def openssl_lines(self, layout: str) -> int:
        """Lines `openssl asn1parse -i` prints: it never descends into an OCTET STRING."""
        if layout == "receipt" or self.raw:
            return 4
        return 3 + count_nodes(self.value)


def count_nodes(der: bytes) -> int:
    """Counts the TLVs in a DER encoding made by this script (recursing into SET and SEQUENCE, and
    into OCTET STRINGs that hold one element, as the parser does)."""
    total = 0
    p = 0
    while p < len(der):
        tag = der[p]
        lo = der[p + 1]
        if lo < 0x80:
            length, header = lo, 2
        else:
            n = lo & 0x7F
            length, header = int.from_bytes(der[p + 2:p + 2 + n], "big"), 2 + n
        content = der[p + header:p + header + length]
        total += 1
        if tag & 0x20:
            total += count_nodes(content)
        elif tag == 0x04 and looks_like_one_element(content):
            total += count_nodes(content)
        p += header + length
    return total


def date(seconds: int) -> str:
    """RFC 3339 in UTC, computed without the clock or time zone database (deterministic)."""
    days, rem = divmod(seconds, 86400)
    # Civil-from-days (Howard Hinnant's algorithm), day 0 = 1970-01-01.
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    y += m <= 2
    return f"{y:04d}-{m:02d}-{d:02d}T{rem // 3600:02d}:{rem // 60 % 60:02d}:{rem % 60:02d}Z"


BASE_TIME = 1_478_663_322  # 2016-11-09T03:48:42Z, like the 120-purchase sandbox receipt
PRODUCTS = [
    "com.example.bench.pro.subscription.monthly",
    "com.example.bench.pro.subscription.yearly",
    "com.example.bench.consumable.coins100",
    "com.example.bench.nonconsumable.themepack",
]


def purchase(i: int) -> list[Attribute]:
    """The 17 attributes of one in-app purchase, as in a real sandbox receipt."""
    product = PRODUCTS[i % len(PRODUCTS)]
    subscription = i % len(PRODUCTS) < 2
    bought = BASE_TIME + i * 300
    original = BASE_TIME + (i // 12) * 3600
    txn = 1_000_000_248_850_692 + i
    attrs = [
        Attribute(1701, integer(1)),                                    # quantity
        Attribute(1702, utf8(product)),                                 # product id
        Attribute(1703, utf8(str(txn))),                                # transaction id
        Attribute(1704, ia5(date(bought))),                             # purchase date
        Attribute(1705, utf8(str(1_000_000_248_850_692 + i // 12))),    # original transaction id
        Attribute(1706, ia5(date(original))),                           # original purchase date
        Attribute(1707, integer(3 if subscription else 1)),             # product type (private)
        Attribute(1708, ia5(date(bought + 300) if subscription else "")),  # expires date
        Attribute(1709, utf8("")),                                      # Apple-private, empty
        Attribute(1711, integer(1_000_000_033_000_000 + i)),            # web order line item id
        Attribute(1712, ia5("")),                                       # cancellation date (absent)
        Attribute(1713, integer(1 if i % 97 == 0 else 0)),              # is trial period
        Attribute(1714, utf8("")),                                      # Apple-private, empty
        Attribute(1715, utf8("")),
        Attribute(1716, utf8("")),
        Attribute(1719, integer(0)),                                    # is in intro offer period
        Attribute(1721, utf8("")),                                      # promotional offer id
    ]
    return attrs


def app_attributes() -> list[Attribute]:
    return [
        Attribute(0, utf8("ProductionSandbox")),
        Attribute(1, integer(0)),
        Attribute(2, utf8("com.example.bench")),
        Attribute(3, utf8("1445")),
        Attribute(4, opaque_bytes("opaque", 16), version=2, raw=True),
        Attribute(5, opaque_bytes("sha1", 20), raw=True),
        Attribute(8, ia5(date(BASE_TIME - 86400))),
        Attribute(10, ia5("4+")),
        Attribute(11, integer(0)),
        Attribute(12, ia5(date(BASE_TIME + 86400 * 400))),
        Attribute(13, integer(90561)),
        Attribute(14, integer(0)),
        Attribute(16, integer(0)),
        Attribute(18, ia5(date(BASE_TIME - 86400 * 900))),
        Attribute(19, utf8("1.0")),
        Attribute(25, integer(3)),
    ]


def padding(count5: int, count4: int) -> list[Attribute]:
    """Unlisted (Apple-private) attributes that bring the node count to an exact target:
    `count5` with an encapsulated value (5 nodes each), `count4` with opaque bytes (4 nodes)."""
    out = [Attribute(1000 + k, integer(k)) for k in range(count5)]
    out += [Attribute(2000 + k, opaque_bytes(f"pad{k}", 8), raw=True) for k in range(count4)]
    return out


def build(purchases: int, extra: list[Attribute], layout: str) -> tuple[bytes, int, int]:
    top = app_attributes() + extra
    items = [a.encode(layout) for a in top]
    nodes = 1 + sum(a.nodes(layout) for a in top)
    openssl = 1 + sum(a.openssl_lines(layout) for a in top)
    for i in range(purchases):
        inner = purchase(i)
        inner_set = set_of([a.encode(layout) for a in inner])
        wrapper = Attribute(17, inner_set)
        items.append(wrapper.encode(layout))
        nodes += 4 + 1 + sum(a.nodes(layout) for a in inner)  # SEQ, INT, INT, (OCTET), SET, children
        if layout == "flat":
            nodes -= 1
            openssl += 4 + sum(a.openssl_lines(layout) for a in inner)
        else:
            openssl += 4
    return set_of(items), nodes, openssl


def per_purchase_nodes(layout: str) -> int:
    return (4 if layout == "flat" else 5) + sum(a.nodes(layout) for a in purchase(0))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="output file")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--purchases", type=int, help="number of in-app purchases (default 14,200)")
    group.add_argument("--nodes", type=int, help="exact total node count (padded with unlisted attributes)")
    ap.add_argument("--layout", choices=["receipt", "flat"], default="receipt",
                    help="receipt: values inside OCTET STRINGs (default); flat: values directly in the SEQUENCE")
    ap.add_argument("--quiet", action="store_true", help="print nothing")
    args = ap.parse_args()

    extra: list[Attribute] = []
    if args.nodes is not None:
        base = 1 + sum(a.nodes(args.layout) for a in app_attributes())
        per = per_purchase_nodes(args.layout)
        if args.nodes < base + 9:
            ap.error(f"--nodes must be at least {base + 9}")
        purchases = (args.nodes - base - 8) // per
        rest = args.nodes - base - purchases * per  # 8 .. per+7, made of 5s and 4s
        count4 = 0
        while (rest - 4 * count4) % 5 != 0:
            count4 += 1
        extra = padding((rest - 4 * count4) // 5, count4)
    else:
        purchases = 14_200 if args.purchases is None else args.purchases
    if purchases < 0:
        ap.error("the number of purchases must not be negative")

    der, nodes, openssl_lines = build(purchases, extra, args.layout)
    if args.nodes is not None and nodes != args.nodes:
        print(f"internal error: built {nodes} nodes, wanted {args.nodes}", file=sys.stderr)
        return 1
    with open(args.out, "wb") as f:
        f.write(der)
    if not args.quiet:
        print(f"{args.out}: {len(der)} bytes, {nodes} nodes, {purchases} purchases, layout {args.layout}, "
              f"openssl-lines {openssl_lines}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
