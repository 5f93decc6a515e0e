#!/usr/bin/env python3
"""Side by side: the request `receipt-explorer api …` sends and the request Apple's Python library
(app-store-server-library, PyPI) sends for the same call, both against the stand-in server
(Scripts/storekit-standin.py), which logs them. Prints the Markdown table docs/manual/api.md holds.

    python3 -m venv /tmp/asl && /tmp/asl/bin/pip install app-store-server-library
    Scripts/api-parity.py --apple-python /tmp/asl/bin/python3 --binary .build/debug/receipt-explorer
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TXN = "2000000000000001"
TOKEN = "ce3af791-365e-4c60-841b-1674b43c1609_1740830400000"

# (label, our arguments, Apple's library call(s): Python run with `c` the client and the models imported)
CALLS = [
    ("transaction", ["transaction", TXN], [f"c.get_transaction_info('{TXN}')"]),
    ("history (two pages, every filter)",
     ["history", TXN, "--start", "2025-01-01", "--end", "2025-03-01", "--product-id", "com.example.a", "--product-type", "auto_renewable",
      "--group", "21000001", "--ownership", "purchased", "--not-revoked", "--sort", "descending"],
     ["c.get_transaction_history('%s', %s, TransactionHistoryRequest(startDate=1735689600000, endDate=1740787200000, "
      "productIds=['com.example.a'], productTypes=[ProductType.AUTO_RENEWABLE], subscriptionGroupIdentifiers=['21000001'], "
      "inAppOwnershipType=InAppOwnershipType.PURCHASED, revoked=False, sort=Order.DESCENDING), GetTransactionHistoryVersion.V2)" % (TXN, rev)
      for rev in ("None", "'standin-revision-2'")]),
    ("statuses", ["statuses", TXN, "--status", "1", "--status", "4"],
     [f"c.get_all_subscription_statuses('{TXN}', [Status.ACTIVE, Status.BILLING_GRACE_PERIOD])"]),
    ("refunds (two pages)", ["refunds", TXN], [f"c.get_refund_history('{TXN}', None)", f"c.get_refund_history('{TXN}', 'standin-refunds-2')"]),
    ("order", ["order", "MK5TTTVWJH"], ["c.look_up_order_id('MK5TTTVWJH')"]),
    ("app-transaction", ["app-transaction", TXN], [f"c.get_app_transaction_info('{TXN}')"]),
    ("notifications (two pages)",
     ["notifications", "--start", "2025-02-01", "--end", "2025-03-01", "--type", "subscribed", "--subtype", "initial_buy", "--only-failures"],
     ["c.get_notification_history(%s, NotificationHistoryRequest(startDate=1738368000000, endDate=1740787200000, "
      "notificationType=NotificationTypeV2.SUBSCRIBED, notificationSubtype=Subtype.INITIAL_BUY, onlyFailures=True))" % token
      for token in ("None", "'standin-page-2'")]),
    ("test-notification", ["test-notification"], ["c.request_test_notification()"]),
    ("test-notification --status", ["test-notification", "--status", TOKEN], [f"c.get_test_notification_status('{TOKEN}')"]),
]

APPLE = """
import sys
from appstoreserverlibrary.api_client import AppStoreServerAPIClient, GetTransactionHistoryVersion
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest, ProductType, Order
from appstoreserverlibrary.models.InAppOwnershipType import InAppOwnershipType
from appstoreserverlibrary.models.Status import Status
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
from appstoreserverlibrary.models.Subtype import Subtype
key, key_id, issuer, bundle, base = sys.argv[1:6]
c = AppStoreServerAPIClient(open(key, 'rb').read(), key_id, issuer, bundle, Environment.SANDBOX)
c._base_url = base  # the one hook: the client keeps the environment's host here
for call in sys.argv[6:]:
    eval(call)
"""


def shown(entry: dict) -> str:
    query = "&".join(f"{k}={v}" for k, v in entry["query"])
    text = f"`{entry['method']} {entry['path']}{'?' + query if query else ''}`"
    if entry.get("body"):
        text += f"<br>body `{entry['body']}`"
    return text


def token_shape(entry: dict) -> str:
    return f"header {sorted(entry['token_header'])}, claims {sorted(entry['claims'])}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--apple-python", default="/tmp/asl/bin/python3")
    parser.add_argument("--binary", default=str(ROOT / ".build/debug/receipt-explorer"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        server = subprocess.Popen(["python3", str(ROOT / "Scripts/storekit-standin.py"), "--workdir", work], stdout=subprocess.PIPE, text=True)
        try:
            info = json.loads(server.stdout.readline())
            base = f"http://127.0.0.1:{info['port']}"
            log = Path(work) / "requests.jsonl"
            rows = []
            for label, ours, apple in CALLS:
                before = len(log.read_text().splitlines()) if log.exists() else 0
                subprocess.run([args.binary, "api", *ours, "--key", info["key"], "--issuer", info["issuer"], "--bundle-id", info["bundle_id"],
                                "--environment", "sandbox", "--base-url", base, "--root", str(ROOT / "samples/pki/test-ec-root.cer")],
                               capture_output=True, check=False)
                middle = len(log.read_text().splitlines())
                subprocess.run([args.apple_python, "-c", APPLE, info["key"], info["key_id"], info["issuer"], info["bundle_id"], base, *apple],
                               capture_output=True, check=False)
                entries = [json.loads(line) for line in log.read_text().splitlines()]
                mine, theirs = entries[before:middle], entries[middle:]
                for i in range(max(len(mine), len(theirs))):
                    a = mine[i] if i < len(mine) else None
                    b = theirs[i] if i < len(theirs) else None
                    same_target = a and b and (a["method"], a["path"], sorted(map(tuple, a["query"]))) == (b["method"], b["path"], sorted(map(tuple, b["query"])))
                    same_body = a and b and json.loads(a["body"] or "null") == json.loads(b["body"] or "null")
                    if same_target and same_body:
                        verdict = "same" if a["query"] == b["query"] else "same (query order differs)"
                    elif a and b:
                        ours_only = [f"{k}={v}" for k, v in a["query"] if [k, v] not in b["query"]]
                        theirs_only = [f"{k}={v}" for k, v in b["query"] if [k, v] not in a["query"]]
                        verdict = f"differs: ours `{'&'.join(ours_only)}`, theirs `{'&'.join(theirs_only)}`" if ours_only or theirs_only else "differs"
                    else:
                        verdict = "differs"
                    rows.append((f"{label}{' p%d' % (i + 1) if len(mine) > 1 else ''}", shown(a) if a else "—", shown(b) if b else "—", verdict))
                if label == "transaction":
                    ua = (mine[0]["headers"].get("User-Agent"), theirs[0]["headers"].get("User-Agent"))
                    shapes = (token_shape(mine[0]), token_shape(theirs[0]))
                    lifetimes = [f"exp - iat = {e['claims']['exp'] - e['claims']['iat']} s" if "iat" in e["claims"] else "no iat (exp is 5 minutes after signing)"
                                 for e in (mine[0], theirs[0])]
            print("| call | receipt-explorer sends | app-store-server-library (Python) sends | |")
            print("|---|---|---|---|")
            for row in rows:
                print("| " + " | ".join(row) + " |")
            print()
            print(f"- User-Agent: ours `{ua[0]}`, Apple's `{ua[1]}`; both send `Accept: application/json`, and `Content-Type: application/json` with a body.")
            print(f"- Token: ours {shapes[0]}, {lifetimes[0]}; Apple's {shapes[1]}, {lifetimes[1]}.")
        finally:
            server.terminate()


if __name__ == "__main__":
    main()
