"""Samples of Apple's newest documents (samples/apple/): the App Store Server API responses named by
their shape, Retention Messaging's real-time request and the four responses a developer returns,
and legacy (V1) promotional offer signatures. Shapes from Apple's app-store-server-library 3.1
models; every value here is made up.

Called by generate-samples.py (`build(g, certs)`, g = that module: its base64url, JSON and
deterministic ES256 signer, the TEST EC chain for Apple-signed tokens, the developer TEST key for
developer-signed ones); the files go to samples/apple/, the facts tests assert to manifest.json's
`apple_documents`.
"""

from __future__ import annotations

import base64
import json
import uuid
from pathlib import Path

import developer_samples as developer

DIR = "apple"
SEPARATOR = "\u2063"  # INVISIBLE SEPARATOR, between the V1 signature's fields


def uid(label: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "receipt-explorer TEST apple documents " + label))


def pretty(obj) -> bytes:
    return (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode()


def v1_message(bundle: str, key_id: str, product: str, offer: str, account: str, nonce: str, timestamp: int) -> str:
    """The string a V1 promotional offer signature covers (UUIDs lowercase, timestamp in ms)."""
    return SEPARATOR.join([bundle, key_id, product, offer, account.lower(), nonce.lower(), str(timestamp)])


def build(g, certs: dict[str, bytes]) -> tuple[dict[str, bytes], dict]:
    bundle, app_id = g.BUNDLE, g.APP_ID
    hdr = g.apple_header(certs)
    pki = g.PKI
    signed = g.SIGNED_MS

    def apple(payload: dict) -> str:
        token, _ = g.sign_jws(hdr, g.compact(payload), "ec-signer", certs, pki)
        return token.decode()

    _, serialization, _, _ = g.crypto()
    key = serialization.load_pem_private_key((g.SAMPLES / developer.DEVELOPER_DIR / developer.KEY_FILE).read_bytes(), password=None)

    def developer_token(claims: dict) -> str:
        header = {"alg": "ES256", "kid": developer.KEY_ID, "typ": "JWT"}
        signing_input = (g.b64u(g.compact(header)) + "." + g.b64u(g.compact(claims))).encode()
        return (signing_input + b"." + g.b64u(g.der_to_raw(g.ec_sign_der(key, signing_input))).encode()).decode()

    files: dict[str, bytes] = {}
    facts: dict = {"conventions": {
        "apple_signed": "tokens signed by the TEST EC chain (samples/pki/test-ec-root.cer), signedDate " + str(signed),
        "developer_signed": f"signed with samples/{developer.DEVELOPER_DIR}/{developer.KEY_FILE} (kid {developer.KEY_ID})",
        "v1": "encodedSignature: base64 of a DER ECDSA P-256 SHA-256 signature over the fields joined by U+2063 "
              "(appBundleId, keyIdentifier, productIdentifier, offerIdentifier, appAccountToken, nonce, timestamp)",
    }, "files": {}}

    def add(name: str, data: bytes, kind: str, **extra):
        files[name] = data
        facts["files"][name] = {"kind": kind, "size": len(data)} | extra

    txn = lambda n, **x: apple(g.transaction_payload(f"20000008000000{n:02d}", f"{bundle}.monthly", 1708430400000 + n, **x))
    refunded = [txn(1, revocationDate=1709000000000, revocationReason=0), txn(2, revocationDate=1709100000000, revocationReason=1)]
    add("refund-history.json", pretty({"signedTransactions": refunded, "revision": "1709100000000_2000000800000002", "hasMore": False}),
        "refund-history", tokens=2)
    add("order-lookup.json", pretty({"status": 0, "signedTransactions": [txn(3)]}), "order-lookup", tokens=1)

    def notification(n: int, kind: str, subtype: str | None = None, transaction: str | None = None) -> str:
        # A history's notifications carry their transaction (the refund history's subscription), so
        # `timeline` places them beside the history's events.
        data = {"appAppleId": app_id, "bundleId": bundle, "bundleVersion": "231", "environment": "Sandbox", "status": 1}
        if transaction:
            data["signedTransactionInfo"] = transaction
        payload = {"notificationType": kind} | ({"subtype": subtype} if subtype else {})
        return apple(payload | {"notificationUUID": uid(f"notification {n}"), "data": data,
                                "version": "2.0", "signedDate": signed + n})

    attempts_ok = [{"attemptDate": signed + 1000, "sendAttemptResult": "SUCCESS"}]
    attempts_failed = [{"attemptDate": signed + 2000, "sendAttemptResult": "TIMED_OUT"},
                       {"attemptDate": signed + 2000 + 3600000, "sendAttemptResult": "UNSUCCESSFUL_HTTP_RESPONSE_CODE"}]
    history = {"notificationHistory": [
        {"sendAttempts": attempts_ok, "signedPayload": notification(1, "DID_RENEW", transaction=txn(5))},
        {"sendAttempts": attempts_failed,
         "signedPayload": notification(2, "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", transaction=txn(5))}],
               "hasMore": True, "paginationToken": uid("pagination")}
    history_bytes = pretty(history)
    add("notification-history.json", history_bytes, "notification-history", tokens=4,
        deliveries=[{"token": "notificationHistory[0].signedPayload", "attempts": attempts_ok, "delivered": True},
                    {"token": "notificationHistory[1].signedPayload", "attempts": attempts_failed, "delivered": False}])
    add("test-notification-status.json", pretty({"signedPayload": notification(3, "TEST"), "sendAttempts": attempts_ok}),
        "test-notification-status", tokens=1)
    app = {"receiptType": "Sandbox", "appAppleId": app_id, "bundleId": bundle, "applicationVersion": "2.3.1",
           "receiptCreationDate": signed, "requestDate": signed, "originalApplicationVersion": "1.0",
           "originalPurchaseDate": 1685610000000, "appTransactionId": "704289123456789012", "originalPlatform": "iOS",
           "signedDate": signed}
    add("app-transaction-response.json", pretty({"signedAppTransactionInfo": apple(app)}), "app-transaction-response", tokens=1)
    renewal = g.renewal_payload()
    add("advanced-commerce-response.json", pretty({"signedRenewalInfo": apple(renewal), "signedTransactionInfo": txn(4)}),
        "advanced-commerce-response", tokens=2)

    # Retention Messaging: the request Apple POSTs, and one reply of each shape.
    realtime = {"originalTransactionId": "2000000510000000", "appAppleId": app_id, "productId": f"{bundle}.monthly",
                "userLocale": "en-US", "requestIdentifier": uid("realtime request"), "signedDate": signed,
                "environment": "Sandbox"}
    add("retention-request.json", pretty({"signedPayload": apple(realtime)}), "retention-request", claims=realtime)
    add("retention-message.json", pretty({"message": {"messageIdentifier": uid("message")}}), "retention-message")
    add("retention-alternate-product.json",
        pretty({"alternateProduct": {"messageIdentifier": uid("message"), "productId": f"{bundle}.yearly",
                                     "billingPlanType": "BILLED_UPFRONT"}}), "retention-alternate-product")
    offer_v2 = developer_token({"iss": developer.ISSUER, "iat": developer.IAT, "aud": "promotional-offer", "bid": bundle,
                                "nonce": uid("offer v2 nonce"), "productId": f"{bundle}.monthly",
                                "offerIdentifier": "TEST_WINBACK_50", "transactionId": "2000000510000000"})
    v2_reply = pretty({"promotionalOffer": {"messageIdentifier": uid("message"), "promotionalOfferSignatureV2": offer_v2}})
    add("retention-promotional-offer-v2.json", v2_reply, "retention-promotional-offer",
        token_offset=v2_reply.find(offer_v2.encode()), token_length=len(offer_v2))

    v1_fields = {"productId": f"{bundle}.monthly", "offerIdentifier": "TEST_WINBACK_50", "keyId": developer.KEY_ID,
                 "nonce": uid("offer v1 nonce"), "timestamp": developer.IAT * 1000, "appAccountToken": uid("account")}
    message = v1_message(bundle, developer.KEY_ID, v1_fields["productId"], v1_fields["offerIdentifier"],
                         v1_fields["appAccountToken"], v1_fields["nonce"], v1_fields["timestamp"])
    signature = base64.b64encode(g.ec_sign_der(key, message.encode())).decode()
    v1 = {"encodedSignature": signature} | v1_fields
    add("retention-promotional-offer-v1.json",
        pretty({"promotionalOffer": {"messageIdentifier": uid("message"), "promotionalOfferSignatureV1": v1}}),
        "retention-promotional-offer", signed_string=message, bundle=bundle)
    add("offer-signature-v1.json", pretty(v1), "offer-signature-v1", signed_string=message, bundle=bundle)
    # Signed for another product: verify names the string it expected.
    wrong = v1 | {"productId": f"{bundle}.yearly"}
    add("offer-signature-v1-wrong-product.json", pretty(wrong), "offer-signature-v1", signed_string=message, bundle=bundle,
        expected_string=v1_message(bundle, developer.KEY_ID, wrong["productId"], v1["offerIdentifier"],
                                   v1["appAccountToken"], v1["nonce"], v1["timestamp"]))

    commerce_jws = developer_token({"iss": developer.ISSUER, "iat": developer.IAT, "aud": "advanced-commerce-api",
                                    "bid": bundle, "nonce": uid("commerce nonce"),
                                    "request": base64.b64encode(developer.advanced_commerce_request(bundle)).decode()})
    decoded = g.compact({"signatureInfo": {"token": commerce_jws}})
    data = base64.b64encode(decoded).decode()
    commerce_reply = pretty({"advancedCommerceInfo": {"messageIdentifier": uid("message"), "advancedCommerceData": data}})
    add("retention-advanced-commerce.json", commerce_reply, "retention-advanced-commerce", nested_token="signatureInfo.token",
        data_offset=commerce_reply.find(data.encode()), data_characters=len(data), decoded_bytes=len(decoded),
        token_offset_in_decoded=decoded.find(commerce_jws.encode()), token_length=len(commerce_jws))
    return files, facts


def readme(facts: dict) -> list[str]:
    lines = ["", "## Apple's newest documents (apple/)", "",
             "Made by Scripts/apple_documents_samples.py; what each is, `manifest.json` `apple_documents` says.", "",
             "| file | kind |", "|---|---|"]
    lines += [f"| `apple/{name}` | {f['kind']} |" for name, f in facts["files"].items()]
    return lines + [""]
