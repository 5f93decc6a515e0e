#!/usr/bin/env python3
"""A stand-in for the App Store Server API on 127.0.0.1, for the `api` command tests (and for
checking Apple's own Python library against the same server: Scripts/api-parity.py).

It checks the bearer token as Apple does (ES256 by the key id's public key; iss, aud
appstoreconnect-v1, bid, iat/exp with exp - iat <= 3600 and exp not passed) and answers 401
otherwise; serves Apple's documented response bodies whose tokens are signed by the TEST ONLY chain
in samples/pki (trust it with --root samples/pki/test-ec-root.cer); pages history, refunds and
notification history (two pages each); answers transaction 2000000000000429 with one 429
(Retry-After: 1) before the answer and 2000000000000500 with one 500; and answers an unknown
transaction id with Apple's error body (4040010). Under /hostile/<mode>/ it misbehaves: big (a
50 MB body), notjson, redirect (to itself, forever), stall (no answer for 60 s), loop (history that
repeats its revision).

    storekit-standin.py --workdir DIR

makes a throwaway P-256 In-App Purchase key DIR/SubscriptionKey_STANDIN01.p8 (never commit one),
prints one JSON line {"port", "key", "key_id", "issuer", "bundle_id"} and serves until killed.
Every request is logged to DIR/requests.jsonl (method, path, query, body, headers, the token's
header and claims, and the Authorization value apart, so tests can check it leaks nowhere) and every body served to DIR/served/NNNN.json.
"""

from __future__ import annotations

import argparse
import base64
import json
import signal
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from cryptography.exceptions import InvalidSignature
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

KEY_ID = "STANDIN01"
ISSUER = "57246542-96fe-1a63-e053-0824d011072a"  # the example issuer of Apple's documentation
BUNDLE = "com.example.standin"
APP_APPLE_ID = 1234567890
SIGNED_MS = 1740830400000  # 2025-03-01T12:00:00Z
DAY = 86_400_000
PKI = Path(__file__).resolve().parent.parent / "samples" / "pki"


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64u_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def compact(obj) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


class Signer:
    """ES256 by the test StoreKit signer, with x5c leaf ← intermediate ← root."""

    def __init__(self):
        self.key = serialization.load_pem_private_key((PKI / "test-only-ec-signer.key").read_bytes(), None)
        def der(name):
            cert = x509.load_pem_x509_certificate((PKI / name).read_bytes())
            return base64.b64encode(cert.public_bytes(serialization.Encoding.DER)).decode()
        self.x5c = [der("test-ec-signer.pem"), der("test-ec-intermediate.pem"), der("test-ec-root.pem")]

    def token(self, payload: dict) -> str:
        head = b64u(compact({"alg": "ES256", "x5c": self.x5c})) + "." + b64u(compact(payload))
        r, s = decode_dss_signature(self.key.sign(head.encode(), ec.ECDSA(hashes.SHA256())))
        return head + "." + b64u(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


def transaction(txn: str, n: int, **extra) -> dict:
    purchase = SIGNED_MS - (3 - n) * 30 * DAY
    t = {"transactionId": txn, "originalTransactionId": "2000000000000001", "webOrderLineItemId": str(2000000000100000 + n),
         "bundleId": BUNDLE, "productId": "com.example.standin.monthly", "subscriptionGroupIdentifier": "21000001",
         "purchaseDate": purchase, "originalPurchaseDate": SIGNED_MS - 90 * DAY, "expiresDate": purchase + 30 * DAY,
         "quantity": 1, "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED", "signedDate": SIGNED_MS,
         "environment": "Sandbox", "transactionReason": "PURCHASE" if n == 0 else "RENEWAL", "storefront": "USA",
         "storefrontId": "143441", "price": 9990, "currency": "USD", "appTransactionId": "704000000000000001"}
    t.update(extra)
    return t


class StandIn:
    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.signer = Signer()
        self.api_key = ec.generate_private_key(ec.SECP256R1())
        key_path = workdir / f"SubscriptionKey_{KEY_ID}.p8"
        key_path.write_bytes(self.api_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                        serialization.NoEncryption()))
        self.key_path = key_path
        (workdir / "served").mkdir(exist_ok=True)
        self.lock = threading.Lock()
        self.sequence = 0
        self.counts: dict[str, int] = {}

    def count(self, what: str) -> int:
        with self.lock:
            self.counts[what] = self.counts.get(what, 0) + 1
            return self.counts[what]

    def record(self, entry: dict, body: bytes | None) -> None:
        with self.lock:
            self.sequence += 1
            entry["sequence"] = self.sequence
            if body is not None:
                name = f"{self.sequence:04d}.json"
                (self.workdir / "served" / name).write_bytes(body)
                entry["served"] = name
            with open(self.workdir / "requests.jsonl", "a") as log:
                log.write(json.dumps(entry) + "\n")

    # -- the token, as Apple checks it ---------------------------------------------------------

    def check_token(self, authorization: str | None) -> tuple[str | None, dict, dict]:
        """(refusal or None, header, claims)."""
        if not authorization or not authorization.startswith("Bearer "):
            return "no bearer token", {}, {}
        parts = authorization[len("Bearer "):].split(".")
        if len(parts) != 3:
            return "not a compact JWS", {}, {}
        try:
            header, claims = json.loads(b64u_decode(parts[0])), json.loads(b64u_decode(parts[1]))
            raw = b64u_decode(parts[2])
        except Exception:
            return "undecodable token", {}, {}
        if header.get("alg") != "ES256" or header.get("typ") != "JWT" or header.get("kid") != KEY_ID:
            return "header", header, claims
        if len(raw) != 64:
            return "signature length", header, claims
        try:
            der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
            self.api_key.public_key().verify(der, (parts[0] + "." + parts[1]).encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return "signature", header, claims
        now = int(time.time())
        iat, exp = claims.get("iat"), claims.get("exp")
        if claims.get("iss") != ISSUER or claims.get("aud") != "appstoreconnect-v1" or claims.get("bid") != BUNDLE:
            return "claims", header, claims
        if not isinstance(exp, int) or exp <= now or (isinstance(iat, int) and (exp - iat > 3600 or iat > now + 60)):
            return "time", header, claims
        return None, header, claims

    # -- Apple's documented bodies -------------------------------------------------------------

    def answer(self, method: str, path: str, query: list, body: bytes) -> tuple[int, dict, object]:
        """(status, extra headers, JSON body or None)."""
        q = dict(query)
        parts = path.strip("/").split("/")
        not_found = (404, {}, {"errorCode": 4040010, "errorMessage": "Transaction id not found."})
        if parts[:3] == ["inApps", "v1", "transactions"] and len(parts) == 5 and parts[3] == "appTransactions":
            if parts[4] != "2000000000000001":
                return not_found
            app = {"receiptType": "Sandbox", "appAppleId": APP_APPLE_ID, "bundleId": BUNDLE, "applicationVersion": "1.0",
                   "versionExternalIdentifier": 0, "receiptCreationDate": SIGNED_MS, "requestDate": SIGNED_MS,
                   "originalApplicationVersion": "1.0", "originalPurchaseDate": SIGNED_MS - 90 * DAY,
                   "deviceVerification": "", "deviceVerificationNonce": str(uuid.UUID(int=1)), "signedDate": SIGNED_MS,
                   "appTransactionId": "704000000000000001", "originalPlatform": "iOS"}
            return 200, {}, {"signedAppTransactionInfo": self.signer.token(app)}
        if parts[:3] == ["inApps", "v1", "transactions"] and len(parts) == 4:
            txn = parts[3]
            if txn in ("2000000000000429", "2000000000000500") and self.count(txn) % 2 == 1:
                if txn.endswith("429"):
                    return 429, {"Retry-After": "1"}, {"errorCode": 4290000, "errorMessage": "Rate limit exceeded."}
                return 500, {}, {"errorCode": 5000000, "errorMessage": "An unknown error occurred."}
            if txn not in ("2000000000000001", "2000000000000429", "2000000000000500"):
                return not_found
            return 200, {}, {"signedTransactionInfo": self.signer.token(transaction(txn, 0))}
        if parts[:3] == ["inApps", "v2", "history"] and len(parts) == 4:
            if parts[3] != "2000000000000001":
                return not_found
            if q.get("revision") == "standin-revision-2":
                return 200, {}, self.history([transaction("2000000000000003", 2)], "standin-revision-3", False)
            return 200, {}, self.history([transaction("2000000000000001", 0), transaction("2000000000000002", 1)], "standin-revision-2", True)
        if parts[:3] == ["inApps", "v1", "subscriptions"] and len(parts) == 4:
            if parts[3] != "2000000000000001":
                return not_found
            renewal = {"originalTransactionId": "2000000000000001", "autoRenewProductId": "com.example.standin.monthly",
                       "productId": "com.example.standin.monthly", "autoRenewStatus": 1, "signedDate": SIGNED_MS,
                       "environment": "Sandbox", "recentSubscriptionStartDate": SIGNED_MS - 90 * DAY,
                       "renewalDate": SIGNED_MS + 30 * DAY, "appTransactionId": "704000000000000001"}
            last = {"status": 1, "originalTransactionId": "2000000000000001",
                    "signedTransactionInfo": self.signer.token(transaction("2000000000000003", 2)),
                    "signedRenewalInfo": self.signer.token(renewal)}
            return 200, {}, {"environment": "Sandbox", "bundleId": BUNDLE, "appAppleId": APP_APPLE_ID,
                             "data": [{"subscriptionGroupIdentifier": "21000001", "lastTransactions": [last]}]}
        if parts[:4] == ["inApps", "v2", "refund", "lookup"] and len(parts) == 5:
            if parts[4] != "2000000000000001":
                return not_found
            refunded = lambda txn, n: transaction(txn, n, revocationDate=SIGNED_MS - DAY, revocationReason=0)
            if q.get("revision") == "standin-refunds-2":
                return 200, {}, {"signedTransactions": [self.signer.token(refunded("2000000000000002", 1))],
                                 "revision": "standin-refunds-3", "hasMore": False}
            return 200, {}, {"signedTransactions": [self.signer.token(refunded("2000000000000001", 0))],
                             "revision": "standin-refunds-2", "hasMore": True}
        if parts[:3] == ["inApps", "v1", "lookup"] and len(parts) == 4:
            if parts[3] != "MK5TTTVWJH":
                return 200, {}, {"status": 1}
            return 200, {}, {"status": 0, "signedTransactions": [self.signer.token(transaction("2000000000000001", 0))]}
        if path == "/inApps/v1/notifications/history" and method == "POST":
            try:
                request = json.loads(body)
                assert isinstance(request.get("startDate"), int) and isinstance(request.get("endDate"), int)
            except Exception:
                return 400, {}, {"errorCode": 4000000, "errorMessage": "Invalid request."}
            second = q.get("paginationToken") == "standin-page-2"
            n = 1 if second else 0
            items = [{"sendAttempts": [{"attemptDate": SIGNED_MS + n, "sendAttemptResult": "SUCCESS"}],
                      "signedPayload": self.notification("DID_RENEW" if second else "SUBSCRIBED", "" if second else "INITIAL_BUY",
                                                         transaction("2000000000000002" if second else "2000000000000001", n + 0))}]
            page = {"notificationHistory": items, "hasMore": not second}
            if not second:
                page["paginationToken"] = "standin-page-2"
            return 200, {}, page
        if path == "/inApps/v1/notifications/test" and method == "POST":
            return 200, {}, {"testNotificationToken": "ce3af791-365e-4c60-841b-1674b43c1609_1740830400000"}
        if parts[:4] == ["inApps", "v1", "notifications", "test"] and len(parts) == 5:
            if parts[4] != "ce3af791-365e-4c60-841b-1674b43c1609_1740830400000":
                return 404, {}, {"errorCode": 4040008, "errorMessage": "Test notification not found."}
            payload = {"notificationType": "TEST", "notificationUUID": str(uuid.UUID(int=7)), "version": "2.0",
                       "signedDate": SIGNED_MS, "data": {"bundleId": BUNDLE, "environment": "Sandbox", "appAppleId": APP_APPLE_ID}}
            return 200, {}, {"signedPayload": self.signer.token(payload),
                             "sendAttempts": [{"attemptDate": SIGNED_MS, "sendAttemptResult": "SUCCESS"}]}
        return 404, {}, {"errorCode": 4040010, "errorMessage": "Transaction id not found."} if "transactions" in path else None

    def history(self, txns: list, revision: str, more: bool) -> dict:
        return {"revision": revision, "hasMore": more, "bundleId": BUNDLE, "appAppleId": APP_APPLE_ID, "environment": "Sandbox",
                "signedTransactions": [self.signer.token(t) for t in txns]}

    def notification(self, kind: str, subtype: str, txn: dict) -> str:
        payload = {"notificationType": kind, "notificationUUID": str(uuid.uuid5(uuid.NAMESPACE_URL, kind + txn["transactionId"])),
                   "data": {"appAppleId": APP_APPLE_ID, "bundleId": BUNDLE, "bundleVersion": "1", "environment": "Sandbox",
                            "signedTransactionInfo": self.signer.token(txn), "status": 1},
                   "version": "2.0", "signedDate": SIGNED_MS}
        if subtype:
            payload["subtype"] = subtype
        return self.signer.token(payload)


def handler(standin: StandIn):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):  # quiet: the log file is the record
            pass

        def do_GET(self):
            self.handle_any("GET")

        def do_POST(self):
            self.handle_any("POST")

        def handle_any(self, method: str):
            url = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            path, mode = url.path, None
            if path.startswith("/hostile/"):
                mode = path.split("/")[2]
                path = "/" + "/".join(path.split("/")[3:])
            query = parse_qsl(url.query, keep_blank_values=True)
            refusal, header, claims = standin.check_token(self.headers.get("Authorization"))
            entry = {"method": method, "path": path, "query": query, "body": body.decode("utf-8", "replace") if body else None,
                     "headers": {k: v for k, v in self.headers.items() if k.lower() not in ("authorization", "host", "content-length")},
                     "token_header": header, "claims": claims, "hostile": mode,
                     # The token itself, for the tests that check it appears in no output: the tool never prints it.
                     "authorization": self.headers.get("Authorization")}
            if refusal:
                entry.update(status=401, refusal=refusal)
                standin.record(entry, None)
                return self.send(401, {}, b"", "text/plain")
            if mode == "big":
                entry["status"] = 200
                standin.record(entry, None)
                return self.big()
            if mode == "notjson":
                entry["status"] = 200
                standin.record(entry, None)
                return self.send(200, {}, b"<html><body>Service Unavailable</body></html>", "text/html")
            if mode == "redirect":
                entry["status"] = 302
                standin.record(entry, None)
                return self.send(302, {"Location": self.path}, b"", "text/plain")
            if mode == "stall":
                entry["status"] = None
                standin.record(entry, None)
                time.sleep(60)
                return
            if mode == "loop":
                status, extra, payload = 200, {}, standin.history([transaction("2000000000000001", 0)], "same-revision", True)
            else:
                status, extra, payload = standin.answer(method, path, query, body)
            data = compact(payload) if payload is not None else b""
            entry["status"] = status
            standin.record(entry, data if status == 200 else None)
            self.send(status, extra, data, "application/json" if payload is not None else "text/plain")

        def send(self, status: int, extra: dict, data: bytes, content_type: str):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for k, v in extra.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        def big(self):
            size = 50 * 1024 * 1024
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(size))
            self.end_headers()
            chunk = b"[" * 65536
            try:
                for _ in range(size // len(chunk)):
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass

    return Handler


def main() -> None:
    # A test runner may start us with SIGTERM blocked (children inherit the mask): unblock it, so the
    # ordinary way of stopping a server works.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", required=True, type=Path)
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    standin = StandIn(args.workdir)
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler(standin))
    server.daemon_threads = True
    print(json.dumps({"port": server.server_address[1], "key": str(standin.key_path), "key_id": KEY_ID,
                      "issuer": ISSUER, "bundle_id": BUNDLE}), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
