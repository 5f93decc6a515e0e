"""The timeline samples (samples/timeline/): one customer's subscription as the documents a developer
has about it, with the events `receipt-explorer timeline` must find in them.

Called by generate-samples.py (`build(g, certs)`, g = that module, for its DER encoder, receipt
builder, CMS signer and ES256 signer with the TEST keys); the files go to samples/timeline/ and the
expected events to manifest.json's `timeline`, through the generator's own write and --check.

The story (group 21400001, original transaction 2000000700000000), every time 12:00:00Z:
  2024-01-05  subscribes to monthly with an introductory offer (pay as you go, P1M)
  2024-02-05  renews; 2024-03-05 renews
  2024-04-05  renewal fails: billing retry, grace period until 2024-04-11
  2024-04-11  grace period ends (no entitlement)   2024-04-14 billing recovered: renews
  2024-04-16  the app receipt is created: it holds the first three periods only (not the recovery:
              the conflict the timeline must report), and not the consumable bought 2024-03-10
  2024-04-20  upgrades to pro (the monthly period is marked isUpgraded)
  2024-04-28  turns automatic renewal off
  2024-05-02  pro is refunded in part (60 %, reason 0)
  2024-05-20  expires: the customer cancelled (intent 1)
  2024-06-10  resubscribes to monthly
"""

from __future__ import annotations

import datetime as dt
import json

DIR = "timeline"
GROUP = "21400001"
ORIGINAL = "2000000700000000"
APP_TXN = "704289123456789077"


def at(month: int, day: int) -> str:
    return dt.datetime(2024, month, day, 12, tzinfo=dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def build(g, certs: dict[str, bytes]) -> tuple[dict[str, bytes], dict]:
    bundle = g.BUNDLE
    monthly, pro, coins = f"{bundle}.monthly", f"{bundle}.pro.monthly", f"{bundle}.coins100"
    hdr = g.apple_header(certs)
    ms = g.ms

    def txn(n: int, product: str, start: str, end: str, reason: str, signed: str, **extra) -> dict:
        t = {"transactionId": f"20000007000000{n:02d}", "originalTransactionId": ORIGINAL,
             "webOrderLineItemId": f"20000000430000{n:02d}", "bundleId": bundle, "productId": product,
             "subscriptionGroupIdentifier": GROUP, "purchaseDate": ms(start), "originalPurchaseDate": ms(at(1, 5)),
             "expiresDate": ms(end), "quantity": 1, "type": "Auto-Renewable Subscription",
             "inAppOwnershipType": "PURCHASED", "signedDate": ms(signed), "environment": "Sandbox",
             "transactionReason": reason, "storefront": "USA", "storefrontId": "143441",
             "price": 9990 if product == pro else 4990, "currency": "USD", "appTransactionId": APP_TXN}
        t.update(extra)
        return t

    intro = {"offerType": 1, "offerDiscountType": "PAY_AS_YOU_GO", "offerPeriod": "P1M", "price": 990}
    periods = [
        txn(0, monthly, at(1, 5), at(2, 5), "PURCHASE", at(1, 5), **intro),
        txn(1, monthly, at(2, 5), at(3, 5), "RENEWAL", at(2, 5)),
        txn(2, monthly, at(3, 5), at(4, 5), "RENEWAL", at(3, 5)),
        txn(3, monthly, at(4, 14), at(5, 14), "RENEWAL", at(4, 14)),
        txn(4, pro, at(4, 20), at(5, 20), "PURCHASE", at(4, 20)),
        txn(5, monthly, at(6, 10), at(7, 10), "PURCHASE", at(6, 10)),
    ]
    upgraded = dict(periods[3], isUpgraded=True, signedDate=ms(at(4, 20)))
    refunded = dict(periods[4], revocationDate=ms(at(5, 2)), revocationReason=0, revocationType="REFUND_PRORATED",
                    revocationPercentage=60000, signedDate=ms(at(5, 2)))
    consumable = {"transactionId": "2000000700000010", "originalTransactionId": "2000000700000010",
                  "bundleId": bundle, "productId": coins, "purchaseDate": ms(at(3, 10)),
                  "originalPurchaseDate": ms(at(3, 10)), "quantity": 1, "type": "Consumable",
                  "inAppOwnershipType": "PURCHASED", "signedDate": ms(at(3, 10)), "environment": "Sandbox",
                  "transactionReason": "PURCHASE", "storefront": "USA", "storefrontId": "143441", "price": 990,
                  "currency": "USD", "appTransactionId": APP_TXN}

    sign = lambda payload: g.sign_jws(hdr, g.compact(payload), "ec-signer", certs, g.PKI)[0]

    def renewal(signed: str, product: str, **extra) -> dict:
        r = {"originalTransactionId": ORIGINAL, "autoRenewProductId": product, "productId": product,
             "autoRenewStatus": 1, "signedDate": ms(signed), "environment": "Sandbox",
             "recentSubscriptionStartDate": ms(at(1, 5)), "appTransactionId": APP_TXN}
        r.update(extra)
        return r

    files: dict[str, bytes] = {}
    expected_notifications = []

    def notify(file: str, kind: str, subtype: str | None, signed: str, transaction: dict, renewal_info: dict):
        data = {"appAppleId": g.APP_ID, "bundleId": bundle, "bundleVersion": "231", "environment": "Sandbox",
                "signedTransactionInfo": sign(transaction).decode(), "signedRenewalInfo": sign(renewal_info).decode(),
                "status": 1}
        payload = {"notificationType": kind, "notificationUUID": f"7c0a0000-0000-4000-8000-{len(files):012d}",
                   "data": data, "version": "2.0", "signedDate": ms(signed)}
        if subtype:
            payload["subtype"] = subtype
        files[file] = sign(payload)
        expected_notifications.append({"file": file, "notificationType": kind, "subtype": subtype, "signedDate": signed})

    billing = {"isInBillingRetryPeriod": True, "expirationIntent": 2, "gracePeriodExpiresDate": ms(at(4, 11))}
    notify("n01-subscribed.jws", "SUBSCRIBED", "INITIAL_BUY", at(1, 5), periods[0], renewal(at(1, 5), monthly))
    notify("n02-did-renew.jws", "DID_RENEW", None, at(2, 5), periods[1], renewal(at(2, 5), monthly))
    notify("n03-did-renew.jws", "DID_RENEW", None, at(3, 5), periods[2], renewal(at(3, 5), monthly))
    notify("n04-did-fail-to-renew.jws", "DID_FAIL_TO_RENEW", "GRACE_PERIOD", at(4, 5), periods[2],
           renewal(at(4, 5), monthly, **billing))
    notify("n05-grace-period-expired.jws", "GRACE_PERIOD_EXPIRED", None, at(4, 11), periods[2],
           renewal(at(4, 11), monthly, **billing))
    notify("n06-billing-recovery.jws", "DID_RENEW", "BILLING_RECOVERY", at(4, 14), periods[3],
           renewal(at(4, 14), monthly))
    notify("n07-upgrade.jws", "DID_CHANGE_RENEWAL_PREF", "UPGRADE", at(4, 20), periods[4], renewal(at(4, 20), pro))
    notify("n08-auto-renew-disabled.jws", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at(4, 28), periods[4],
           renewal(at(4, 28), pro, autoRenewStatus=0))
    notify("n09-refund.jws", "REFUND", None, at(5, 2), refunded, renewal(at(5, 2), pro, autoRenewStatus=0))
    notify("n10-expired.jws", "EXPIRED", "VOLUNTARY", at(5, 20), refunded,
           renewal(at(5, 20), pro, autoRenewStatus=0, expirationIntent=1))
    notify("n11-resubscribe.jws", "SUBSCRIBED", "RESUBSCRIBE", at(6, 10), periods[5], renewal(at(6, 10), monthly))

    history_list = [periods[0], periods[1], periods[2], upgraded, refunded, periods[5]]
    history = {"revision": "1718020800000_2000000700000005", "bundleId": bundle, "appAppleId": g.APP_ID,
               "environment": "Sandbox", "hasMore": False,
               "signedTransactions": [sign(dict(t, signedDate=ms(at(6, 15)))).decode() for t in history_list]}
    files["history.json"] = (json.dumps(history, indent=2) + "\n").encode()
    files["consumable.jws"] = sign(consumable)

    # The receipt: created 2024-04-16, before the upgrade; the first three periods only.
    receipt_purchases = []
    for n, t in enumerate(periods[:3]):
        start = dt.datetime.fromtimestamp(t["purchaseDate"] / 1000, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        end = dt.datetime.fromtimestamp(t["expiresDate"] / 1000, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        receipt_purchases.append(g.Purchase(monthly, t["transactionId"], start, original_transaction_id=ORIGINAL,
                                            original_purchase_date=at(1, 5), product_type=3, expires_date=end,
                                            web_order_line_item_id=int(t["webOrderLineItemId"]),
                                            is_in_intro_offer_period=1 if n == 0 else 0, kind=f"period {n}"))
    receipt = g.Receipt("ProductionSandbox", bundle, "2.3.1", "1.0", at(4, 16), app_item_id=g.APP_ID,
                        original_purchase_date="2023-06-01T09:00:00Z", purchases=receipt_purchases)
    files["receipt.receipt"] = g.sign(receipt.payload(), "receipt-signer", g.APPLE_CHAIN)

    facts = {
        "files": f"in samples/{DIR}/: receipt.receipt, history.json, consumable.jws and the notifications n01…n11",
        "story": [line.strip() for line in __doc__.split("The story")[1].splitlines()[1:] if line.strip()],
        "subscription_group": GROUP,
        "original_transaction_id": ORIGINAL,
        "transactions": [{"transactionId": t["transactionId"], "productId": t["productId"],
                          "purchaseDate": t["purchaseDate"], "expiresDate": t["expiresDate"]} for t in periods],
        "receipt": {"creation_date": at(4, 16), "transaction_ids": [t["transactionId"] for t in periods[:3]]},
        "consumable": {"transactionId": consumable["transactionId"], "purchaseDate": consumable["purchaseDate"]},
        "notifications": expected_notifications,
        "gaps": [[at(4, 11), at(4, 14)], [at(5, 2), at(6, 10)]],
        "refund": {"transactionId": refunded["transactionId"], "revocationDate": at(5, 2),
                   "revocationType": "REFUND_PRORATED", "revocationPercentage": 60000, "revocationReason": 0},
    }
    return files, facts


def readme(facts: dict) -> list[str]:
    L = ["", f"## Timeline (`{DIR}/`)", "",
         "One customer's subscription as a receipt, a transaction history response, a consumable's transaction and",
         "eleven notifications, for `receipt-explorer timeline timeline/*`; `timeline` in manifest.json has the facts.", ""]
    L += [f"    {line}" for line in facts["story"]]
    return L + [""]
