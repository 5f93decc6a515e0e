#!/usr/bin/env python3
"""Generate receipt-explorer's committed, reproducible sample receipts.

    python3 Scripts/generate-samples.py            # (re)write samples/ and EmbeddedSample.swift
    python3 Scripts/generate-samples.py --check    # regenerate into a temp dir, fail on any difference
    python3 Scripts/generate-samples.py --large N  # write samples/generated/large-N.receipt only
    python3 Scripts/generate-samples.py --new-pki  # throw away the TEST PKI and make a new one

Receipts are built from Python's standard library plus the `openssl` command (OpenSSL 3.0); the
StoreKit 2 JWS samples (samples/jws/) also need the `cryptography` package (44 or later) for
deterministic RFC 6979 ECDSA signatures:

* The TEST PKI (samples/pki/) is shaped like Apple's: a root, a "WWDR-like" intermediate marked with
  1.2.840.113635.100.6.2.1 and receipt-signing leaves marked with 1.2.840.113635.100.6.11.1. Keys
  are made once by `openssl genpkey` and committed; the certificates are encoded here with the same
  DER encoder as the receipts and signed with `openssl dgst` (RSA PKCS#1 v1.5 is deterministic), so
  every extension is exactly what the code below says.
* Receipt payloads are encoded here; `openssl cms -sign -noattr` signs them. Without signed
  attributes there is no signing time, so the same payload and key give the same bytes every run.
* JWS samples are signed ES256 by the ECDSA half of the TEST PKI (P-384 root and intermediate, P-256
  leaves). Its keys are committed; its certificates are rebuilt from them every run (deterministic
  signatures make that reproducible). Each sample's expected verification steps go to manifest.json.
* Every defect in a malformed sample is placed by this script at an offset it computes and records
  in samples/manifest.json, which tests read instead of hard-coding numbers.

Nothing here is secret: the keys are TEST ONLY and exist to be published.
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import filecmp
import hashlib
import hmac
import json
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import timeline_samples
import apple_documents_samples as apple_documents
import developer_samples as developer
from der import (TAG_OCTET_STRING, TAG_PRINTABLE, TAG_SEQUENCE, TAG_SET, bit_string, boolean, der_length, explicit,
                 ia5, integer, null, octets, oid, seq, set_of, tlv, utc_time, utf8)

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "samples"
PKI = SAMPLES / "pki"
SWIFT_FILE = REPO / "Sources" / "receipt-explorer" / "EmbeddedSample.swift"
GENERATOR = "Scripts/generate-samples.py"

# The identifierForVendor every sample's device hash (attribute 5) is computed for.
DEVICE_ID = "A1B2C3D4-E5F6-4789-9ABC-DEF012345678"

OID_RECEIPT_SIGNER = "1.2.840.113635.100.6.11.1"
OID_WWDR_MARKER = "1.2.840.113635.100.6.2.1"

# The DER encoder is Scripts/der.py (shared with gen-payload.py and completeness.py).


# ---------------------------------------------------------------------------------------------
# A small BER reader, used only on this script's own output: to find where things landed (so the
# manifest can record offsets) and to check that the facts we write down are true.
# ---------------------------------------------------------------------------------------------


@dataclass
class Node:
    offset: int  # first identifier octet
    tag: int  # first identifier octet (every tag used here has a low number)
    header: int  # identifier + length octets
    content_start: int
    content_end: int  # exclusive; for indefinite lengths, the end-of-contents marker's offset
    end: int  # exclusive, end-of-contents included
    indefinite: bool
    children: list["Node"] = field(default_factory=list)

    @property
    def constructed(self) -> bool:
        return bool(self.tag & 0x20)

    def content(self, buf: bytes) -> bytes:
        return buf[self.content_start : self.content_end]


def read_node(buf: bytes, pos: int, limit: int) -> Node:
    tag = buf[pos]
    assert tag & 0x1F != 0x1F, "high tag numbers are not used by receipts"
    first = buf[pos + 1]
    if first == 0x80:
        node = Node(pos, tag, 2, pos + 2, 0, 0, True)
        cursor = node.content_start
        while buf[cursor : cursor + 2] != b"\x00\x00":
            child = read_node(buf, cursor, limit)
            node.children.append(child)
            cursor = child.end
        node.content_end, node.end = cursor, cursor + 2
        return node
    if first & 0x80:
        n = first & 0x7F
        length = int.from_bytes(buf[pos + 2 : pos + 2 + n], "big")
        header = 2 + n
    else:
        length, header = first, 2
    start = pos + header
    node = Node(pos, tag, header, start, start + length, start + length, False)
    if node.end > limit:
        raise ValueError(f"element at {pos} runs past {limit}")
    if node.constructed:
        cursor = start
        while cursor < node.end:
            child = read_node(buf, cursor, node.end)
            node.children.append(child)
            cursor = child.end
    return node


def parse(buf: bytes, start: int = 0) -> Node:
    return read_node(buf, start, len(buf))


def walk(node: Node):
    yield node
    for child in node.children:
        yield from walk(child)


# ---------------------------------------------------------------------------------------------
# openssl
# ---------------------------------------------------------------------------------------------


def openssl(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(["openssl", *args], capture_output=True)
    if check and proc.returncode != 0:
        raise RuntimeError(f"openssl {' '.join(args)} failed:\n{proc.stderr.decode(errors='replace')}")
    return proc


def pem_to_der(pem: str) -> bytes:
    body = "".join(l for l in pem.splitlines() if l and not l.startswith("-----"))
    return base64.b64decode(body)


def der_to_pem(der: bytes, label: str) -> str:
    b64 = base64.b64encode(der).decode()
    lines = [b64[i : i + 64] for i in range(0, len(b64), 64)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----\n"


# ---------------------------------------------------------------------------------------------
# The TEST PKI
# ---------------------------------------------------------------------------------------------

JAN_2015 = dt.datetime(2015, 1, 1, tzinfo=dt.timezone.utc)
JAN_2016 = dt.datetime(2016, 1, 1, tzinfo=dt.timezone.utc)
JAN_2045 = dt.datetime(2045, 1, 1, tzinfo=dt.timezone.utc)


@dataclass
class CertSpec:
    """One certificate of the TEST PKI. `issuer` is another spec's key (None: self-signed)."""

    key: str  # short name: files are test-only-<key>.key and test-<key>.pem
    cn: str
    issuer: str | None
    not_before: dt.datetime
    not_after: dt.datetime
    role: str  # "root", "intermediate", "leaf", "self-signed-signer"
    extra_extensions: list[tuple[str, bool, bytes]] = field(default_factory=list)
    purpose: str = ""


# Ordered so that every issuer comes before what it signs.
PKI_SPECS = [
    CertSpec("root", "receipt-explorer TEST Root CA", None, JAN_2015, JAN_2045, "root",
             purpose="Trust anchor: pass as --root. Plays Apple Inc. Root."),
    CertSpec("intermediate", "receipt-explorer TEST WWDR-like Intermediate", "root", JAN_2015, JAN_2045,
             "intermediate", [(OID_WWDR_MARKER, False, null())],
             purpose="Plays Apple Worldwide Developer Relations; carries the WWDR marker extension."),
    CertSpec("receipt-signer", "receipt-explorer TEST Receipt Signing", "intermediate", JAN_2015, JAN_2045,
             "leaf", [(OID_RECEIPT_SIGNER, False, null())],
             purpose="Signs the valid samples; carries the receipt-signing extension."),
    CertSpec("no-receipt-oid", "receipt-explorer TEST Signer without receipt OID", "intermediate",
             JAN_2015, JAN_2045, "leaf",
             purpose="Chains to the root but lacks the receipt-signing extension."),
    CertSpec("expired-signer", "receipt-explorer TEST Receipt Signing (expired 2016)", "intermediate",
             JAN_2015, JAN_2016, "leaf", [(OID_RECEIPT_SIGNER, False, null())],
             purpose="Receipt signer valid 2015-01-01..2016-01-01 only."),
    # Like Xcode's StoreKit Testing certificate: self-signed, CA:TRUE, code-signing EKU, no Apple OIDs.
    CertSpec("storekit", "receipt-explorer TEST StoreKit Testing", None,
             dt.datetime(2020, 4, 1, tzinfo=dt.timezone.utc), dt.datetime(2040, 3, 27, tzinfo=dt.timezone.utc),
             "self-signed-signer", purpose="Signs xcode-ber.receipt and is its own anchor, like Xcode's."),
]


def key_path(pki: Path, spec_key: str) -> Path:
    return pki / f"test-only-{spec_key}.key"


def cert_path(pki: Path, spec_key: str) -> Path:
    return pki / f"test-{spec_key}.pem"


def name(cn: str) -> bytes:
    rdn = lambda attr_oid, value: set_of([seq(oid(attr_oid), value)])
    return seq(
        rdn("2.5.4.6", tlv(TAG_PRINTABLE, b"US")),
        rdn("2.5.4.10", utf8("receipt-explorer TEST")),
        rdn("2.5.4.11", utf8("TEST ONLY - not Apple")),
        rdn("2.5.4.3", utf8(cn)),
    )


def extension(ext_oid: str, critical: bool, value: bytes) -> bytes:
    return seq(oid(ext_oid), *([boolean(True)] if critical else []), octets(value))


def subject_key_id(spki_der: bytes) -> bytes:
    # RFC 5280 4.2.1.2 method (1): SHA-1 of the subjectPublicKey BIT STRING's bits.
    spki = parse(spki_der)
    bits = spki.children[1].content(spki_der)[1:]
    return hashlib.sha1(bits).digest()


def build_certificate(spec: CertSpec, spki_der: bytes, issuer_spec: CertSpec, issuer_spki: bytes,
                      issuer_key: Path, sig_alg: bytes | None = None, sign_tbs=None) -> bytes:
    """`sig_alg` / `sign_tbs` (AlgorithmIdentifier, tbs -> signature) default to RSA via openssl dgst."""
    ski, aki = subject_key_id(spki_der), subject_key_id(issuer_spki)
    if spec.role in ("root", "self-signed-signer"):
        basic = seq(boolean(True))
    elif spec.role == "intermediate":
        basic = seq(boolean(True), integer(0))
    else:
        basic = seq()  # CA:FALSE is the default, so DER leaves it out
    key_usage = {
        "root": bit_string(b"\x06", 1),  # keyCertSign, cRLSign
        "intermediate": bit_string(b"\x06", 1),
        "leaf": bit_string(b"\x80", 7),  # digitalSignature
        "self-signed-signer": bit_string(b"\x84", 2),  # digitalSignature, keyCertSign
    }[spec.role]
    extensions = [
        extension("2.5.29.19", True, basic),
        extension("2.5.29.15", True, key_usage),
        extension("2.5.29.14", False, octets(ski)),
        extension("2.5.29.35", False, seq(tlv(0x80, aki))),
    ]
    if spec.role == "self-signed-signer":
        extensions.append(extension("2.5.29.37", True, seq(oid("1.3.6.1.5.5.7.3.3"))))  # codeSigning
    extensions += [extension(o, c, v) for o, c, v in spec.extra_extensions]
    # A stable, positive serial derived from the certificate's name.
    serial = int.from_bytes(hashlib.sha256(b"receipt-explorer test serial " + spec.key.encode()).digest()[:12], "big") >> 1
    sha256_rsa = sig_alg or seq(oid("1.2.840.113549.1.1.11"), null())
    tbs = seq(
        explicit(0, integer(2)),
        integer(serial),
        sha256_rsa,
        name(issuer_spec.cn),
        seq(utc_time(spec.not_before), utc_time(spec.not_after)),
        name(spec.cn),
        spki_der,
        explicit(3, seq(*extensions)),
    )
    if sign_tbs is not None:
        return seq(tbs, sha256_rsa, bit_string(sign_tbs(tbs)))
    with tempfile.TemporaryDirectory() as tmp:
        tbs_file = Path(tmp) / "tbs.der"
        tbs_file.write_bytes(tbs)
        signature = openssl("dgst", "-sha256", "-sign", str(issuer_key), str(tbs_file)).stdout
    return seq(tbs, sha256_rsa, bit_string(signature))


def public_key(key_file: Path) -> bytes:
    return openssl("pkey", "-in", str(key_file), "-pubout", "-outform", "DER").stdout


def make_pki(pki: Path) -> None:
    """Make new RSA 2048 keys and certificates. Only with --new-pki or when files are missing."""
    pki.mkdir(parents=True, exist_ok=True)
    specs = {s.key: s for s in PKI_SPECS}
    for spec in PKI_SPECS:
        openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048",
                "-out", str(key_path(pki, spec.key)))
    for spec in PKI_SPECS:
        issuer = specs[spec.issuer] if spec.issuer else spec
        der = build_certificate(spec, public_key(key_path(pki, spec.key)), issuer,
                                public_key(key_path(pki, issuer.key)), key_path(pki, issuer.key))
        cert_path(pki, spec.key).write_text(der_to_pem(der, "CERTIFICATE"))
    # DER copies of the two anchors, for --root.
    for anchor in ("root", "storekit"):
        (pki / f"test-{anchor}.cer").write_bytes(pem_to_der(cert_path(pki, anchor).read_text()))
    write_pki_readme(pki)


def pki_complete(pki: Path) -> bool:
    needed = [key_path(pki, s.key) for s in PKI_SPECS] + [cert_path(pki, s.key) for s in PKI_SPECS]
    needed += [pki / "test-root.cer", pki / "test-storekit.cer"]
    return all(p.exists() for p in needed)


def write_pki_readme(pki: Path) -> None:
    lines = [
        "# TEST ONLY PKI: not Apple, not secret, never trust it for anything real",
        "",
        f"Made by `{GENERATOR} --new-pki` (RSA 2048 keys, SHA-256 signatures). The private keys",
        "(`test-only-*.key`) are published on purpose so that anyone can regenerate the samples;",
        "anything they sign proves nothing.",
        "",
        "To verify a sample, pass `--root samples/pki/test-root.cer` (`xcode-ber.receipt` chains to",
        "`samples/pki/test-storekit.cer` instead). openssl: `openssl cms -verify -binary -inform DER -in",
        "samples/typical.receipt -CAfile samples/pki/test-root.pem -purpose any -attime <creation epoch> -out /dev/null`.",
        "",
        "The generator reuses these files, so its output stays byte-identical; `--new-pki` replaces them",
        "(and with them every sample's bytes, hashes and signatures).",
        "",
        "| certificate | key | issuer | valid | role |",
        "|---|---|---|---|---|",
    ]
    for s in PKI_SPECS:
        lines.append(f"| `test-{s.key}.pem` | `test-only-{s.key}.key` | {s.issuer or 'itself'} | "
                     f"{s.not_before:%Y-%m-%d} .. {s.not_after:%Y-%m-%d} | {s.purpose} |")
    lines += ["", "`test-root.cer` and `test-storekit.cer` are DER copies of the two anchors.", "",
              "## ECDSA half (StoreKit 2 JWS)", "",
              "EC keys (`test-only-ec-*.key`) are made once with `openssl genpkey` and committed; the generator rebuilds",
              "the certificates from them on every run with deterministic (RFC 6979) ECDSA signatures. Verify JWS",
              "samples with the root `samples/pki/test-ec-root.cer` (`samples/pki/test-ec-xcode.cer` for the Xcode-style one).",
              "", "| certificate | key | curve | issuer | valid | role |", "|---|---|---|---|---|---|"]
    for s, curve in EC_PKI_SPECS:
        lines.append(f"| `test-{s.key}.pem` | `test-only-{s.key}.key` | {curve} | {s.issuer or 'itself'} | "
                     f"{s.not_before:%Y-%m-%d} .. {s.not_after:%Y-%m-%d} | {s.purpose} |")
    lines += ["", "`test-ec-root.cer` and `test-ec-xcode.cer` are DER copies of the two JWS anchors.", ""]
    (pki / "README.md").write_text("\n".join(lines))


# ---------------------------------------------------------------------------------------------
# Signing
# ---------------------------------------------------------------------------------------------


def sign(payload: bytes, signer: str, chain: list[str], stream: bool = False) -> bytes:
    """CMS SignedData over `payload` (attached), no signed attributes, so deterministic.

    `chain` names the certificates embedded besides the signer's. `stream` makes OpenSSL write the
    BER streaming form (indefinite lengths, constructed OCTET STRING) that Xcode receipts use.
    """
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "payload.der").write_bytes(payload)
        args = ["cms", "-sign", "-binary", "-nodetach", "-noattr", "-md", "sha256",
                "-signer", str(cert_path(PKI, signer)), "-inkey", str(key_path(PKI, signer)),
                "-in", str(tmp / "payload.der"), "-outform", "DER", "-out", str(tmp / "out.der")]
        if chain:
            (tmp / "chain.pem").write_text("".join(cert_path(PKI, c).read_text() for c in chain))
            args += ["-certfile", str(tmp / "chain.pem")]
        if stream:
            args.append("-stream")
        openssl(*args)
        return (tmp / "out.der").read_bytes()


APPLE_CHAIN = ["intermediate", "root"]


# ---------------------------------------------------------------------------------------------
# Receipt payloads
# ---------------------------------------------------------------------------------------------


def attribute(type_: int, value: bytes, version: int = 1) -> bytes:
    """ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }"""
    return seq(integer(type_), integer(version), octets(value))


def rfc3339(when: dt.datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def deterministic_bytes(label: str, n: int) -> bytes:
    out = b""
    counter = 0
    while len(out) < n:
        out += hashlib.sha256(f"{label}/{counter}".encode()).digest()
        counter += 1
    return out[:n]


def device_hash(opaque: bytes, bundle_value: bytes, device_id: str = DEVICE_ID) -> bytes:
    """Attribute 5: SHA-1(identifierForVendor bytes ‖ opaque value ‖ attribute 2's raw value)."""
    return hashlib.sha1(uuid.UUID(device_id).bytes + opaque + bundle_value).digest()


@dataclass
class Purchase:
    """One in-app purchase. Field names follow Apple's documentation; None means 'not present'."""

    product_id: str
    transaction_id: str
    purchase_date: str
    original_transaction_id: str | None = None
    original_purchase_date: str | None = None
    quantity: int = 1
    product_type: int = 0  # attribute 1707: 0 for one-off products and 3 for subscriptions in real receipts
    expires_date: str = ""  # "" is how real receipts spell "no expiry" (an empty IA5String)
    web_order_line_item_id: int = 0
    is_trial_period: int = 0
    is_in_intro_offer_period: int | None = None
    cancellation_date: str = ""
    cancellation_reason: int | None = None
    kind: str = ""  # for humans only
    extra: list[tuple[int, bytes]] = field(default_factory=list)  # (type, value) of unlisted attributes

    def attributes(self) -> list[bytes]:
        """Encoded attributes, laid out like Apple's production receipts (see the corpus)."""
        a = [
            attribute(1701, integer(self.quantity)),
            attribute(1702, utf8(self.product_id)),
            attribute(1703, utf8(self.transaction_id)),
            attribute(1704, ia5(self.purchase_date)),
            attribute(1705, utf8(self.original_transaction_id or self.transaction_id)),
            attribute(1706, ia5(self.original_purchase_date or self.purchase_date)),
            attribute(1707, integer(self.product_type)),
            attribute(1708, ia5(self.expires_date)),
            attribute(1709, utf8("")),
            attribute(1710, integer(0)),
            attribute(1711, integer(self.web_order_line_item_id)),
            attribute(1712, ia5(self.cancellation_date)),
            attribute(1713, integer(self.is_trial_period)),
        ]
        a += [attribute(t, utf8("")) for t in (1714, 1715, 1716, 1717, 1718)]
        if self.is_in_intro_offer_period is not None:
            a.append(attribute(1719, integer(self.is_in_intro_offer_period)))
        if self.cancellation_reason is not None:
            a.append(attribute(1720, integer(self.cancellation_reason)))
        a += [attribute(t, v) for t, v in self.extra]
        return a

    def encode(self) -> bytes:
        return set_of(self.attributes())

    def facts(self) -> dict:
        return {
            "product_id": self.product_id,
            "kind": self.kind,
            "quantity": self.quantity,
            "transaction_id": self.transaction_id,
            "original_transaction_id": self.original_transaction_id or self.transaction_id,
            "purchase_date": self.purchase_date,
            "original_purchase_date": self.original_purchase_date or self.purchase_date,
            "expires_date": self.expires_date or None,
            "web_order_line_item_id": self.web_order_line_item_id,
            "is_trial_period": self.is_trial_period,
            "is_in_intro_offer_period": self.is_in_intro_offer_period,
            "cancellation_date": self.cancellation_date or None,
            "cancellation_reason": self.cancellation_reason,
            "product_type_1707": self.product_type,
        }


@dataclass
class Receipt:
    """The app-level fields of a receipt. Builds the payload; records the facts tests assert."""

    environment: str
    bundle_id: str | bytes
    app_version: str
    original_app_version: str | None
    creation_date: str
    app_item_id: int | None = None
    age_rating: str | None = None
    original_purchase_date: str | None = None
    expiration_date: str | None = None
    purchases: list[Purchase] = field(default_factory=list)
    unlisted: list[tuple[int, bytes, str]] = field(default_factory=list)  # (type, value, what it is)
    opaque_length: int = 16  # Apple's production receipts: 16 bytes, version 2
    opaque_version: int = 2

    @property
    def bundle_value(self) -> bytes:
        return utf8(self.bundle_id)

    @property
    def opaque(self) -> bytes:
        label = self.bundle_id if isinstance(self.bundle_id, str) else self.bundle_id.hex()
        return deterministic_bytes(f"opaque {label} {self.creation_date}", self.opaque_length)

    def attributes(self, bundle_value: bytes | None = None) -> dict[int, bytes]:
        """Encoded top-level attributes keyed by type. `bundle_value` overrides attribute 2's value
        (the device hash is then computed over the override, so it stays correct)."""
        bundle_value = self.bundle_value if bundle_value is None else bundle_value
        a = {
            0: attribute(0, utf8(self.environment)),
            2: attribute(2, bundle_value),
            3: attribute(3, utf8(self.app_version)),
            4: attribute(4, self.opaque, version=self.opaque_version),
            5: attribute(5, device_hash(self.opaque, bundle_value)),
            12: attribute(12, ia5(self.creation_date)),
        }
        if self.app_item_id is not None:
            a[1] = attribute(1, integer(self.app_item_id))
        if self.age_rating is not None:
            a[10] = attribute(10, ia5(self.age_rating))
        if self.original_purchase_date is not None:
            a[18] = attribute(18, ia5(self.original_purchase_date))
        if self.original_app_version is not None:
            a[19] = attribute(19, utf8(self.original_app_version))
        if self.expiration_date is not None:
            a[21] = attribute(21, ia5(self.expiration_date))
        for t, v, _ in self.unlisted:
            a[t] = attribute(t, v)
        return a

    def elements(self, bundle_value: bytes | None = None) -> list[bytes]:
        return list(self.attributes(bundle_value).values()) + [attribute(17, p.encode()) for p in self.purchases]

    def payload(self) -> bytes:
        return set_of(self.elements())

    def purchases_in_file_order(self) -> list[Purchase]:
        # DER sorts the attribute SEQUENCEs by encoding, which fixes the order purchases appear in.
        return sorted(self.purchases, key=lambda p: attribute(17, p.encode()))

    def facts(self) -> dict:
        ordered = self.purchases_in_file_order()
        bundle = self.bundle_id
        return {
            "environment": self.environment,
            "bundle_id": bundle if isinstance(bundle, str) else None,
            "bundle_id_utf8_hex": (bundle.encode() if isinstance(bundle, str) else bundle).hex(),
            "app_version": self.app_version,
            "original_app_version": self.original_app_version,
            "creation_date": self.creation_date,
            "expiration_date": self.expiration_date,
            "app_item_id": self.app_item_id,
            "age_rating": self.age_rating,
            "original_purchase_date": self.original_purchase_date,
            "opaque_value_hex": self.opaque.hex(),
            "sha1_hash_hex": device_hash(self.opaque, self.bundle_value).hex(),
            "device_id": DEVICE_ID,
            "purchase_count": len(self.purchases),
            "product_ids": [p.product_id for p in ordered],
            "purchases": [p.facts() for p in ordered],
            "unlisted_attributes": [{"type": t, "value_hex": v.hex(), "what": w} for t, v, w in self.unlisted],
        }


# ---------------------------------------------------------------------------------------------
# The receipts
# ---------------------------------------------------------------------------------------------


def minimal_receipt() -> Receipt:
    return Receipt("Production", "com.example.minimal", "1.0", "1.0", "2024-01-15T10:00:00Z")


def typical_receipt() -> Receipt:
    p = "com.example.receiptexplorer"
    purchases = [
        Purchase(f"{p}.coins100", "2000000500000001", "2023-09-10T08:15:00Z", kind="consumable"),
        Purchase(f"{p}.coins100", "2000000500000002", "2023-10-02T19:40:00Z", kind="consumable"),
        Purchase(f"{p}.coins500", "2000000500000003", "2024-01-08T21:05:00Z", quantity=3, kind="consumable"),
        Purchase(f"{p}.pro", "2000000500000004", "2023-06-01T09:30:00Z", kind="non-consumable"),
        Purchase(f"{p}.themes", "2000000500000005", "2024-01-05T14:00:00Z", kind="non-consumable, refunded",
                 cancellation_date="2024-01-10T09:00:00Z", cancellation_reason=1),
    ]
    # An auto-renewable monthly subscription: a free week's trial, then 4 renewals, the first at the
    # introductory price. All share the original transaction id. The last period ends 2024-03-20:
    # active at 2024-03-05, lapsed at 2024-04-01.
    periods = [
        ("2023-11-13T12:00:00Z", "2023-11-20T12:00:00Z", 1, 0, "subscription: free trial week"),
        ("2023-11-20T12:00:00Z", "2023-12-20T12:00:00Z", 0, 1, "subscription: renewal 1, intro price"),
        ("2023-12-20T12:00:00Z", "2024-01-20T12:00:00Z", 0, 0, "subscription: renewal 2"),
        ("2024-01-20T12:00:00Z", "2024-02-20T12:00:00Z", 0, 0, "subscription: renewal 3"),
        ("2024-02-20T12:00:00Z", "2024-03-20T12:00:00Z", 0, 0, "subscription: renewal 4"),
    ]
    for i, (start, end, trial, intro, kind) in enumerate(periods):
        purchases.append(Purchase(
            f"{p}.monthly", f"20000005100000{i:02d}", start,
            original_transaction_id="2000000510000000", original_purchase_date=periods[0][0],
            product_type=3, expires_date=end, web_order_line_item_id=2000000041000000 + i,
            is_trial_period=trial, is_in_intro_offer_period=intro, kind=kind))
    return Receipt(
        "ProductionSandbox", p, "2.3.1", "1.0", "2024-03-01T12:00:00Z",
        app_item_id=1450000001, age_rating="12+", original_purchase_date="2023-06-01T09:00:00Z",
        purchases=purchases,
        unlisted=[(13, integer(170200), "Apple-private type 13, INTEGER (as in real receipts)")],
    )


def unlisted_receipt() -> Receipt:
    r = Receipt("Production", "com.example.unlisted", "3.0", "1.0", "2024-02-01T08:00:00Z")
    blob = not_asn1_blob("unlisted 6", 48)
    r.unlisted = [
        (6, blob, "raw bytes that are not ASN.1 (like Apple's attributes 6 and 7)"),
        (13, integer(170200), "INTEGER"),
        (14, integer(207), "INTEGER"),
        (20, utf8(""), "empty UTF8String"),
        (25, integer(3), "INTEGER"),
        (1000, utf8("apple-private"), "UTF8String, two-octet type number"),
        (31, ia5("2024-02-01T08:00:00Z"), "IA5String date"),
        (26, seq(integer(7), utf8("nested")), "a SEQUENCE { INTEGER, UTF8String }"),
    ]
    r.purchases = [Purchase(
        "com.example.unlisted.pro", "2000000600000001", "2024-01-20T10:00:00Z", kind="non-consumable",
        extra=[(1722, integer(0)), (1750, utf8("apple-private in-app"))])]
    return r


def not_asn1_blob(label: str, n: int) -> bytes:
    """Deterministic bytes that cannot be read as one complete TLV (the first length overruns)."""
    blob = bytearray(deterministic_bytes(label, n))
    blob[0], blob[1] = 0x3C, 0x7F  # [UNIVERSAL 28] constructed, length 127 > what follows
    return bytes(blob)


def xcode_payload() -> tuple[bytes, Receipt]:
    """Like Xcode's StoreKit Testing receipts: attributes in type order (not DER order), 8-byte
    opaque value with version 1, dates with a colon-less offset and one with fractional seconds."""
    r = Receipt("Xcode", "com.example.receiptexplorer", "1", None, "2024-03-01T13:00:00+0100",
                app_item_id=0, expiration_date="4001-01-01T00:00:00+0000",
                opaque_length=8, opaque_version=1)
    purchases = [
        # Xcode writes few in-app fields and in type order; these mirror the corpus.
        ("com.example.receiptexplorer.pro", "0", "2024-03-01T12:30:00+0100", None),
        ("com.example.receiptexplorer.monthly", "1", "2024-03-01T12:59:59.250+0100", "2024-04-01T12:59:59+0100"),
    ]
    def in_app(product, txn, date, expires) -> bytes:
        a = [attribute(1701, integer(1)), attribute(1702, utf8(product)), attribute(1703, utf8(txn)),
             attribute(1704, ia5(date)), attribute(1705, utf8(txn)), attribute(1706, ia5(date))]
        if expires:
            a.append(attribute(1708, ia5(expires)))
        a.append(attribute(1719, integer(0)))
        return set_of(a, der_order=False)
    r.unlisted = [(8, ia5(""), "Apple-private type 8, empty IA5String (as in real Xcode receipts)")]
    # Xcode writes attributes in type order; sorted() is stable, so the purchases keep their order.
    typed = list(r.attributes().items()) + [(17, attribute(17, in_app(*p))) for p in purchases]
    ordered = [encoding for _, encoding in sorted(typed, key=lambda item: item[0])]
    payload = set_of(ordered, der_order=False)
    assert payload != set_of(ordered), "the Xcode payload must not be in DER order"
    return payload, r


def large_receipt(n: int) -> Receipt:
    r = Receipt("ProductionSandbox", "com.example.large", "9.9", "1.0", "2024-06-01T00:00:00Z",
                app_item_id=1450000002)
    start = dt.datetime(2020, 1, 1, tzinfo=dt.timezone.utc)
    for i in range(n):
        when = rfc3339(start + dt.timedelta(minutes=7 * i))
        r.purchases.append(Purchase(f"com.example.large.item{i % 50:02d}", f"{3000000000000000 + i}", when,
                                    quantity=1 + i % 3, kind="consumable"))
    return r


# ---------------------------------------------------------------------------------------------
# Sample bookkeeping
# ---------------------------------------------------------------------------------------------

ALL_PASS = {"signature": "passed", "chain": "passed", "time": "passed", "receipt-signer": "passed",
            "device-hash": "passed"}


@dataclass
class Sample:
    file: str
    data: bytes
    demonstrates: str
    receipt: dict | None  # decoded facts
    signer: str | None
    anchor: str = "samples/pki/test-root.cer"
    encoding: str = "DER"
    payload_offset: int | None = None
    payload_length: int | None = None
    diagnostics: list[dict] = field(default_factory=list)
    at_creation: dict | None = None
    at_now: dict | None = None
    validation_notes: str = ""
    # (attime epoch or None for now, expected openssl cms -verify success), checked by verify_all()
    openssl_checks: list[tuple[int | None, bool]] = field(default_factory=list)
    outcome: str = ""
    extra: dict = field(default_factory=dict)


def epoch(rfc: str) -> int:
    s = rfc.replace("Z", "+0000")
    fmt = "%Y-%m-%dT%H:%M:%S.%f%z" if "." in s else "%Y-%m-%dT%H:%M:%S%z"
    return int(dt.datetime.strptime(s, fmt).timestamp())


def diag(code: str, severity: str, offset: int, length: int, node_offset: int | None, about: str) -> dict:
    return {"code": code, "severity": severity, "offset": offset, "length": length,
            "node_offset": node_offset, "about": about}


def locate_payload(data: bytes, payload: bytes) -> int:
    """Offset of the payload in the signed file; it is unique because the certificates can't hold it."""
    at = data.find(payload)
    assert at >= 0 and data.find(payload, at + 1) < 0, "payload must occur exactly once"
    return at


def signed_sample(file: str, receipt_facts: dict, payload: bytes, demonstrates: str, signer: str = "receipt-signer",
                  chain: list[str] | None = None, stream: bool = False, creation: str | None = None) -> Sample:
    data = sign(payload, signer, APPLE_CHAIN if chain is None else chain, stream=stream)
    creation = creation or receipt_facts["creation_date"]
    return Sample(file, data, demonstrates, receipt_facts, signer,
                  payload_offset=locate_payload(data, payload), payload_length=len(payload),
                  at_creation=dict(ALL_PASS), at_now=dict(ALL_PASS),
                  openssl_checks=[(epoch(creation), True)], outcome="valid receipt: loads with no diagnostics")


def attribute_nodes(data: bytes, payload_offset: int) -> dict[int, list[Node]]:
    """The payload's attribute SEQUENCEs keyed by type, with file offsets."""
    payload = read_node(data, payload_offset, len(data))
    found: dict[int, list[Node]] = {}
    for a in payload.children:
        type_ = int.from_bytes(a.children[0].content(data), "big")
        found.setdefault(type_, []).append(a)
    return found


def attribute_layout(data: bytes, payload_offset: int) -> list[dict]:
    layout = []
    for a in read_node(data, payload_offset, len(data)).children:
        value = a.children[2]
        layout.append({"type": int.from_bytes(a.children[0].content(data), "big"),
                       "version": int.from_bytes(a.children[1].content(data), "big"),
                       "offset": a.offset, "length": a.end - a.offset,
                       "value_offset": value.content_start, "value_length": value.content_end - value.content_start})
    return layout


# ---------------------------------------------------------------------------------------------
# Valid samples
# ---------------------------------------------------------------------------------------------


def build_valid() -> list[Sample]:
    samples = []
    r = minimal_receipt()
    samples.append(signed_sample("minimal.receipt", r.facts(), r.payload(),
                                 "The smallest Production-like receipt: no purchases, the required attributes only."))

    r = typical_receipt()
    s = signed_sample("typical.receipt", r.facts(), r.payload(),
                      "A sandbox receipt with consumables, a non-consumable, a refunded purchase and a monthly "
                      "subscription (trial, intro offer, renewals), plus one Apple-private attribute (13).")
    s.extra["subscription"] = {
        "product_id": "com.example.receiptexplorer.monthly",
        "original_transaction_id": "2000000510000000",
        "latest_expires_date": "2024-03-20T12:00:00Z",
        "active_at": ["2024-03-05T00:00:00Z"],
        "inactive_at": ["2024-04-01T00:00:00Z"],
    }
    samples.append(s)

    r = unlisted_receipt()
    samples.append(signed_sample("unlisted-attributes.receipt", r.facts(), r.payload(),
                                 "Apple-private attribute types with assorted inner values (INTEGER, UTF8String, "
                                 "IA5String, SEQUENCE, empty string, raw non-ASN.1 bytes) at the top level and inside "
                                 "an in-app purchase (1722, 1750). They must be kept and shown, never flagged."))
    return samples


def build_xcode() -> Sample:
    payload, r = xcode_payload()
    facts = r.facts()
    facts["creation_date_utc"] = "2024-03-01T12:00:00Z"
    facts["purchases"] = [
        {"product_id": "com.example.receiptexplorer.pro", "transaction_id": "0", "quantity": 1,
         "purchase_date": "2024-03-01T12:30:00+0100", "expires_date": None},
        {"product_id": "com.example.receiptexplorer.monthly", "transaction_id": "1", "quantity": 1,
         "purchase_date": "2024-03-01T12:59:59.250+0100", "purchase_date_utc": "2024-03-01T11:59:59.250Z",
         "expires_date": "2024-04-01T12:59:59+0100"},
    ]
    facts["product_ids"] = [p["product_id"] for p in facts["purchases"]]
    facts["purchase_count"] = 2
    s = signed_sample("xcode-ber.receipt", facts, payload,
                      "An Xcode StoreKit-testing style receipt: BER container (indefinite lengths, constructed "
                      "OCTET STRING), one self-signed certificate, payload SETs not in DER order, dates with "
                      "'+0100' offsets and fractional seconds.",
                      signer="storekit", chain=[], stream=True, creation="2024-03-01T12:00:00Z")
    s.anchor, s.encoding = "samples/pki/test-storekit.cer", "BER"
    s.at_creation["receipt-signer"] = s.at_now["receipt-signer"] = "failed"
    s.validation_notes = ("Like Xcode's real StoreKit Testing certificate, test-storekit lacks "
                          f"{OID_RECEIPT_SIGNER}, so receipt-signer fails; with --root test-root.cer the chain fails.")
    s.outcome = "loads; only BER/DER notes ('der' severity), no errors"

    # Everything BER-only, found by walking the container, plus the unsorted payload SETs.
    tree = parse(s.data)
    diags, chunks = [], None
    for node in walk(tree):
        if node.indefinite:
            diags.append(diag("indefinite-length", "der", node.offset + 1, 1, node.offset,
                              f"container element (tag 0x{node.tag:02X}) uses indefinite length"))
        if node.tag == 0x24:  # constructed OCTET STRING
            chunks = [(c.offset, c.header, c.content_end - c.content_start) for c in node.children]
            diags.append(diag("constructed-string", "der", node.offset, node.end - node.offset, node.offset,
                              "eContent is a constructed OCTET STRING"))
    payload_node = read_node(s.data, s.payload_offset, len(s.data))
    for set_node in [payload_node] + in_app_sets(s.data, payload_node):
        first_bad = first_unsorted(s.data, set_node)
        if first_bad is not None:
            diags.append(diag("set-not-sorted", "der", first_bad.offset, first_bad.end - first_bad.offset,
                              set_node.offset, "SET OF elements not in DER order (first out-of-order element)"))
    s.diagnostics = sorted(diags, key=lambda d: (d["node_offset"], d["code"]))
    s.extra["ber_chunking"] = [{"offset": o, "header_length": h, "content_length": n} for o, h, n in chunks]
    return s


def in_app_sets(data: bytes, payload_node: Node) -> list[Node]:
    sets = []
    for a in payload_node.children:
        if int.from_bytes(a.children[0].content(data), "big") == 17:
            value = a.children[2]
            sets.append(read_node(data, value.content_start, value.content_end))
    return sets


def first_unsorted(data: bytes, set_node: Node) -> Node | None:
    prev = None
    for child in set_node.children:
        enc = data[child.offset : child.end]
        if prev is not None and enc < prev:
            return child
        prev = enc
    return None


# ---------------------------------------------------------------------------------------------
# Malformed samples: each one starts from a valid receipt and carries one defect at a known offset
# ---------------------------------------------------------------------------------------------


def embedded_certificate(data: bytes, key: str) -> dict:
    """Where the signing certificate sits in the file: the 'defect' of a wrongly-signed sample."""
    der = pem_to_der(cert_path(PKI, key).read_text())
    return {"offset": data.index(der), "length": len(der), "what": f"embedded signer certificate test-{key}.pem"}


def value_node(data: bytes, attr: Node) -> Node:
    """The inner TLV inside an attribute's value OCTET STRING."""
    v = attr.children[2]
    return read_node(data, v.content_start, v.content_end)


def build_malformed(typical: Sample) -> list[Sample]:
    base = typical_receipt()
    t_attrs = attribute_nodes(typical.data, typical.payload_offset)
    out = []

    def resigned(file: str, elements: list[bytes], demonstrates: str, facts: dict | None = None) -> Sample:
        """A defective payload, DER-sorted and properly signed, so the defect is the only problem.
        openssl is checked at typical's creation date (the bad-date sample has none it can read)."""
        return signed_sample(file, facts if facts is not None else base.facts(), set_of(elements), demonstrates,
                             creation=base.creation_date)

    # --- truncated: typical.receipt cut inside the product id of the in-app purchase at the payload's
    # middle, so there is plenty before the cut to show and the cut lands in content octets.
    middle = typical.payload_offset + typical.payload_length // 2
    purchase = next(a for a in t_attrs[17] if a.end > middle)
    in_app = read_node(typical.data, purchase.children[2].content_start, purchase.children[2].content_end)
    product = next(value_node(typical.data, x) for x in in_app.children
                   if int.from_bytes(x.children[0].content(typical.data), "big") == 1702)
    cut = product.content_start + (product.content_end - product.content_start) // 2
    data = typical.data[:cut]
    ancestors = unfinished_nodes(typical.data, cut)
    s = Sample("malformed-truncated.receipt", data,
               "typical.receipt cut in the middle of the payload, inside an in-app purchase's product id: "
               "everything before the cut must still be shown, with a truncation error on each unfinished element.",
               truncated_facts(base, typical, cut),
               "receipt-signer", payload_offset=typical.payload_offset, payload_length=typical.payload_length)
    s.diagnostics = [diag("truncated-content", "error", n.offset, cut - n.offset, n.offset,
                          f"element (tag 0x{n.tag:02X}) declares {n.end - n.offset} bytes, {cut - n.offset} present"
                          + (" (inside the payload)" if n.offset >= typical.payload_offset else ""))
                     for n in ancestors]
    s.receipt["cut_product_id_bytes_present"] = typical.data[product.content_start : cut].decode()
    s.extra["defect"] = {"offset": cut, "length": 0, "missing_bytes": len(typical.data) - cut,
                         "original_length": len(typical.data)}
    s.at_creation = s.at_now = {k: "not-checked" for k in ALL_PASS}
    s.validation_notes = "The certificates and SignerInfo are cut off: nothing can be verified."
    s.openssl_checks = [(epoch(base.creation_date), False)]
    s.outcome = "loads partially with truncation errors; no verification possible"
    out.append(s)

    # --- length past parent: the last attribute SEQUENCE's length grows by 10, past the SET's end.
    payload = bytearray(base.payload())
    set_node = parse(bytes(payload))
    last = set_node.children[-1]
    n_len = last.header - 1
    new_len = (last.end - last.content_start) + 10
    assert (n_len == 1 and new_len < 0x80) or (n_len > 1 and new_len < 256 ** (n_len - 1)), "must keep its size"
    len_bytes = bytes([new_len]) if n_len == 1 else bytes([payload[last.offset + 1]]) + new_len.to_bytes(n_len - 1, "big")
    payload[last.offset + 1 : last.offset + 1 + n_len] = len_bytes
    payload = bytes(payload)
    s = signed_sample("malformed-length-past-parent.receipt", base.facts(), payload,
                      "The payload's last attribute SEQUENCE (an in-app purchase) claims 10 bytes more than its "
                      "parent SET (and the eContent OCTET STRING) holds. Re-signed: only the structure is wrong.")
    node_off = s.payload_offset + last.offset
    s.diagnostics = [diag("length-exceeds-parent", "error", node_off + 1, n_len, node_off,
                          f"attribute SEQUENCE length is {new_len}, {10} past the SET's end")]
    s.extra["defect"] = {"offset": node_off + 1, "length": n_len, "original_length_bytes": base.payload()[last.offset + 1 : last.offset + 1 + n_len].hex(),
                         "new_length_bytes": len_bytes.hex()}
    s.outcome = "loads; one error on the last attribute; signature verifies"
    out.append(s)

    # --- wrong type: attribute 2 is an IA5String.
    elements = base.elements(bundle_value=ia5(base.bundle_id))
    s = resigned("malformed-wrong-type.receipt", elements,
                 "Attribute 2 (bundle id) holds an IA5String instead of a UTF8String. The device hash is computed "
                 "over that raw value, so it still matches.")
    a2 = attribute_nodes(s.data, s.payload_offset)[2][0]
    inner = value_node(s.data, a2)
    s.diagnostics = [diag("receipt-attribute-wrong-type", "error", inner.offset, inner.end - inner.offset, inner.offset,
                          "attribute 2 value: IA5String (0x16) where UTF8String (0x0C) is expected")]
    s.extra["defect"] = {"offset": inner.offset, "length": 1, "what": "tag byte 0x16 instead of 0x0C"}
    s.outcome = "loads; finding on attribute 2; signature verifies"
    out.append(s)

    # --- bad dates: creation date impossible, one in-app purchase date not a date at all.
    bad = typical_receipt()
    bad.creation_date = "2024-13-45T99:00:00Z"
    victim = bad.purchases[3]  # the non-consumable "pro"
    victim.purchase_date = "yesterday"
    victim.original_purchase_date = "2023-06-01T09:30:00Z"
    facts = bad.facts()
    s = resigned("malformed-bad-date.receipt", bad.elements(),
                 "Attribute 12 (creation date) is '2024-13-45T99:00:00Z' and one in-app purchase date (1704) is "
                 "'yesterday'. Both are well-formed IA5Strings; only their meaning is wrong.",
                 facts=facts)
    nodes = attribute_nodes(s.data, s.payload_offset)
    c = value_node(s.data, nodes[12][0])
    diags = [diag("receipt-date-invalid", "error", c.offset, c.end - c.offset, c.offset,
                  "attribute 12 = '2024-13-45T99:00:00Z'")]
    for a17 in nodes[17]:
        ia = read_node(s.data, a17.children[2].content_start, a17.children[2].content_end)
        for attr in ia.children:
            if int.from_bytes(attr.children[0].content(s.data), "big") == 1704:
                v = value_node(s.data, attr)
                if v.content(s.data) == b"yesterday":
                    diags.append(diag("receipt-date-invalid", "error", v.offset, v.end - v.offset, v.offset,
                                      "in-app attribute 1704 = 'yesterday'"))
    assert len(diags) == 2
    s.extra["defect"] = [{"offset": d["offset"] + 2, "length": d["length"] - 2} for d in diags]  # the strings' content
    s.diagnostics = diags
    s.validation_notes = ("The creation date cannot be read, so a verifier must pick another time; the certificates "
                          "are valid 2015..2045, so 'time' passes at the current time. openssl is checked at 2024-03-01.")
    s.outcome = "loads; two date findings; signature verifies"
    out.append(s)

    # --- invalid UTF-8 in the bundle id (C3 28: a lead byte followed by a non-continuation byte).
    bad = typical_receipt()
    bad.bundle_id = b"com.example.\xc3\x28receiptexplorer"
    s = resigned("malformed-invalid-utf8.receipt", bad.elements(),
                 "The bundle id UTF8String contains bytes C3 28 (invalid UTF-8). Re-signed; the device hash is "
                 "computed over the raw bytes and still matches.", facts=bad.facts())
    inner = value_node(s.data, attribute_nodes(s.data, s.payload_offset)[2][0])
    bad_at = s.data.index(b"\xc3\x28", inner.content_start)
    s.diagnostics = [diag("utf8-invalid", "error", bad_at, 2, inner.offset,
                          "bytes C3 28 inside the bundle id; C3 starts a 2-byte sequence, 28 is not a continuation")]
    s.extra["defect"] = {"offset": bad_at, "length": 2}
    s.outcome = "loads; utf8-invalid on attribute 2's value; signature verifies"
    out.append(s)

    # --- trailing bytes after the ContentInfo.
    junk = b"\xde\xad\xbe\xef"
    s = Sample("malformed-trailing-bytes.receipt", typical.data + junk,
               "typical.receipt followed by 4 junk bytes (DE AD BE EF) after the ContentInfo.",
               base.facts(), "receipt-signer", payload_offset=typical.payload_offset,
               payload_length=typical.payload_length, at_creation=dict(ALL_PASS), at_now=dict(ALL_PASS))
    s.diagnostics = [diag("trailing-data", "warning", len(typical.data), 4, None, "4 bytes after the top-level element")]
    s.extra["defect"] = {"offset": len(typical.data), "length": 4}
    s.openssl_checks = [(epoch(base.creation_date), True)]
    s.outcome = "loads; one warning; signature verifies (the trailing bytes are outside the signed data)"
    out.append(s)

    # --- tampered: one bundle id byte changed after signing.
    data = bytearray(typical.data)
    inner = value_node(typical.data, t_attrs[2][0])
    at = inner.content_start + typical_receipt().bundle_id.index("receipt")
    assert data[at : at + 1] == b"r"
    data[at] = ord("R")
    s = Sample("malformed-tampered.receipt", bytes(data),
               "typical.receipt with one byte of the bundle id changed after signing ('receipt' -> 'Receipt'): "
               "parses cleanly, but the signature and the device hash fail.",
               dict(base.facts(), bundle_id="com.example.Receiptexplorer",
                    bundle_id_utf8_hex=b"com.example.Receiptexplorer".hex()),
               "receipt-signer", payload_offset=typical.payload_offset, payload_length=typical.payload_length)
    s.at_creation = dict(ALL_PASS, **{"signature": "failed", "device-hash": "failed"})
    s.at_now = dict(s.at_creation)
    s.extra["defect"] = {"offset": at, "length": 1, "original_byte": "72", "new_byte": "52"}
    s.openssl_checks = [(epoch(base.creation_date), False)]
    s.outcome = "loads with no diagnostics; signature fails"
    out.append(s)

    # --- signed by a leaf that chains to the root but is not a receipt signer.
    r = typical_receipt()
    s = signed_sample("malformed-no-receipt-oid.receipt", r.facts(), r.payload(),
                      f"typical's payload signed by test-no-receipt-oid, which chains to the TEST root but lacks "
                      f"{OID_RECEIPT_SIGNER}: a valid PKCS#7 that is not a receipt.", signer="no-receipt-oid")
    s.at_creation["receipt-signer"] = s.at_now["receipt-signer"] = "failed"
    s.extra["defect"] = embedded_certificate(s.data, "no-receipt-oid")
    s.outcome = "loads with no diagnostics; rejected as a receipt (signer lacks the receipt OID)"
    out.append(s)

    # --- duplicate attribute 2 (a second, different bundle id).
    elements = base.elements() + [attribute(2, utf8("com.example.impostor"))]
    s = resigned("malformed-duplicate-attribute.receipt", elements,
                 "Attribute 2 appears twice ('com.example.receiptexplorer' and 'com.example.impostor'); which one "
                 "is the bundle id is ambiguous.",
                 facts=dict(base.facts(), bundle_id=None, bundle_id_utf8_hex=None,
                            bundle_id_values_in_file_order=sorted(["com.example.impostor", base.bundle_id],
                                                                  key=lambda v: attribute(2, utf8(v)))))
    dups = attribute_nodes(s.data, s.payload_offset)[2]
    assert len(dups) == 2
    s.diagnostics = [diag("receipt-attribute-duplicate", "error", dups[1].offset, dups[1].end - dups[1].offset,
                          dups[1].offset, "second attribute of type 2 (in file order)")]
    s.extra["defect"] = {"offset": dups[1].offset, "length": dups[1].end - dups[1].offset,
                         "first_offset": dups[0].offset,
                         "values_in_file_order": [value_node(s.data, d).content(s.data).decode() for d in dups]}
    s.at_creation["device-hash"] = s.at_now["device-hash"] = "not-checked"
    order = s.extra["defect"]["values_in_file_order"]
    s.validation_notes = (f"Which bundle id counts is ambiguous, so no device-hash outcome is fixed. In file order the "
                          f"values are {order}; the device hash was computed over '{base.bundle_id}' "
                          f"(occurrence {order.index(base.bundle_id) + 1}).")
    s.outcome = "loads; duplicate finding; signature verifies"
    out.append(s)

    # --- missing attribute 2.
    attrs = base.attributes()
    del attrs[2]
    elements = list(attrs.values()) + [attribute(17, p.encode()) for p in base.purchases]
    s = resigned("malformed-missing-required.receipt", elements,
                 "No attribute 2 (bundle id). Everything else is typical.receipt's.",
                 facts=dict(base.facts(), bundle_id=None, bundle_id_utf8_hex=None))
    s.diagnostics = [diag("receipt-attribute-missing", "error", s.payload_offset,
                          s.payload_length, s.payload_offset, "attribute 2 (bundle id) is absent from the payload SET")]
    s.extra["defect"] = {"offset": s.payload_offset, "length": s.payload_length, "missing_type": 2,
                         "what": "the payload SET, which lacks attribute 2"}
    s.at_creation["device-hash"] = s.at_now["device-hash"] = "not-checked"
    s.validation_notes = "Without a bundle id the device hash cannot be computed."
    s.outcome = "loads; missing-attribute finding; signature verifies"
    out.append(s)

    # --- expired signing certificate: valid at creation (2015-06-01), expired now.
    r = Receipt("Production", "com.example.expired", "1.0", "1.0", "2015-06-01T00:00:00Z")
    s = signed_sample("malformed-expired-cert.receipt", r.facts(), r.payload(),
                      "Signed by test-expired-signer (valid 2015-01-01..2016-01-01) and created 2015-06-01: "
                      "verifies at its creation date, fails at today's date.", signer="expired-signer")
    s.at_now["time"] = "failed"
    s.extra["defect"] = embedded_certificate(s.data, "expired-signer")
    s.openssl_checks.append((None, False))
    s.validation_notes = "At the creation date everything passes; at the current time the signing certificate has expired."
    s.outcome = "loads with no diagnostics; valid at creation date, time fails now"
    out.append(s)

    # --- hostile strings for terminal-escaping tests (valid UTF-8 throughout).
    bad = typical_receipt()
    bad.bundle_id = "com.example.\x1b[31mred\x1b[0m.\u202etxt.exe\x07\x00tail"
    bad.purchases[3].product_id = "com.example.\x1b]0;pwned\x07.pro\u202e\x00"
    s = resigned("malformed-hostile-strings.receipt", bad.elements(),
                 "Bundle id and one product id contain ESC sequences (ESC[31m, OSC title), a bidi override "
                 "(U+202E), BEL and NUL. All valid UTF-8 and re-signed: the parser is happy; every renderer must "
                 "escape them.", facts=bad.facts())
    s.extra["hostile_codepoints"] = ["U+001B", "U+202E", "U+0007", "U+0000"]
    nodes = attribute_nodes(s.data, s.payload_offset)
    hostile = [value_node(s.data, nodes[2][0])]
    for a17 in nodes[17]:
        for attr in read_node(s.data, a17.children[2].content_start, a17.children[2].content_end).children:
            v = value_node(s.data, attr)
            if int.from_bytes(attr.children[0].content(s.data), "big") == 1702 and b"\x1b" in v.content(s.data):
                hostile.append(v)
    s.extra["defect"] = [{"offset": v.content_start, "length": v.content_end - v.content_start,
                          "what": ("bundle id" if i == 0 else "product id") + " UTF-8 content"}
                         for i, v in enumerate(hostile)]
    s.outcome = "loads with no diagnostics; all output must show the control characters escaped"
    out.append(s)

    # --- non-minimal length: attribute 10's value OCTET STRING written 04 81 05 instead of 04 05.
    attrs = base.attributes()
    age_value = ia5(base.age_rating)
    assert len(age_value) == 5, "age rating '12+' makes a 5-byte value, so the defect is 0x81 0x05"
    attrs[10] = seq(integer(10), integer(1), b"\x04\x81\x05" + age_value)
    elements = list(attrs.values()) + [attribute(17, p.encode()) for p in base.purchases]
    s = resigned("malformed-non-minimal-length.receipt", elements,
                 "Attribute 10's value OCTET STRING uses the long-form length 81 05 where DER requires 05. "
                 "Legal BER, so it still decodes; re-signed.")
    a10 = attribute_nodes(s.data, s.payload_offset)[10][0]
    v = a10.children[2]
    assert s.data[v.offset + 1 : v.offset + 3] == b"\x81\x05"
    s.diagnostics = [diag("length-not-minimal", "der", v.offset + 1, 2, v.offset,
                          "attribute 10 value OCTET STRING length 81 05")]
    s.extra["defect"] = {"offset": v.offset + 1, "length": 2}
    s.outcome = "loads; one 'der' note; signature verifies"
    out.append(s)

    # --- indefinite length inside the payload: attribute 3's SEQUENCE as 30 80 ... 00 00.
    attrs = base.attributes()
    definite = attrs[3]
    attrs[3] = b"\x30\x80" + definite[2:] + b"\x00\x00"
    elements = list(attrs.values()) + [attribute(17, p.encode()) for p in base.purchases]
    s = resigned("malformed-indefinite-in-payload.receipt", elements,
                 "Attribute 3's SEQUENCE uses an indefinite length (30 80 ... 00 00) inside the DER payload. "
                 "Legal BER; re-signed.")
    a3 = attribute_nodes(s.data, s.payload_offset)[3][0]
    assert a3.indefinite
    s.diagnostics = [diag("indefinite-length", "der", a3.offset + 1, 1, a3.offset,
                          "attribute 3 SEQUENCE length octet 0x80")]
    s.extra["defect"] = {"offset": a3.offset + 1, "length": 1, "eoc_offset": a3.content_end, "eoc_length": 2}
    s.outcome = "loads; one 'der' note; signature verifies"
    out.append(s)
    return out


def truncated_facts(base: Receipt, typical: Sample, cut: int) -> dict:
    """What a reader can still see of typical.receipt when it is cut at `cut`."""
    facts = base.facts()
    layout = attribute_layout(typical.data, typical.payload_offset)
    complete = [a for a in layout if a["offset"] + a["length"] <= cut]
    n = sum(1 for a in complete if a["type"] == 17)
    facts.update(
        purchase_count=None,
        complete_purchases=n,
        product_ids=facts["product_ids"][:n],
        purchases=facts["purchases"][:n],
        complete_attribute_types_in_file_order=[a["type"] for a in complete],
        cut_product_id=facts["product_ids"][n],
        cut_product_id_bytes_present=None,  # filled in by the caller
    )
    return facts


def unfinished_nodes(data: bytes, cut: int) -> list[Node]:
    """The elements of the complete file `data` that a cut at `cut` leaves unfinished, outermost first.
    Descends into the eContent OCTET STRING too: the receipt module parses the payload as DER."""
    found: list[Node] = []

    def visit(n: Node) -> None:
        if not n.offset < cut < n.end:
            return
        found.append(n)
        children = n.children
        if not children and n.tag == TAG_OCTET_STRING:
            # The eContent and every attribute value wrap exactly one TLV; descend into it.
            inner = read_node(data, n.content_start, n.content_end)
            children = [inner] if inner.end == n.content_end else []
        for c in children:
            visit(c)

    visit(parse(data))
    return found


# ---------------------------------------------------------------------------------------------
# Other input encodings of typical.receipt
# ---------------------------------------------------------------------------------------------


def encodings(typical: bytes) -> dict[str, bytes]:
    b64 = base64.b64encode(typical).decode()
    wrapped = "\n".join(b64[i : i + 76] for i in range(0, len(b64), 76)) + "\n"
    body = {"receipt-data": b64, "password": "test", "exclude-old-transactions": False}
    return {
        "typical.b64": wrapped.encode(),
        "typical.pem": der_to_pem(typical, "PKCS7").encode(),
        "typical.json": (json.dumps(body, indent=2) + "\n").encode(),
    }


# ---------------------------------------------------------------------------------------------
# Verification with the openssl CLI
# ---------------------------------------------------------------------------------------------


def openssl_verify(data: bytes, anchor_pem: Path, attime: int | None) -> tuple[bool, str]:
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "r.der"
        f.write_bytes(data)
        args = ["cms", "-verify", "-binary", "-inform", "DER", "-in", str(f), "-CAfile", str(anchor_pem),
                "-purpose", "any", "-out", os.devnull]
        if attime is not None:
            args += ["-attime", str(attime)]
        p = openssl(*args, check=False)
        lines = p.stderr.decode(errors="replace").strip().splitlines()
        return p.returncode == 0, lines[-1] if lines else ""


def verify_all(samples: list[Sample]) -> None:
    """Run every sample's openssl checks; raise if one disagrees with what the manifest says."""
    problems = []
    for s in samples:
        anchor = REPO / s.anchor.replace(".cer", ".pem")
        results = []
        for attime, expected in s.openssl_checks:
            ok, message = openssl_verify(s.data, anchor, attime)
            results.append({"attime": attime, "expected_success": expected, "success": ok})
            if ok != expected:
                problems.append(f"{s.file}: openssl verify at {attime} gave {ok}, expected {expected}: {message}")
        s.extra["openssl_verify"] = results
    if problems:
        raise SystemExit("\n".join(problems))


# ---------------------------------------------------------------------------------------------
# Output: manifest.json, README.md, EmbeddedSample.swift
# ---------------------------------------------------------------------------------------------

DIAGNOSTIC_CODES = {
    "truncated-content": "error", "truncated-length": "error", "truncated-identifier": "error",
    "length-exceeds-parent": "error", "trailing-data": "warning", "length-not-minimal": "der",
    "indefinite-length": "der", "set-not-sorted": "der", "constructed-string": "der", "utf8-invalid": "error",
    "receipt-attribute-wrong-type": "error", "receipt-date-invalid": "error",
    "receipt-attribute-duplicate": "error", "receipt-attribute-missing": "error",
}


def sample_entry(s: Sample) -> dict:
    entry = {
        "file": s.file,
        "committed": True,
        "demonstrates": s.demonstrates,
        "size": len(s.data),
        "sha256": hashlib.sha256(s.data).hexdigest(),
        "encoding": s.encoding,
        "signer": f"samples/pki/test-{s.signer}.pem" if s.signer else None,
        "payload": {"offset": s.payload_offset, "length": s.payload_length},
        "receipt": s.receipt,
        "expected_diagnostics": s.diagnostics,
        "outcome": s.outcome,
        "validation": {
            "anchor": s.anchor,
            "device_id": DEVICE_ID,
            "at_creation_date": s.at_creation,
            "at_now": s.at_now,
            "notes": s.validation_notes,
        },
    }
    if not s.file.startswith("malformed-"):
        # Where each top-level attribute sits, for tests that check ranges and selection.
        entry["attributes"] = attribute_layout(s.data, s.payload_offset)
    entry.update(s.extra)
    return entry


def slim(entry: dict, samples: list[Sample]) -> dict:
    """Malformed variants of typical.receipt keep its purchases: say so instead of repeating them."""
    typical = next(s for s in samples if s.file == "typical.receipt").receipt
    r = entry.get("receipt")
    if entry["file"].startswith("malformed-") and r and r.get("purchases") == typical["purchases"]:
        r = dict(r)
        del r["purchases"]
        r["purchases_same_as"] = "typical.receipt"
        entry["receipt"] = r
    return entry


def manifest(samples: list[Sample], extra_files: dict[str, bytes], pki: Path) -> dict:
    certs = []
    for spec in PKI_SPECS:
        der = pem_to_der(cert_path(pki, spec.key).read_text())
        certs.append({"file": f"samples/pki/test-{spec.key}.pem", "key": f"samples/pki/test-only-{spec.key}.key",
                      "subject_cn": spec.cn, "issuer": spec.issuer or "self",
                      "not_before": rfc3339(spec.not_before), "not_after": rfc3339(spec.not_after),
                      "receipt_signer_oid": any(o == OID_RECEIPT_SIGNER for o, _, _ in spec.extra_extensions),
                      "wwdr_marker_oid": any(o == OID_WWDR_MARKER for o, _, _ in spec.extra_extensions),
                      "sha256_fingerprint": hashlib.sha256(der).hexdigest()})
    return {
        "generator": GENERATOR,
        "regenerate": f"python3 {GENERATOR}",
        "check": f"python3 {GENERATOR} --check",
        "conventions": {
            "offsets": "byte offsets into the file as stored (for .b64/.pem/.json: into the decoded DER)",
            "diagnostic.offset/length": "the exact bytes at fault (e.g. the length octets, the invalid UTF-8 bytes)",
            "diagnostic.node_offset": "offset of the TLV the diagnostic concerns (null: none, e.g. trailing data)",
            "expected_diagnostics": "the complete list expected from parser + receipt module; [] means none at all "
                                    "(every valid sample is strict DER, certificates included, except xcode-ber)",
            "truncated-content": "one per unfinished element, outermost first, with offset/length = the bytes of "
                                 "that element that are present; elements inside the payload are included",
            "defect": "where the deliberate change is (offset/length in the file); a list when there are several",
            "purchases": "in file order (DER order for Apple-style samples); purchases_same_as points to a sample "
                         "with the same purchase list",
            "dates": "as written in the receipt; *_utc fields give the UTC equivalent where it differs",
            "validation": "steps signature, chain, time, receipt-signer, device-hash; passed/failed/not-checked; "
                          "anchor = validation.anchor; device-hash assumes --device-id validation.device_id, "
                          "without it device-hash is not-checked; at_creation_date judges time at attribute 12",
        },
        "diagnostic_codes": DIAGNOSTIC_CODES,
        "pki": {"anchor": "samples/pki/test-root.cer", "storekit_anchor": "samples/pki/test-storekit.cer",
                "test_only": True, "certificates": certs},
        "samples": [slim(sample_entry(s), samples) for s in samples] + [
            {"file": name_, "committed": True, "same_as": "typical.receipt", "size": len(data),
             "sha256": hashlib.sha256(data).hexdigest(), "outcome": "decodes to exactly typical.receipt's bytes",
             "demonstrates": {
                 "typical.b64": "typical.receipt as base64 with 76-column lines",
                 "typical.pem": "typical.receipt in -----BEGIN PKCS7----- armour (64-column lines)",
                 "typical.json": "a verifyReceipt request body whose receipt-data is typical.receipt",
             }[name_]} for name_, data in extra_files.items()
        ] + [{
            "file": "generated/large-10000.receipt", "committed": False,
            "command": f"python3 {GENERATOR} --large 10000",
            "demonstrates": "10,000 in-app purchases (about 3.5 MB) for performance work; same TEST PKI",
            "outcome": "valid receipt: loads with no diagnostics",
            "receipt": {"environment": "ProductionSandbox", "bundle_id": "com.example.large", "app_version": "9.9",
                        "original_app_version": "1.0", "creation_date": "2024-06-01T00:00:00Z",
                        "app_item_id": 1450000002, "purchase_count": 10000},
            "validation": {"anchor": "samples/pki/test-root.cer", "device_id": DEVICE_ID,
                           "at_creation_date": ALL_PASS, "at_now": ALL_PASS},
        }],
    }


def readme(m: dict) -> str:
    L = [
        "# Sample receipts",
        "",
        f"Generated by `{GENERATOR}`; do not edit by hand (this file and `manifest.json` are rewritten on",
        f"every run). `python3 {GENERATOR} --check` fails if any committed file differs from a fresh run.",
        "Machine-readable facts for tests: [`manifest.json`](manifest.json).",
        "",
        "All receipts are signed by the **TEST ONLY** PKI in [`pki/`](pki/README.md) (never Apple's). Verify with",
        "`--root samples/pki/test-root.cer` (`xcode-ber.receipt`: `--root samples/pki/test-storekit.cer`).",
        f"Device hashes (attribute 5) are computed for identifierForVendor `{DEVICE_ID}`.",
        "",
        "| file | size | what it demonstrates | expected outcome |",
        "|---|---|---|---|",
    ]
    for e in m["samples"]:
        size = f"{e['size']:,} B" if "size" in e else "(not committed)"
        L.append(f"| `{e['file']}` | {size} | {e['demonstrates']} | {e.get('outcome', '')} |")
    L += ["", "## Conventions", ""] + [f"- **{k}**: {v}" for k, v in m["conventions"].items()]
    L += ["", "## Details", ""]
    for e in m["samples"]:
        if "receipt" not in e or e.get("committed") is False:
            continue
        r = e["receipt"]
        L += [f"### `{e['file']}`", "", f"- SHA-256 `{e['sha256']}`, {e['size']:,} bytes, {e['encoding']}; "
              f"payload (eContent) at offset {e['payload']['offset']}, {e['payload']['length']} bytes"]
        shown_bundle = json.dumps(r.get("bundle_id")) if r.get("bundle_id") is not None else \
            f"(bytes {r.get('bundle_id_utf8_hex')})" if r.get("bundle_id_utf8_hex") else "(absent)"
        original = f"`{r['original_app_version']}`" if r["original_app_version"] is not None else "(absent)"
        L.append(f"- environment `{r['environment']}`, bundle id {shown_bundle}, version `{r['app_version']}`, "
                 f"original version {original}, created `{r['creation_date']}`")
        # json.dumps escapes control characters, so hostile strings can't mess up a terminal or a diff.
        count = r["purchase_count"] if r["purchase_count"] is not None else f"{r.get('complete_purchases')} complete"
        L.append(f"- {count} purchases: " + (", ".join(json.dumps(p) for p in r["product_ids"])
                                             if r["product_ids"] else "none"))
        for d in e["expected_diagnostics"]:
            L.append(f"- expects `{d['code']}` ({d['severity']}) at offset {d['offset']}, length {d['length']}: {d['about']}")
        if "defect" in e:
            L.append(f"- defect: `{json.dumps(e['defect'])}`")
        steps = lambda v: ", ".join(f"{k} {s}" for k, s in v.items())
        L.append(f"- validation at creation date: {steps(e['validation']['at_creation_date'])}")
        if e["validation"]["at_now"] != e["validation"]["at_creation_date"]:
            L.append(f"- validation now: {steps(e['validation']['at_now'])}")
        if e["validation"]["notes"]:
            L.append(f"- note: {e['validation']['notes']}")
        L.append("")
    return "\n".join(L)


def swift_source(typical: bytes, root_der: bytes) -> str:
    b64 = base64.b64encode(typical).decode()
    lines = "\n".join("        " + b64[i : i + 96] for i in range(0, len(b64), 96))
    root_b64 = base64.b64encode(root_der).decode()
    root_lines = "\n".join("        " + root_b64[i : i + 96] for i in range(0, len(root_b64), 96))
    return f"""// GENERATED by {GENERATOR} -- do not edit. Regenerate with `python3 {GENERATOR}`.
//
// samples/typical.receipt (signed by the TEST ONLY PKI in samples/pki, never Apple's), embedded so
// the tool can show a receipt without any file (demo mode, tests).
// SHA-256 {hashlib.sha256(typical).hexdigest()}, {len(typical)} bytes.

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

enum EmbeddedSample {{
    static let name = "typical.receipt"

    /// The receipt's bytes, decoded from the base64 literal below on each use.
    static var bytes: [UInt8] {{
        guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {{
            preconditionFailure("EmbeddedSample: the generated base64 literal is corrupt")
        }}
        return [UInt8](data)
    }}

    /// samples/pki/test-root.cer, the TEST ONLY root that signed the sample: the explorer trusts
    /// it for the embedded sample alone (as if given with --root), so the demo shows a whole
    /// validation, reported as a user-supplied anchor, never as Apple.
    static var testRootCertificate: [UInt8] {{
        guard let data = Data(base64Encoded: rootBase64, options: .ignoreUnknownCharacters) else {{
            preconditionFailure("EmbeddedSample: the generated base64 literal is corrupt")
        }}
        return [UInt8](data)
    }}

    private static let base64 = \"\"\"
{lines}
        \"\"\"

    private static let rootBase64 = \"\"\"
{root_lines}
        \"\"\"
}}
"""


# ---------------------------------------------------------------------------------------------
# StoreKit 2 JWS samples, signed by the ECDSA half of the TEST PKI
# ---------------------------------------------------------------------------------------------
#
# ECDSA signatures are randomised unless the nonce is derived from key and message (RFC 6979). The
# `cryptography` package (pip install cryptography, 44 or later) signs deterministically, so
# certificates and tokens come out byte-identical on every run and `--check` keeps working.

OID_EC_PUBLIC_KEY = "1.2.840.10045.2.1"
ECDSA_SHA256 = seq(oid("1.2.840.10045.4.3.2"))
ECDSA_SHA384 = seq(oid("1.2.840.10045.4.3.3"))
JWS_DIR = "jws"
MAR_2024 = dt.datetime(2024, 3, 1, 12, 0, tzinfo=dt.timezone.utc)

# (spec, curve). The shape of Apple's chain: P-384 root and WWDR-like intermediate, P-256 leaves.
EC_PKI_SPECS = [
    (CertSpec("ec-root", "receipt-explorer TEST ECC Root CA", None, JAN_2015, JAN_2045, "root",
              purpose="JWS trust anchor (P-384): pass as a root. Plays Apple Root CA - G3."), "P-384"),
    (CertSpec("ec-intermediate", "receipt-explorer TEST ECC WWDR-like Intermediate", "ec-root", JAN_2015, JAN_2045,
              "intermediate", [(OID_WWDR_MARKER, False, null())],
              purpose="Plays Apple WWDR G6 (P-384); carries the WWDR marker extension."), "P-384"),
    (CertSpec("ec-signer", "receipt-explorer TEST ECC StoreKit Signing", "ec-intermediate", JAN_2015, JAN_2045,
              "leaf", [(OID_RECEIPT_SIGNER, False, null())],
              purpose="Signs the valid JWS samples (P-256, ES256); carries 1.2.840.113635.100.6.11.1."), "P-256"),
    (CertSpec("ec-no-marker", "receipt-explorer TEST ECC Signer without marker", "ec-intermediate",
              JAN_2015, JAN_2045, "leaf", purpose="P-256 leaf lacking 1.2.840.113635.100.6.11.1."), "P-256"),
    (CertSpec("ec-expired-signer", "receipt-explorer TEST ECC StoreKit Signing (expired 2016)", "ec-intermediate",
              JAN_2015, JAN_2016, "leaf", [(OID_RECEIPT_SIGNER, False, null())],
              purpose="P-256 StoreKit signer valid 2015-01-01..2016-01-01 only."), "P-256"),
    # Like Xcode's: one self-signed certificate with this common name signs the whole token.
    (CertSpec("ec-xcode", "StoreKit Testing in Xcode", None, dt.datetime(2020, 4, 1, tzinfo=dt.timezone.utc),
              dt.datetime(2040, 3, 27, tzinfo=dt.timezone.utc), "self-signed-signer",
              purpose="Self-signed P-256 'StoreKit Testing in Xcode' look-alike: signs xcode-transaction.jws."), "P-256"),
]


def crypto():
    try:
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec, utils
    except ImportError:
        raise SystemExit("the JWS samples need the `cryptography` package (pip install cryptography)")
    return hashes, serialization, ec, utils


def ec_key(pki: Path, key: str):
    _, serialization, _, _ = crypto()
    return serialization.load_pem_private_key(key_path(pki, key).read_bytes(), password=None)


def ec_sign_der(private_key, data: bytes, sha384: bool = False) -> bytes:
    """Deterministic (RFC 6979) ECDSA: DER ECDSA-Sig-Value."""
    hashes, _, ec, _ = crypto()
    algorithm = hashes.SHA384() if sha384 else hashes.SHA256()
    return private_key.sign(data, ec.ECDSA(algorithm, deterministic_signing=True))


def make_ec_keys(pki: Path) -> None:
    """EC keys are made once (they are committed); certificates are rebuilt from them every run."""
    for spec, curve in EC_PKI_SPECS:
        if not key_path(pki, spec.key).exists():
            openssl("genpkey", "-algorithm", "EC", "-pkeyopt", f"ec_paramgen_curve:{curve}",
                    "-out", str(key_path(pki, spec.key)))


def ec_certificates(pki: Path) -> dict[str, bytes]:
    """DER of every EC certificate, built from the committed keys with deterministic signatures."""
    _, serialization, _, _ = crypto()
    specs = {s.key: (s, c) for s, c in EC_PKI_SPECS}
    spki = lambda k: ec_key(pki, k).public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    out: dict[str, bytes] = {}
    for spec, _ in EC_PKI_SPECS:
        issuer, issuer_curve = specs[spec.issuer] if spec.issuer else (spec, specs[spec.key][1])
        big = issuer_curve == "P-384"
        issuer_key = ec_key(pki, issuer.key)
        out[spec.key] = build_certificate(
            spec, spki(spec.key), issuer, spki(issuer.key), key_path(pki, issuer.key),
            sig_alg=ECDSA_SHA384 if big else ECDSA_SHA256,
            sign_tbs=lambda tbs, k=issuer_key, b=big: ec_sign_der(k, tbs, sha384=b))
    return out


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def compact(obj) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


def der_to_raw(sig: bytes) -> bytes:
    _, _, _, utils = crypto()
    r, s = utils.decode_dss_signature(sig)
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


@dataclass
class JWSSample:
    file: str
    text: bytes
    demonstrates: str
    kind: str
    signer: str
    claims: dict  # bundleId / environment / appAppleId the verifier compares (None: absent)
    signed_date_ms: int | None
    steps: dict  # JWSStep id -> passed / failed / not-checked, with the sample's claims as expectations
    failing_step: str | None = None
    reason: str | None = None  # JWSFailure code of failing_step
    anchor: str = "samples/pki/test-ec-root.cer"
    extra: dict = field(default_factory=dict)


JWS_STEPS = ["algorithm", "chain", "root", "leaf-oid", "intermediate-oid", "time-signed-date", "time-today",
             "signature", "bundle-id", "environment", "app-apple-id", "revocation"]


def jws_steps(claims: dict, **changes: str) -> dict:
    steps = {k: "passed" for k in JWS_STEPS}
    steps["revocation"] = "not-checked"
    for step, claim in (("bundle-id", "bundleId"), ("environment", "environment"), ("app-apple-id", "appAppleId")):
        if claims.get(claim) is None:
            steps[step] = "not-checked"
    steps.update({k.replace("_", "-"): v for k, v in changes.items()})
    return steps


def sign_jws(header: dict, payload: bytes, signer: str, certs: dict[str, bytes], pki: Path) -> tuple[bytes, bytes]:
    """`header.payload.signature` and the DER signature, ES256 with the signer's key (raw r‖s in the token)."""
    signing_input = (b64u(compact(header)) + "." + b64u(payload)).encode()
    der = ec_sign_der(ec_key(pki, signer), signing_input)
    return signing_input + b"." + b64u(der_to_raw(der)).encode(), der


def apple_header(certs: dict[str, bytes], order=("ec-signer", "ec-intermediate", "ec-root")) -> dict:
    return {"alg": "ES256", "x5c": [base64.b64encode(certs[k]).decode() for k in order]}


BUNDLE = "com.example.receiptexplorer"
APP_ID = 1450000001
SIGNED_MS = int(MAR_2024.timestamp() * 1000)


def transaction_payload(txn: str, product: str, purchase_ms: int, **extra) -> dict:
    p = {"transactionId": txn, "originalTransactionId": "2000000510000000", "webOrderLineItemId": "2000000041000004",
         "bundleId": BUNDLE, "productId": product, "subscriptionGroupIdentifier": "21400001",
         "purchaseDate": purchase_ms, "originalPurchaseDate": 1699876800000, "expiresDate": purchase_ms + 2592000000,
         "quantity": 1, "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
         "signedDate": SIGNED_MS, "environment": "Sandbox", "transactionReason": "RENEWAL", "storefront": "USA",
         "storefrontId": "143441", "price": 4990, "currency": "USD", "appTransactionId": "704289123456789012"}
    p.update(extra)
    return p


def renewal_payload() -> dict:
    return {"originalTransactionId": "2000000510000000", "autoRenewProductId": f"{BUNDLE}.monthly",
            "productId": f"{BUNDLE}.monthly", "autoRenewStatus": 1, "signedDate": SIGNED_MS,
            "environment": "Sandbox", "recentSubscriptionStartDate": 1699876800000, "renewalDate": 1710936000000,
            "renewalPrice": 4990, "currency": "USD", "appTransactionId": "704289123456789012"}


def build_jws(pki: Path, certs: dict[str, bytes]) -> list[JWSSample]:
    out: list[JWSSample] = []
    claims_txn = {"bundleId": BUNDLE, "environment": "Sandbox", "appAppleId": None}
    hdr = apple_header(certs)

    def add(file, text, demonstrates, kind, claims, signer="ec-signer", signed=SIGNED_MS, failing=None, reason=None,
            anchor="samples/pki/test-ec-root.cer", **step_changes):
        out.append(JWSSample(file, text, demonstrates, kind, signer, claims, signed,
                             jws_steps(claims, **step_changes), failing, reason, anchor))
        return out[-1]

    txn = transaction_payload("2000000510000004", f"{BUNDLE}.monthly", 1708430400000)
    txn_bytes = compact(txn)
    token, _ = sign_jws(hdr, txn_bytes, "ec-signer", certs, pki)
    add("transaction.jws", token, "a StoreKit 2 signed transaction (JWSTransactionDecodedPayload)", "transaction",
        claims_txn)
    renewal, _ = sign_jws(hdr, compact(renewal_payload()), "ec-signer", certs, pki)
    add("renewal-info.jws", renewal, "signed renewal info (JWSRenewalInfoDecodedPayload)", "renewal",
        {"bundleId": None, "environment": "Sandbox", "appAppleId": None})
    app = {"receiptType": "Sandbox", "appAppleId": APP_ID, "bundleId": BUNDLE, "applicationVersion": "2.3.1",
           "versionExternalIdentifier": 0, "receiptCreationDate": SIGNED_MS, "requestDate": SIGNED_MS,
           "originalApplicationVersion": "1.0", "originalPurchaseDate": 1685610000000,
           "deviceVerification": base64.b64encode(deterministic_bytes("jws device verification", 48)).decode(),
           "deviceVerificationNonce": "6f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "appTransactionId": "704289123456789012",
           "originalPlatform": "iOS", "signedDate": SIGNED_MS}
    app_token, _ = sign_jws(hdr, compact(app), "ec-signer", certs, pki)
    add("app-transaction.jws", app_token, "a signed AppTransaction (receiptType, not environment)", "apptransaction",
        {"bundleId": BUNDLE, "environment": "Sandbox", "appAppleId": APP_ID})
    notification = {"notificationType": "DID_RENEW", "notificationUUID": "3f0c6b1e-8d2a-4c5b-9e7f-1a2b3c4d5e6f",
                    "data": {"appAppleId": APP_ID, "bundleId": BUNDLE, "bundleVersion": "231", "environment": "Sandbox",
                             "signedTransactionInfo": token.decode(), "signedRenewalInfo": renewal.decode(),
                             "status": 1},
                    "version": "2.0", "signedDate": SIGNED_MS}
    note, _ = sign_jws(hdr, compact(notification), "ec-signer", certs, pki)
    s = add("notification.jws", note, "a Server Notification V2 signedPayload whose data nests signedTransactionInfo "
            "and signedRenewalInfo (each signed on its own)", "notification",
            {"bundleId": BUNDLE, "environment": "Sandbox", "appAppleId": APP_ID})
    s.extra["nested"] = [{"field": "signedTransactionInfo", "same_as": "transaction.jws"},
                         {"field": "signedRenewalInfo", "same_as": "renewal-info.jws"}]
    s.extra["notification"] = {"notificationType": "DID_RENEW", "data.bundleId": BUNDLE, "data.environment": "Sandbox"}
    older = transaction_payload("2000000510000003", f"{BUNDLE}.monthly", 1705752000000)
    older_token, _ = sign_jws(hdr, compact(older), "ec-signer", certs, pki)
    history = {"revision": "1709294400000_2000000510000004", "bundleId": BUNDLE, "appAppleId": APP_ID,
               "environment": "Sandbox", "hasMore": False, "signedTransactions": [older_token.decode(), token.decode()]}
    out.append(JWSSample("transaction-history.json", (json.dumps(history, indent=2) + "\n").encode(),
                         "an App Store Server API transaction history response {\"signedTransactions\": [2 tokens]}",
                         "history", "ec-signer", claims_txn, SIGNED_MS, jws_steps(claims_txn),
                         extra={"transaction_ids": ["2000000510000003", "2000000510000004"],
                                "steps_apply_to": "each token of signedTransactions"}))

    xcode_txn = transaction_payload("0", "pass.premium", 1708430400000, environment="Xcode",
                                    transactionReason="PURCHASE", originalTransactionId="0")
    xcode_hdr = {"kid": "Apple_Xcode_Key", "typ": "JWT", "x5c": [base64.b64encode(certs["ec-xcode"]).decode()],
                 "alg": "ES256"}
    xcode, _ = sign_jws(xcode_hdr, compact(xcode_txn), "ec-xcode", certs, pki)
    add("xcode-transaction.jws", xcode, "an Xcode StoreKit-testing transaction: one self-signed 'StoreKit Testing in "
        "Xcode' certificate; verifies only with that certificate as the root, and is never Apple-signed",
        "transaction", {"bundleId": BUNDLE, "environment": "Xcode", "appAppleId": None}, signer="ec-xcode",
        anchor="samples/pki/test-ec-xcode.cer", leaf_oid="not-checked", intermediate_oid="not-checked")

    # ---- malformed
    sig_input = token.rsplit(b".", 1)[0]
    _, payload_seg = sig_input.split(b".")
    none_hdr = dict(hdr, alg="none")
    add("malformed-alg-none.jws", (b64u(compact(none_hdr)) + "." + payload_seg.decode() + ".").encode(),
        "alg \"none\" with an empty signature: algorithm confusion, refused", "transaction", claims_txn,
        failing="algorithm", reason="algorithm-none", algorithm="failed", signature="not-checked")
    hs_input = (b64u(compact(dict(hdr, alg="HS256"))) + "." + payload_seg.decode()).encode()
    mac = hmac.new(certs["ec-signer"], hs_input, hashlib.sha256).digest()  # keyed with the public certificate
    add("malformed-alg-hs256.jws", hs_input + b"." + b64u(mac).encode(),
        "alg \"HS256\", an HMAC keyed with the leaf certificate's bytes (the classic confusion attack)",
        "transaction", claims_txn, failing="algorithm", reason="algorithm-symmetric",
        algorithm="failed", signature="not-checked")
    tampered = dict(txn, price=490)
    head, _, sig = token.split(b".")
    add("malformed-tampered-payload.jws", head + b"." + b64u(compact(tampered)).encode() + b"." + sig,
        "payload changed after signing (price 4990 → 490), header and signature kept", "transaction", claims_txn,
        failing="signature", reason="signature-mismatch", signature="failed")
    reversed_hdr = apple_header(certs, ("ec-root", "ec-intermediate", "ec-signer"))
    wrong, _ = sign_jws(reversed_hdr, txn_bytes, "ec-signer", certs, pki)
    s = add("malformed-x5c-wrong-order.jws", wrong, "x5c listed root, intermediate, leaf (reversed); signed by the leaf",
            "transaction", claims_txn, failing="chain", reason="wrong-order", chain="failed", root="not-checked",
            leaf_oid="not-checked", intermediate_oid="not-checked", signature="failed")
    s.extra["signature_reason"] = "leaf-key-not-p256"
    no_marker, _ = sign_jws(apple_header(certs, ("ec-no-marker", "ec-intermediate", "ec-root")), txn_bytes,
                            "ec-no-marker", certs, pki)
    add("malformed-leaf-without-marker.jws", no_marker, "signed by a leaf that chains to the root but lacks "
        "1.2.840.113635.100.6.11.1", "transaction", claims_txn, signer="ec-no-marker",
        failing="leaf-oid", reason="leaf-marker-missing", leaf_oid="failed")
    expired, _ = sign_jws(apple_header(certs, ("ec-expired-signer", "ec-intermediate", "ec-root")), txn_bytes,
                          "ec-expired-signer", certs, pki)
    add("malformed-expired-at-signed-date.jws", expired, "signed by a leaf that expired 2016-01-01, signedDate "
        "2024-03-01", "transaction", claims_txn, signer="ec-expired-signer", failing="time-signed-date",
        reason="certificates-not-valid", time_signed_date="failed", time_today="failed")
    # Old notifications lack signedDate: the chain is judged today, or at --at when given.
    undated = {"notificationType": "TEST", "notificationUUID": "7d2f4c1a-3b5e-4f6a-8c9d-0e1f2a3b4c5d",
               "data": {"bundleId": BUNDLE, "environment": "Sandbox"}, "version": "2.0"}
    undated_token, _ = sign_jws(apple_header(certs, ("ec-expired-signer", "ec-intermediate", "ec-root")),
                                compact(undated), "ec-expired-signer", certs, pki)
    add("notification-no-signed-date.jws", undated_token, "a TEST notification without signedDate, signed by a leaf "
        "valid 2015-01-01 .. 2016-01-01: judged today it fails; `verify --at 2015-06-01` judges the chain then, and it passes",
        "notification", {"bundleId": BUNDLE, "environment": "Sandbox", "appAppleId": None}, signer="ec-expired-signer",
        signed=None, failing="time-today", reason="certificates-not-valid", time_signed_date="not-checked", time_today="failed")
    _, der = sign_jws(hdr, txn_bytes, "ec-signer", certs, pki)
    s = add("malformed-der-signature.jws", sig_input + b"." + b64u(der).encode(),
            "the signature as DER ECDSA-Sig-Value (X.509/CMS form) instead of raw r‖s", "transaction", claims_txn,
            failing="signature", reason="signature-is-der", signature="failed")
    s.extra["signature_length"] = len(der)
    s = add("malformed-truncated-signature.jws", token[:-2],
            "the token's last two characters cut: the signature decodes to 63 bytes", "transaction", claims_txn,
            failing="signature", reason="signature-truncated", signature="failed")
    s.extra["signature_length"] = 63
    at = len(head) + 1 + 10  # a character inside the payload segment
    bad = token[:at] + b"+" + token[at + 1:]
    s = add("malformed-bad-base64url.jws", bad, "a '+' (standard base64, not base64url) inside the payload segment",
            "transaction", claims_txn, failing="signature", reason="signature-mismatch", signature="failed")
    s.extra["defect"] = {"offset": at, "length": 1, "about": "'+' is not in the base64url alphabet"}
    dup = txn_bytes[:-1] + b',"bundleId":"com.example.other"}'
    dup_token, _ = sign_jws(hdr, dup, "ec-signer", certs, pki)
    s = add("malformed-duplicate-keys.jws", dup_token, "payload JSON with \"bundleId\" twice (signed as is: the "
            "signature is fine, the decoder must flag the duplicate)", "transaction", claims_txn,
            failing=None, reason=None)
    s.extra["defect"] = {"payload_offset": dup.find(b'"bundleId"', dup.find(b'"bundleId"') + 1),
                         "payload_first_key_offset": dup.find(b'"bundleId"'), "length": len(b'"bundleId"'),
                         "about": "second \"bundleId\" key in the decoded payload JSON"}
    big = txn_bytes[:-1] + b',"quantity":1152921504606846976}'
    big = big.replace(b'"quantity":1,', b"", 1)
    big_token, _ = sign_jws(hdr, big, "ec-signer", certs, pki)
    s = add("malformed-number-2-60.jws", big_token, "\"quantity\": 2^60 (beyond the 53 bits a JSON double holds "
            "exactly); signed as is", "transaction", claims_txn)
    s.extra["defect"] = {"payload_offset": big.find(b"1152921504606846976"), "length": 19,
                         "about": "the number 2^60 = 1152921504606846976 in the decoded payload"}
    utf = txn_bytes.replace(f'"{BUNDLE}.monthly"'.encode(), f'"{BUNDLE}.mon'.encode() + b"\xff\xfe" + b'thly"', 1)
    utf_token, _ = sign_jws(hdr, utf, "ec-signer", certs, pki)
    s = add("malformed-invalid-utf8.jws", utf_token, "productId holds the bytes FF FE (invalid UTF-8); signed as is",
            "transaction", claims_txn)
    s.extra["defect"] = {"payload_offset": utf.find(b"\xff\xfe"), "length": 2,
                         "about": "invalid UTF-8 bytes FF FE inside the productId string"}
    self_check_jws(out, certs)
    return out


def self_check_jws(samples: list[JWSSample], certs: dict[str, bytes]) -> None:
    """Every sample whose signature step should pass verifies with its signer's public key."""
    hashes, serialization, ec, utils = crypto()
    for s in samples:
        tokens = json.loads(s.text)["signedTransactions"] if s.kind == "history" else [s.text.decode("ascii")]
        for t in tokens:
            head, payload, sig = t.split(".")
            if s.steps["signature"] != "passed":
                continue
            raw = base64.urlsafe_b64decode(sig + "=" * (-len(sig) % 4))
            der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
            key = ec_key(PKI, s.signer).public_key()
            key.verify(der, f"{head}.{payload}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if wrong


def without_root(s: JWSSample) -> dict:
    """The root step when no root is supplied: TEST roots are never pinned."""
    if s.steps["root"] == "not-checked":
        return {"root": "not-checked", "reason": "chain-structure-failed"}
    reason = "xcode-testing-not-trusted" if s.signer == "ec-xcode" else "root-not-pinned"
    return {"root": "failed", "reason": reason}


def jws_entry(s: JWSSample) -> dict:
    steps = s.steps
    entry = {
        "file": f"{JWS_DIR}/{s.file}", "committed": True, "demonstrates": s.demonstrates,
        "size": len(s.text), "sha256": hashlib.sha256(s.text).hexdigest(), "kind": s.kind,
        "signer": f"samples/pki/test-{s.signer}.pem", "claims": s.claims,
        "signed_date_ms": s.signed_date_ms,
        "signed_date": None if s.signed_date_ms is None else rfc3339(dt.datetime.fromtimestamp(s.signed_date_ms / 1000, dt.timezone.utc)),
        "verification": {"root": s.anchor, "steps": steps,
                         "verdict": "invalid" if s.failing_step else "valid",
                         "failing_step": s.failing_step, "reason": s.reason,
                         "without_root": without_root(s)},
    }
    entry.update(s.extra)
    return entry


def jws_readme(entries: list[dict]) -> list[str]:
    L = ["", "## StoreKit 2 JWS samples (`jws/`)", "",
         "Compact JWS signed ES256 by the **TEST ONLY** ECDSA PKI (`pki/test-ec-*`): P-384 root and WWDR-like",
         "intermediate (1.2.840.113635.100.6.2.1), P-256 leaf (1.2.840.113635.100.6.11.1). Deterministic RFC 6979",
         "signatures, so the bytes are reproducible. Verify with the root `samples/pki/test-ec-root.cer`",
         "(`xcode-transaction.jws`: `samples/pki/test-ec-xcode.cer`). Steps are judged at `signedDate` and today, with",
         "the sample's own claims as the expected bundle id / environment / app Apple id (not checked when absent).",
         "", "| file | size | what it demonstrates | verdict | first failing step (reason) |", "|---|---|---|---|---|"]
    for e in entries:
        v = e["verification"]
        fail = f"`{v['failing_step']}` ({v['reason']})" if v["failing_step"] else "—"
        L.append(f"| `{e['file']}` | {e['size']:,} B | {e['demonstrates']} | {v['verdict']} | {fail} |")
    L.append("")
    for e in entries:
        v = e["verification"]
        L += [f"### `{e['file']}`", "", f"- SHA-256 `{e['sha256']}`, {e['size']:,} bytes; kind {e['kind']}; "
              f"signer `{e['signer']}`; signedDate {e['signed_date']} ({e['signed_date_ms']})",
              f"- claims: " + ", ".join(f"{k}={json.dumps(c)}" for k, c in e["claims"].items()),
              f"- steps with root `{v['root']}`: " + ", ".join(f"{k} {x}" for k, x in v["steps"].items())]
        if "defect" in e:
            L.append(f"- defect: `{json.dumps(e['defect'])}`")
        L.append("")
    return L


def write_ec_pki(out_pki: Path, certs: dict[str, bytes]) -> list[str]:
    written = []
    for spec, _ in EC_PKI_SPECS:
        (out_pki / f"test-{spec.key}.pem").write_text(der_to_pem(certs[spec.key], "CERTIFICATE"))
        written.append(f"pki/test-{spec.key}.pem")
    for anchor in ("ec-root", "ec-xcode"):
        (out_pki / f"test-{anchor}.cer").write_bytes(certs[anchor])
        written.append(f"pki/test-{anchor}.cer")
    return written


# ---------------------------------------------------------------------------------------------
# Self-checks: what the manifest says must be what the bytes hold
# ---------------------------------------------------------------------------------------------


def self_check(samples: list[Sample]) -> None:
    for s in samples:
        assert len(s.data) < 20_000, f"{s.file} is {len(s.data)} bytes; keep committed samples under 20 KB"
        if s.payload_offset is None or s.file in ("malformed-truncated.receipt", "malformed-length-past-parent.receipt"):
            continue
        attrs = attribute_nodes(s.data, s.payload_offset)
        r = s.receipt
        if r.get("bundle_id") is not None and 2 in attrs:
            assert value_node(s.data, attrs[2][0]).content(s.data).decode() == r["bundle_id"] or s.file in (
                "malformed-tampered.receipt",), s.file
        if 12 in attrs:
            assert value_node(s.data, attrs[12][0]).content(s.data).decode() == r["creation_date"], s.file
        assert len(attrs.get(17, [])) == r["purchase_count"], s.file
        if s.file != "xcode-ber.receipt" and 17 in attrs:
            ids = []
            for a in attrs[17]:
                ia = read_node(s.data, a.children[2].content_start, a.children[2].content_end)
                for x in ia.children:
                    if int.from_bytes(x.children[0].content(s.data), "big") == 1702:
                        ids.append(value_node(s.data, x).content(s.data).decode())
            assert ids == r["product_ids"], (s.file, ids)
        # A sample that expects no diagnostics must be strict DER throughout, payload included.
        if not s.diagnostics:
            problems = der_violations(s.data, s.payload_offset)
            assert not problems, (s.file, problems)


def der_violations(data: bytes, payload_offset: int) -> list[str]:
    """Indefinite or non-minimal lengths and unsorted SETs, in the container and in the payload
    (whose attribute values are themselves DER, except raw opaque bytes)."""
    problems = []

    def check(node: Node) -> None:
        first = data[node.offset + 1]
        if node.indefinite:
            problems.append(f"indefinite length at {node.offset}")
        elif first & 0x80 and der_length(node.content_end - node.content_start) != data[node.offset + 1 : node.content_start]:
            problems.append(f"non-minimal length at {node.offset}")
        if node.tag == TAG_SET and first_unsorted(data, node) is not None:
            problems.append(f"unsorted SET at {node.offset}")
        for c in node.children:
            check(c)

    check(parse(data))
    payload = read_node(data, payload_offset, len(data))
    check(payload)
    for attr in payload.children:
        value = attr.children[2]
        try:
            inner = read_node(data, value.content_start, value.content_end)
        except Exception:
            continue  # raw bytes (opaque value, hash, Apple-private blobs)
        if inner.end == value.content_end and inner.tag in (TAG_SET, TAG_SEQUENCE):
            check(inner)
    return problems


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------------
# Diff pairs (samples/diff/): inputs for `receipt-explorer diff`, each with the entries expected
# ---------------------------------------------------------------------------------------------

DIFF_DIR = "diff"


def diff_receipt(extra: list[Purchase] | None = None, refund: bool = False) -> Receipt:
    """The base receipt of the diff pairs: two one-off purchases and a two-period subscription chain."""
    p = BUNDLE
    pro = Purchase(f"{p}.pro", "2000000600000002", "2023-12-01T09:00:00Z", kind="non-consumable")
    if refund:
        pro.cancellation_date, pro.cancellation_reason, pro.kind = "2024-02-28T10:00:00Z", 0, "refunded"
    purchases = [Purchase(f"{p}.coins100", "2000000600000001", "2024-01-10T10:00:00Z", kind="consumable"), pro]
    purchases += [diff_period(i) for i in range(2)]
    return Receipt("ProductionSandbox", p, "2.3.1", "1.0", "2024-03-01T12:00:00Z", app_item_id=APP_ID,
                   original_purchase_date="2023-06-01T09:00:00Z", purchases=purchases + (extra or []))


def diff_period(i: int) -> Purchase:
    """Period i of the monthly chain that starts 2024-01-20 (original transaction 2000000610000000)."""
    start = dt.datetime(2024, 1 + i, 20, 12, tzinfo=dt.timezone.utc)
    end = dt.datetime(2024, 2 + i, 20, 12, tzinfo=dt.timezone.utc)
    return Purchase(f"{BUNDLE}.monthly", f"20000006100000{i:02d}", rfc3339(start),
                    original_transaction_id="2000000610000000", original_purchase_date="2024-01-20T12:00:00Z",
                    product_type=3, expires_date=rfc3339(end), web_order_line_item_id=2000000042000000 + i,
                    kind=f"subscription period {i}")


def ms(rfc: str) -> int:
    return epoch(rfc) * 1000


def purchase_transaction(p: Purchase) -> dict:
    """The StoreKit 2 transaction payload of a receipt purchase, field for field (dates as milliseconds)."""
    t = {"transactionId": p.transaction_id, "originalTransactionId": p.original_transaction_id or p.transaction_id,
         "bundleId": BUNDLE, "productId": p.product_id, "purchaseDate": ms(p.purchase_date),
         "originalPurchaseDate": ms(p.original_purchase_date or p.purchase_date), "quantity": p.quantity,
         "type": "Auto-Renewable Subscription" if p.product_type == 3 else "Non-Consumable",
         "inAppOwnershipType": "PURCHASED", "signedDate": SIGNED_MS, "environment": "Sandbox",
         "storefront": "USA", "storefrontId": "143441", "price": 4990, "currency": "USD"}
    if p.expires_date:
        t["expiresDate"] = ms(p.expires_date)
    if p.web_order_line_item_id:
        t["webOrderLineItemId"] = str(p.web_order_line_item_id)
    if p.cancellation_date:  # a refund: StoreKit 2 says revocationDate where receipts say cancellation_date
        t["revocationDate"] = ms(p.cancellation_date)
        t["revocationReason"] = p.cancellation_reason or 0
    return t


def rfc2253(cn: str) -> str:
    """The subject `name(cn)` encodes, as OpenSSL prints it in RFC 2253 order (last RDN first)."""
    return f"CN={cn},OU=TEST ONLY - not Apple,O=receipt-explorer TEST,C=US"


def located(data: bytes, encoded: bytes) -> list[int]:
    """The file range of an encoding that occurs once in `data`."""
    at = data.find(encoded)
    assert at >= 0 and data.find(encoded, at + 1) < 0, "a diff pair's element must occur exactly once"
    return [at, at + len(encoded)]


def value_range(data: bytes, type_: int, value: bytes, within: list[int]) -> list[int]:
    """The file range of an attribute's value TLV (the OCTET STRING's content) inside `within`."""
    enc = attribute(type_, value)
    at = data.find(enc, within[0], within[1])
    assert at >= 0
    return [at + len(enc) - len(value), at + len(enc)]


def build_diff(certs: dict[str, bytes]) -> tuple[list[dict], dict[str, bytes]]:
    files: dict[str, bytes] = {}
    base = diff_receipt()
    payload = base.payload()
    files["base.receipt"] = sign(payload, "receipt-signer", APPLE_CHAIN)
    files["base-ber.receipt"] = sign(payload, "receipt-signer", APPLE_CHAIN, stream=True)
    files["resigned.receipt"] = sign(payload, "expired-signer", APPLE_CHAIN)
    added = Purchase(f"{BUNDLE}.coins500", "2000000600000003", "2024-02-25T08:00:00Z", quantity=2, kind="consumable")
    files["purchase-added.receipt"] = sign(diff_receipt([added]).payload(), "receipt-signer", APPLE_CHAIN)
    files["refund.receipt"] = sign(diff_receipt(refund=True).payload(), "receipt-signer", APPLE_CHAIN)
    files["renewal.receipt"] = sign(diff_receipt([diff_period(2)]).payload(), "receipt-signer", APPLE_CHAIN)
    hdr = apple_header(certs)
    txn = transaction_payload("2000000610000001", f"{BUNDLE}.monthly", ms("2024-02-20T12:00:00Z"))
    files["transaction-a.jws"] = sign_jws(hdr, compact(txn), "ec-signer", certs, PKI)[0]
    files["transaction-b.jws"] = sign_jws(hdr, compact(dict(txn, price=5990)), "ec-signer", certs, PKI)[0]
    token = lambda p: sign_jws(hdr, compact(purchase_transaction(p)), "ec-signer", certs, PKI)[0]

    def history(purchases: list[Purchase], revision: str = "1709294400000_2000000610000001") -> bytes:
        body = {"revision": revision, "bundleId": BUNDLE, "appAppleId": APP_ID, "environment": "Sandbox",
                "hasMore": False, "signedTransactions": [token(p).decode() for p in purchases]}
        return (json.dumps(body, indent=2) + "\n").encode()

    files["history.json"] = history(base.purchases)
    files["history-added.json"] = history(diff_receipt([added]).purchases, revision="1709294400000_2000000600000003")
    files["history-refund.json"] = history(diff_receipt(refund=True).purchases)
    files["history-renewal.json"] = history(diff_receipt([diff_period(2)]).purchases)
    files["transaction-pro.jws"] = token(base.purchases[1])
    # transaction-a re-encoded: keys in reverse order, spaces after ':' and ',', '/' escaped as '\/'
    # in the header (its x5c base64), and signed again over the new text.
    spaced = lambda obj: json.dumps(obj, separators=(", ", ": "), ensure_ascii=False).replace("/", "\\/").encode()
    reencoded_input = (b64u(spaced(hdr)) + "." + b64u(spaced(dict(reversed(list(txn.items())))))).encode()
    files["transaction-a-reencoded.jws"] = reencoded_input + b"." + b64u(der_to_raw(ec_sign_der(ec_key(PKI, "ec-signer"), reencoded_input))).encode()
    # transaction-a with base64 padding on every segment that needs it: the same bytes, the same signature.
    pad = lambda segment: segment + b"=" * (-len(segment) % 4)
    files["transaction-a-padded.jws"] = b".".join(pad(part) for part in files["transaction-a.jws"].split(b"."))

    d = files
    cert = lambda key: {"sha256": hashlib.sha256(pem_to_der(cert_path(PKI, key).read_text())).hexdigest().upper(),
                        "file_range": located(d["base.receipt" if key == "receipt-signer" else "resigned.receipt"],
                                              pem_to_der(cert_path(PKI, key).read_text()))}
    pro_a = located(d["base.receipt"], attribute(17, diff_receipt().purchases[1].encode()))
    pro_b = located(d["refund.receipt"], attribute(17, diff_receipt(refund=True).purchases[1].encode()))
    pairs = [
        {"a": "base.receipt", "b": "purchase-added.receipt", "comparison": "receipts", "equivalent": False,
         "demonstrates": "a purchase added (coins500, transaction 2000000600000003)",
         "semantic": [{"kind": "purchase-added", "subject": added.product_id, "key": added.transaction_id,
                       "b_file_range": located(d["purchase-added.receipt"], attribute(17, added.encode()))},
                      {"kind": "signature-changed", "subject": "signature"}]},
        {"a": "base.receipt", "b": "refund.receipt", "comparison": "receipts", "equivalent": False,
         "demonstrates": "a refund: the pro purchase gains a cancellation date (and reason 0)",
         "semantic": [{"kind": "refund", "subject": f"{BUNDLE}.pro", "key": "2000000600000002",
                       "a_file_range": pro_a, "b_file_range": pro_b,
                       "fields": [{"kind": "attribute-changed", "subject": "cancellation date (in-app 1712)",
                                   "a": "", "b": "2024-02-28T10:00:00Z",
                                   "b_file_range": value_range(d["refund.receipt"], 1712, ia5("2024-02-28T10:00:00Z"), pro_b)},
                                  {"kind": "attribute-added", "subject": "cancellation reason (in-app 1720)",
                                   "b": "0", "b_file_range": value_range(d["refund.receipt"], 1720, integer(0), pro_b)}]},
                      {"kind": "signature-changed", "subject": "signature"}]},
        {"a": "base.receipt", "b": "renewal.receipt", "comparison": "receipts", "equivalent": False,
         "demonstrates": "a renewal: period 2 of the monthly chain 2000000610000000",
         "semantic": [{"kind": "renewal", "subject": f"{BUNDLE}.monthly", "key": "2000000610000002",
                       "b_file_range": located(d["renewal.receipt"], attribute(17, diff_period(2).encode()))},
                      {"kind": "signature-changed", "subject": "signature"}]},
        {"a": "base.receipt", "b": "base-ber.receipt", "comparison": "receipts", "equivalent": True,
         "demonstrates": "the same receipt re-encoded by `openssl cms -stream`: BER indefinite lengths and a "
                         "chunked OCTET STRING against DER; same content, same signature",
         "semantic": [], "structural_kinds": ["reencoded"]},
        {"a": "base.receipt", "b": "resigned.receipt", "comparison": "receipts", "equivalent": False,
         "demonstrates": "the same payload re-signed by another signing certificate",
         "semantic": [{"kind": "resigned", "subject": "receipt"},
                      {"kind": "certificate-removed", "subject": rfc2253("receipt-explorer TEST Receipt Signing"),
                       "key": cert("receipt-signer")["sha256"], "a_file_range": cert("receipt-signer")["file_range"]},
                      {"kind": "certificate-added", "subject": rfc2253("receipt-explorer TEST Receipt Signing (expired 2016)"),
                       "key": cert("expired-signer")["sha256"], "b_file_range": cert("expired-signer")["file_range"]},
                      {"kind": "signature-changed", "subject": "signature"}]},
        {"a": "transaction-a.jws", "b": "transaction-b.jws", "comparison": "jws", "equivalent": False,
         "demonstrates": "a StoreKit 2 transaction whose price changed (4990 → 5990 milliunits), re-signed",
         "semantic": [{"kind": "field-changed", "subject": "price", "a": "4990 milliunits = 4.990 USD",
                       "b": "5990 milliunits = 5.990 USD"},
                      {"kind": "signature-changed", "subject": "signature"}]},
        {"a": "base.receipt", "b": "history.json", "comparison": "receipt-and-transactions", "equivalent": True,
         "demonstrates": "the receipt against a transaction history response carrying its four transactions",
         "semantic": []},
    ]
    return pairs + jws_diff_pairs(files, token, hdr, added), files


def jws_diff_pairs(d: dict[str, bytes], token, hdr: dict, added: Purchase) -> list[dict]:
    """StoreKit 2 pairs: histories with transactions matched by transactionId, and re-encoded tokens."""
    base, refunded = diff_receipt().purchases, diff_receipt(refund=True).purchases

    def payload_range(file: str, p: Purchase) -> list[int]:
        """The file characters of a transaction's payload segment (what its payload JSON decodes from)."""
        tok = token(p)
        start = located(d[file], tok)[0] + tok.index(b".") + 1
        return [start, start + (len(compact(purchase_transaction(p))) * 8 + 5) // 6]

    segments = d["transaction-a.jws"].split(b".")
    padded = [role for role, seg in zip(("header", "payload", "signature"), segments) if len(seg) % 4]
    escaped = [k for k, cert in enumerate(hdr["x5c"]) if "/" in cert]
    added_entry = lambda file, p: {"kind": "transaction-added", "subject": p.product_id, "key": p.transaction_id,
                                   "b_file_range": payload_range(file, p)}
    refund = lambda file_a: {
        "kind": "refund", "subject": f"{BUNDLE}.pro", "key": "2000000600000002",
        "note": "revocationDate appeared: 2024-02-28T10:00:00.000Z (1709114400000)",
        "a_file_range": payload_range(file_a, base[1]), "b_file_range": payload_range("history-refund.json", refunded[1]),
        "fields": [{"kind": "field-added", "subject": "revocationDate", "b": "2024-02-28T10:00:00.000Z (1709114400000)"},
                   {"kind": "field-added", "subject": "revocationReason"},
                   {"kind": "signature-changed", "subject": "signature"}]}
    return [
        {"a": "history.json", "b": "history-added.json", "comparison": "jws", "equivalent": False,
         "demonstrates": "a transaction history with a transaction added (coins500) and a new revision",
         "semantic": [{"kind": "field-changed", "subject": "revision", "a": "1709294400000_2000000610000001",
                       "b": "1709294400000_2000000600000003"},
                      added_entry("history-added.json", added)],
         "structural_kinds": ["node-added", "content-changed"]},
        {"a": "history.json", "b": "history-refund.json", "comparison": "jws", "equivalent": False,
         "demonstrates": "a transaction history whose pro transaction was refunded: revocationDate and revocationReason "
                         "appeared, matched by transactionId",
         "semantic": [refund("history.json")]},
        {"a": "history.json", "b": "history-renewal.json", "comparison": "jws", "equivalent": False,
         "demonstrates": "a transaction history with period 2 of the monthly chain 2000000610000000: a renewal",
         "semantic": [{"kind": "renewal", "subject": f"{BUNDLE}.monthly", "key": "2000000610000002",
                       "note": "continues subscription chain 2000000610000000",
                       "b_file_range": payload_range("history-renewal.json", diff_period(2))}],
         "structural_kinds": ["node-added"]},
        {"a": "transaction-pro.jws", "b": "history-refund.json", "comparison": "jws", "equivalent": False,
         "demonstrates": "one transaction against a history: its own transaction refunded, the others added",
         "semantic": [refund("transaction-pro.jws")] + [added_entry("history-refund.json", p)
                                                      for p in (base[0], base[2], base[3])]},
        {"a": "transaction-a.jws", "b": "transaction-a-reencoded.jws", "comparison": "jws", "equivalent": False,
         "demonstrates": "the same transaction with its JSON re-encoded (key order, spaces, \\/ escapes) and signed "
                         "again: the fields are equal, the signature is not",
         "semantic": [{"kind": "resigned", "subject": "token"}, {"kind": "signature-changed", "subject": "signature"}],
         "structural": [{"kind": "reencoded", "subject": "header", "note": "whitespace"},
                        {"kind": "reencoded", "subject": "header: x5c", "note": "whitespace"}]
                       + [{"kind": "reencoded", "subject": f"header: x5c[{k}]", "note": "string escapes"} for k in escaped]
                       + [{"kind": "reencoded", "subject": "payload", "note": "key order, whitespace"},
                          {"kind": "content-changed", "subject": "signature"}]},
        {"a": "transaction-a.jws", "b": "transaction-a-padded.jws", "comparison": "jws", "equivalent": True,
         "demonstrates": "the same token with base64 padding on its segments: same bytes, same signature",
         "semantic": [],
         "structural": [{"kind": "reencoded", "subject": f"{role} segment", "note": "base64url padding"} for role in padded]},
    ]


def diff_readme(pairs: list[dict]) -> list[str]:
    L = ["", "## Diff pairs (`diff/`)", "",
         "Inputs for `receipt-explorer diff A B`; `diff_pairs` in manifest.json records the entries expected.", "",
         "| A | B | what differs | equivalent |", "|---|---|---|---|"]
    for p in pairs:
        L.append(f"| `diff/{p['a']}` | `diff/{p['b']}` | {p['demonstrates']} | {'yes' if p['equivalent'] else 'no'} |")
    return L + [""]


def generate(out_dir: Path, swift_file: Path) -> list[str]:
    """Write every committed sample into out_dir (and the Swift file). Returns the written paths."""
    valid = build_valid()
    typical = next(s for s in valid if s.file == "typical.receipt")
    samples = valid + [build_xcode()] + build_malformed(typical)
    self_check(samples)
    verify_all(samples)
    extra = encodings(typical.data)
    m = manifest(samples, extra, PKI)
    certs = ec_certificates(PKI)
    jws = build_jws(PKI, certs)
    m["jws_conventions"] = {
        "steps": "JWSStep ids in report order: " + ", ".join(JWS_STEPS) + "; judged with verification.root as "
                 "the only supplied root and the sample's claims as expectations (not-checked where a claim is null)",
        "failing_step/reason": "the first failing step that decides the verdict, and its JWSFailure code",
        "defect.offset": "character offset in the token text; payload_offset: byte offset in the decoded payload JSON",
    }
    m["jws_samples"] = [jws_entry(j) for j in jws]
    _, serialization, _, _ = crypto()
    helpers = developer.Helpers(b64u=b64u, compact=compact, sign_der=ec_sign_der, der_to_raw=der_to_raw,
                                load_key=lambda p: serialization.load_pem_private_key(p.read_bytes(), password=None),
                                openssl=openssl)
    developer_samples, developer_files = developer.build(SAMPLES, BUNDLE, helpers)
    externals = developer.external_tokens(BUNDLE, APP_ID, helpers)
    m["developer_conventions"] = developer.conventions(BUNDLE)
    m["developer_samples"] = [developer.entry(d) for d in developer_samples]
    m["external_purchase_tokens"] = [{k: v for k, v in e.items() if k != "text"} for e in externals]
    diff_pairs, diff_files = build_diff(certs)
    m["diff_conventions"] = {
        "files": "in samples/diff/; a and b are the two arguments of `receipt-explorer diff a b`",
        "semantic": "the complete semantic entry list in order (kind, subject, key; fields of a purchase entry); "
                    "a receipt whose payload changed is signed anew, hence its signature-changed entry",
        "*_file_range": "[start, end) in the decoded file: a purchase's attribute 17 SEQUENCE, a field's value "
                        "TLV, a certificate's DER",
        "equivalent": "same decoded content (a re-encoding alone is equivalent): exit status 0, else 1",
    }
    m["diff_pairs"] = diff_pairs
    timeline_files, m["timeline"] = timeline_samples.build(sys.modules[__name__], certs)
    apple_files, m["apple_documents"] = apple_documents.build(sys.modules[__name__], certs)

    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for s in samples:
        (out_dir / s.file).write_bytes(s.data)
        written.append(s.file)
    for name_, data in extra.items():
        (out_dir / name_).write_bytes(data)
        written.append(name_)
    (out_dir / "pki").mkdir(exist_ok=True)
    write_pki_readme(out_dir / "pki")
    written.append("pki/README.md")
    written += write_ec_pki(out_dir / "pki", certs)
    (out_dir / JWS_DIR).mkdir(exist_ok=True)
    for j in jws:
        (out_dir / JWS_DIR / j.file).write_bytes(j.text)
        written.append(f"{JWS_DIR}/{j.file}")
    for sub, files in ((developer.DEVELOPER_DIR, developer_files),
                       (developer.EXTERNAL_DIR, {Path(e["file"]).name: e["text"] for e in externals})):
        (out_dir / sub).mkdir(exist_ok=True)
        for name_, data in files.items():
            (out_dir / sub / name_).write_bytes(data)
            written.append(f"{sub}/{name_}")
    (out_dir / DIFF_DIR).mkdir(exist_ok=True)
    for name_, data in diff_files.items():
        (out_dir / DIFF_DIR / name_).write_bytes(data)
        written.append(f"{DIFF_DIR}/{name_}")
    (out_dir / timeline_samples.DIR).mkdir(exist_ok=True)
    for name_, data in timeline_files.items():
        (out_dir / timeline_samples.DIR / name_).write_bytes(data)
        written.append(f"{timeline_samples.DIR}/{name_}")
    (out_dir / apple_documents.DIR).mkdir(exist_ok=True)
    for name_, data in apple_files.items():
        (out_dir / apple_documents.DIR / name_).write_bytes(data)
        written.append(f"{apple_documents.DIR}/{name_}")
    (out_dir / "manifest.json").write_text(json.dumps(m, indent=2, ensure_ascii=True) + "\n")
    (out_dir / "README.md").write_text(readme(m) + "\n".join(jws_readme(m["jws_samples"]) + diff_readme(diff_pairs)
                                                   + timeline_samples.readme(m["timeline"])
                                                   + developer.readme(m["developer_samples"], m["external_purchase_tokens"], BUNDLE)
                                                   + apple_documents.readme(m["apple_documents"])))
    written += ["manifest.json", "README.md"]
    swift_file.parent.mkdir(parents=True, exist_ok=True)
    swift_file.write_text(swift_source(typical.data, (PKI / "test-root.cer").read_bytes()))
    return written


def generate_large(n: int) -> Path:
    r = large_receipt(n)
    payload = r.payload()
    data = sign(payload, "receipt-signer", APPLE_CHAIN)
    out = SAMPLES / "generated" / f"large-{n}.receipt"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    ok, message = openssl_verify(data, PKI / "test-root.pem", epoch(r.creation_date))
    if not ok:
        raise SystemExit(f"{out}: openssl verify failed: {message}")
    return out


def check() -> int:
    """Regenerate into a temp dir and compare byte for byte with the committed files."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        swift = tmp / "EmbeddedSample.swift"
        written = generate(tmp / "samples", swift)
        differ = [f"samples/{f}" for f in written
                  if not (SAMPLES / f).exists() or not filecmp.cmp(tmp / "samples" / f, SAMPLES / f, shallow=False)]
        if not SWIFT_FILE.exists() or not filecmp.cmp(swift, SWIFT_FILE, shallow=False):
            differ.append(str(SWIFT_FILE.relative_to(REPO)))
        committed = {p.name for p in SAMPLES.iterdir() if p.is_file()}
        for sub in (JWS_DIR, DIFF_DIR, timeline_samples.DIR, developer.DEVELOPER_DIR, developer.EXTERNAL_DIR, apple_documents.DIR):
            if (SAMPLES / sub).is_dir():
                committed |= {f"{sub}/{p.name}" for p in (SAMPLES / sub).iterdir() if p.is_file()}
        extra = sorted(committed - set(written))
    if differ or extra:
        for f in differ:
            print(f"differs from a fresh run: {f}", file=sys.stderr)
        for f in extra:
            print(f"not produced by the generator: samples/{f}", file=sys.stderr)
        return 1
    print(f"ok: {len(written)} sample files and {SWIFT_FILE.relative_to(REPO)} are reproducible")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="regenerate into a temp dir; fail if anything differs")
    ap.add_argument("--large", type=int, metavar="N", help="only write samples/generated/large-N.receipt")
    ap.add_argument("--new-pki", action="store_true", help="replace the TEST keys and certificates")
    args = ap.parse_args()

    if args.new_pki or not pki_complete(PKI):
        if args.check:
            print("--check needs the committed PKI in samples/pki", file=sys.stderr)
            return 1
        if PKI.exists() and args.new_pki:
            shutil.rmtree(PKI)
        make_pki(PKI)
        print(f"made a new TEST PKI in {PKI.relative_to(REPO)}")
    if not args.check:
        make_ec_keys(PKI)  # only the missing ones: committed keys are reused
    if args.check:
        return check()
    if args.large is not None:
        out = generate_large(args.large)
        print(f"wrote {out.relative_to(REPO)} ({out.stat().st_size:,} bytes)")
        return 0
    written = generate(SAMPLES, SWIFT_FILE)
    print(f"wrote {len(written)} files to samples/ and {SWIFT_FILE.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
