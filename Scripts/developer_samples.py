"""Developer-signed JWS and external purchase token samples (samples/developer/, samples/external/).

Imported by generate-samples.py, which passes its helpers in (`Helpers`): one base64url, one JSON
encoder, one deterministic ECDSA signer for every sample.

* The developer key is a TEST ONLY In-App Purchase key: a P-256 PKCS#8 private key in PEM, named as
  App Store Connect names the file it hands out (`SubscriptionKey_<KID>.p8`). It is made once by
  `openssl genpkey` and committed; its public half is written beside it (`.pub.pem`).
* Every token is signed ES256 with it (RFC 6979, reproducible). Each kind comes valid and with one
  claim wrong per variant; manifest.json records the steps `verify --key … --bundle-id … --at …`
  must report (`developer_conventions` there says how they are judged).
* External purchase tokens are base64url JSON, unsigned; the manifest records their fields and where
  each member sits in the decoded JSON.
"""

from __future__ import annotations

import base64
import hmac
import hashlib
import json
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

DEVELOPER_DIR = "developer"
EXTERNAL_DIR = "external"
KEY_ID = "TESTKEY001"
KEY_FILE = f"SubscriptionKey_{KEY_ID}.p8"
PUBLIC_KEY_FILE = f"test-developer-key-{KEY_ID}.pub.pem"
ISSUER = str(uuid.uuid5(uuid.NAMESPACE_URL, "receipt-explorer TEST issuer"))
IAT = 1709294400  # 2024-03-01T12:00:00Z
AT = "2024-03-01T12:10:00Z"  # the --at every developer sample is judged at
OTHER_KEY_ID = "OTHERKEY99"


@dataclass
class Helpers:
    b64u: Callable[[bytes], str]
    compact: Callable[[object], bytes]
    sign_der: Callable[[object, bytes], bytes]  # (private key, data) -> DER ECDSA-Sig-Value (RFC 6979)
    der_to_raw: Callable[[bytes], bytes]
    load_key: Callable[[Path], object]
    openssl: Callable[..., object]


@dataclass
class DeveloperSample:
    file: str
    kind: str  # DeveloperTokenKind code
    variant: str
    text: bytes
    steps: dict
    demonstrates: str
    extra: dict = field(default_factory=dict)

    @property
    def failing(self) -> tuple[str | None, str | None]:
        for step, status in self.steps.items():
            if status["status"] == "failed":
                return step, status["reason"]
        return None, None


KINDS = {
    "promotional-offer": "promotional-offer",
    "introductory-offer-eligibility": "introductory-offer-eligibility",
    "advanced-commerce-request": "advanced-commerce-api",
    "server-api-token": "appstoreconnect-v1",
}


def nonce(label: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "receipt-explorer TEST nonce " + label))


def advanced_commerce_request(bundle: str) -> bytes:
    request = {"operation": "CREATE_SUBSCRIPTION", "version": "1",
               "requestInfo": {"requestReferenceId": str(uuid.uuid5(uuid.NAMESPACE_URL, "receipt-explorer TEST request"))},
               "currency": "USD", "storefront": "USA", "taxCode": "C003-00-2", "period": "P1M",
               "descriptors": {"displayName": "TEST Pro", "description": "receipt-explorer TEST subscription"},
               "items": [{"SKU": "com.example.receiptexplorer.pro", "displayName": "TEST Pro",
                          "description": "TEST item", "price": 4990}]}
    return json.dumps(request, separators=(",", ":")).encode()


def payload(kind: str, bundle: str, label: str) -> dict:
    base = {"iss": ISSUER, "iat": IAT, "aud": KINDS[kind], "bid": bundle}
    if kind == "server-api-token":
        return base | {"exp": IAT + 20 * 60}
    base["nonce"] = nonce(label)
    if kind == "promotional-offer":
        return base | {"productId": f"{bundle}.monthly", "offerIdentifier": "TEST_WINBACK_50",
                       "transactionId": "2000000510000000"}
    if kind == "introductory-offer-eligibility":
        return base | {"productId": f"{bundle}.monthly", "allowIntroductoryOffer": False,
                       "transactionId": "2000000510000000"}
    return base | {"request": base64.b64encode(advanced_commerce_request(bundle)).decode()}


def expected_steps(kind: str) -> dict:
    bearer = kind == "server-api-token"
    steps = {"algorithm": ("passed", None), "kid": ("passed", None), "signature": ("passed", None),
             "aud": ("passed", None), "iat": ("passed", None),
             "exp": ("passed", None) if bearer else ("not-checked", "claim-not-in-kind")}
    if bearer:
        steps["token-lifetime"] = ("passed", None)
    steps["bundle-id"] = ("passed", None)
    steps["nonce"] = ("not-checked", "claim-not-in-kind") if bearer else ("passed", None)
    return steps


def build(samples: Path, bundle: str, h: Helpers) -> tuple[list[DeveloperSample], dict[str, bytes]]:
    """The tokens, and every file of samples/developer/ (the key and its public half included)."""
    key_path = samples / DEVELOPER_DIR / KEY_FILE
    if not key_path.exists():
        key_path.parent.mkdir(parents=True, exist_ok=True)
        h.openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", str(key_path))
    key_pem = key_path.read_bytes()
    key = h.load_key(key_path)
    from cryptography.hazmat.primitives import serialization
    public_pem = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)

    def token(header: dict, claims: dict) -> bytes:
        signing_input = (h.b64u(h.compact(header)) + "." + h.b64u(h.compact(claims))).encode()
        return signing_input + b"." + h.b64u(h.der_to_raw(h.sign_der(key, signing_input))).encode()

    header = {"alg": "ES256", "kid": KEY_ID, "typ": "JWT"}
    out: list[DeveloperSample] = []

    def add(kind, variant, text, demonstrates, **changes):
        steps = expected_steps(kind)
        for step, value in changes.items():
            steps[step.replace("_", "-")] = value
        entry = {k: {"status": s, "reason": r} for k, (s, r) in steps.items()}
        name = f"{kind}.jws" if variant == "valid" else f"{kind}-{variant}.jws"
        out.append(DeveloperSample(name, kind, variant, text, entry, demonstrates))

    for kind in KINDS:
        claims = payload(kind, bundle, kind)
        add(kind, "valid", token(header, claims), f"a valid {kind} token signed with the TEST key {KEY_ID}")
        add(kind, "wrong-aud", token(header, claims | {"aud": KINDS[kind] + "-x"}),
            "aud is not the one Apple requires of this kind", aud=("failed", "claim-mismatch"))
        add(kind, "wrong-kid", token(header | {"kid": OTHER_KEY_ID}, claims),
            f"the header names key {OTHER_KEY_ID}, the key given is {KEY_ID}", kid=("failed", "kid-mismatch"))
        add(kind, "no-kid", token({"alg": "ES256", "typ": "JWT"}, claims), "the header has no kid",
            kid=("failed", "kid-missing"))
        future = claims | {"iat": IAT + 86400}
        if kind == "server-api-token":
            future["exp"] = IAT + 86400 + 20 * 60
        add(kind, "iat-future", token(header, future), "iat one day after --at", iat=("failed", "issued-in-future"))
        signed = token(header, claims)
        head, body, sig = signed.split(b".")
        tampered = h.b64u(h.compact(claims | {"iss": ISSUER.replace("-", "0", 1)})).encode()
        add(kind, "tampered", head + b"." + tampered + b"." + sig, "the payload changed after signing (iss)",
            signature=("failed", "developer-signature-mismatch"))
        hs_header = {"alg": "HS256", "kid": KEY_ID, "typ": "JWT"}
        hs_input = (h.b64u(h.compact(hs_header)) + "." + h.b64u(h.compact(claims))).encode()
        mac = hmac.new(b"receipt-explorer TEST secret", hs_input, hashlib.sha256).digest()
        add(kind, "alg-hs256", hs_input + b"." + h.b64u(mac).encode(), "alg HS256, a shared-secret MAC, not ES256",
            algorithm=("failed", "algorithm-symmetric"), signature=("not-checked", "algorithm-rejected"))
        if kind != "server-api-token":
            add(kind, "nonce-uppercase", token(header, claims | {"nonce": claims["nonce"].upper()}),
                "the nonce is a UUID in uppercase", nonce=("failed", "nonce-not-lowercase-uuid"))
            add(kind, "no-nonce", token(header, {k: v for k, v in claims.items() if k != "nonce"}),
                "no nonce", nonce=("failed", "claim-missing"))
        else:
            add(kind, "expired", token(header, claims | {"exp": IAT + 300}), "exp five minutes after iat, before --at",
                exp=("failed", "token-expired"))
            add(kind, "lifetime-61-minutes", token(header, claims | {"exp": IAT + 61 * 60}),
                "exp 61 minutes after iat: Apple accepts at most 60", token_lifetime=("failed", "lifetime-too-long"))
            add(kind, "no-exp", token(header, {k: v for k, v in claims.items() if k != "exp"}), "no exp",
                exp=("failed", "claim-missing"), token_lifetime=("not-checked", "lifetime-unknown"))
    for s in out:
        if s.kind == "advanced-commerce-request" and s.variant == "valid":
            body = json.loads(base64.urlsafe_b64decode(s.text.split(b".")[1] + b"=="))
            request = base64.b64decode(body["request"])
            s.extra["request"] = {"bytes": len(request), "operation": "CREATE_SUBSCRIPTION",
                                  "payload_offset": h.compact(body).find(body["request"].encode())}
    files = {KEY_FILE: key_pem, PUBLIC_KEY_FILE: public_pem}
    files.update({s.file: s.text for s in out})
    return out, files


def entry(s: DeveloperSample) -> dict:
    step, reason = s.failing
    e = {"file": f"{DEVELOPER_DIR}/{s.file}", "kind": s.kind, "variant": s.variant, "demonstrates": s.demonstrates,
         "size": len(s.text), "sha256": hashlib.sha256(s.text).hexdigest(), "steps": s.steps,
         "verdict": "invalid" if step else "valid", "failing_step": step, "reason": reason}
    e.update(s.extra)
    return e


def conventions(bundle: str) -> dict:
    return {
        "key": f"{DEVELOPER_DIR}/{KEY_FILE}: TEST ONLY P-256 PKCS#8 private key (kid {KEY_ID} from its name); "
               f"{DEVELOPER_DIR}/{PUBLIC_KEY_FILE} is its public half",
        "judged": f"verify FILE --key {DEVELOPER_DIR}/{KEY_FILE} --bundle-id {bundle} --at {AT}",
        "steps": "step id -> status and reason code, in report order",
        "failing_step/reason": "the first failed step and its reason code",
    }


# External purchase tokens -------------------------------------------------------------------------

def external_tokens(bundle: str, app_id: int, h: Helpers) -> list[dict]:
    created = IAT * 1000
    tokens = [
        ("external-purchase-token.txt", "a production external purchase token (tokenType ACQUISITION)",
         {"appAppleId": app_id, "bundleId": bundle, "tokenCreationDate": created,
          "externalPurchaseId": str(uuid.uuid5(uuid.NAMESPACE_URL, "receipt-explorer TEST external 1")),
          "tokenType": "ACQUISITION"}),
        ("external-purchase-token-sandbox.txt", "a sandbox token: externalPurchaseId starts SANDBOX_ (tokenType SERVICES)",
         {"appAppleId": app_id, "bundleId": bundle, "tokenCreationDate": created,
          "externalPurchaseId": "SANDBOX_" + str(uuid.uuid5(uuid.NAMESPACE_URL, "receipt-explorer TEST external 2")),
          "tokenType": "SERVICES"}),
        ("external-purchase-token-unknown.txt", "a field and a tokenType value not in the schema (kept, flagged info)",
         {"appAppleId": app_id, "bundleId": bundle, "tokenCreationDate": created,
          "externalPurchaseId": str(uuid.uuid5(uuid.NAMESPACE_URL, "receipt-explorer TEST external 3")),
          "tokenType": "PARTNERSHIP", "storefront": "FRA"}),
    ]
    out = []
    for name, what, fields in tokens:
        json_bytes = h.compact(fields)
        text = (h.b64u(json_bytes) + "\n").encode()
        members = {k: {"json_offset": json_bytes.find(f'"{k}"'.encode()), "key_length": len(k) + 2} for k in fields}
        out.append({"file": f"{EXTERNAL_DIR}/{name}", "demonstrates": what, "text": text,
                    "size": len(text), "sha256": hashlib.sha256(text).hexdigest(), "characters": len(text) - 1,
                    "json_bytes": len(json_bytes), "fields": fields, "members": members,
                    "sandbox": fields["externalPurchaseId"].startswith("SANDBOX_")})
    return out


def readme(entries: list[dict], externals: list[dict], bundle: str) -> list[str]:
    L = ["", "## Developer-signed JWS (`developer/`)", "",
         f"Signed ES256 by the **TEST ONLY** In-App Purchase key `{DEVELOPER_DIR}/{KEY_FILE}` (kid `{KEY_ID}`; public",
         f"half `{DEVELOPER_DIR}/{PUBLIC_KEY_FILE}`). Judged as `{conventions(bundle)['judged']}`.", "",
         "| file | kind | what it demonstrates | verdict | first failing step (reason) |", "|---|---|---|---|---|"]
    for e in entries:
        fail = f"`{e['failing_step']}` ({e['reason']})" if e["failing_step"] else "—"
        L.append(f"| `{e['file']}` | {e['kind']} | {e['demonstrates']} | {e['verdict']} | {fail} |")
    L += ["", "## External purchase tokens (`external/`)", "",
          "base64url JSON, unsigned, as StoreKit's external purchase APIs hand them to an app.", "",
          "| file | what it demonstrates | externalPurchaseId | tokenType |", "|---|---|---|---|"]
    for e in externals:
        L.append(f"| `{e['file']}` | {e['demonstrates']} | `{e['fields']['externalPurchaseId']}` | {e['fields']['tokenType']} |")
    return L + [""]
