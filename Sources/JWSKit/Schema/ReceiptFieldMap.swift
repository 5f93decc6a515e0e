/// The migration table: receipt / verifyReceipt field names → StoreKit 2 JWS names. One table,
/// used by docs/storekit2.md (a test keeps them equal) and by `diff` between a receipt and a JWS.
public struct ReceiptFieldMapping: Sendable, Equatable {
    /// The verifyReceipt JSON name (receipt / in_app level).
    public var receipt: String
    /// The ASN.1 attribute type in the PKCS#7 receipt, when there is one.
    public var attributeType: Int?
    /// Where the value lives in StoreKit 2: "JWSTransactionDecodedPayload.productId".
    public var jws: String
    public var note: String
}

public enum ReceiptFieldMap {
    public static let rows: [ReceiptFieldMapping] = [
        .init(receipt: "bundle_id", attributeType: 2, jws: "JWSTransactionDecodedPayload.bundleId, AppTransaction.bundleId", note: "same value"),
        .init(receipt: "application_version", attributeType: 3, jws: "AppTransaction.applicationVersion", note: "CFBundleVersion"),
        .init(receipt: "original_application_version", attributeType: 19, jws: "AppTransaction.originalApplicationVersion", note: "the version first bought"),
        .init(receipt: "receipt_creation_date", attributeType: 12, jws: "AppTransaction.receiptCreationDate", note: "RFC 3339 text → milliseconds"),
        .init(receipt: "original_purchase_date (app)", attributeType: nil, jws: "AppTransaction.originalPurchaseDate", note: "milliseconds"),
        .init(receipt: "receipt_type", attributeType: nil, jws: "AppTransaction.receiptType; environment elsewhere", note: "ProductionSandbox → Production / Sandbox / Xcode"),
        .init(receipt: "opaque value + SHA-1 hash", attributeType: 4, jws: "AppTransaction.deviceVerification + deviceVerificationNonce", note: "SHA-384 instead of SHA-1"),
        .init(receipt: "expiration_date (app)", attributeType: 21, jws: "(none)", note: "AppTransaction does not expire"),
        .init(receipt: "quantity", attributeType: 1701, jws: "JWSTransactionDecodedPayload.quantity", note: "same value"),
        .init(receipt: "product_id", attributeType: 1702, jws: "JWSTransactionDecodedPayload.productId", note: "same value"),
        .init(receipt: "transaction_id", attributeType: 1703, jws: "JWSTransactionDecodedPayload.transactionId", note: "string in both"),
        .init(receipt: "original_transaction_id", attributeType: 1705, jws: "JWSTransactionDecodedPayload.originalTransactionId", note: "string in both"),
        .init(receipt: "product_type", attributeType: 1707, jws: "JWSTransactionDecodedPayload.type", note: "Apple-private integer → named string"),
        .init(receipt: "purchase_date", attributeType: 1704, jws: "JWSTransactionDecodedPayload.purchaseDate", note: "RFC 3339 text → milliseconds"),
        .init(receipt: "original_purchase_date", attributeType: 1706, jws: "JWSTransactionDecodedPayload.originalPurchaseDate", note: "RFC 3339 text → milliseconds"),
        .init(receipt: "expires_date", attributeType: 1708, jws: "JWSTransactionDecodedPayload.expiresDate", note: "RFC 3339 text → milliseconds"),
        .init(receipt: "cancellation_date", attributeType: 1712, jws: "JWSTransactionDecodedPayload.revocationDate", note: "refund or revocation date"),
        .init(receipt: "cancellation_reason", attributeType: nil, jws: "JWSTransactionDecodedPayload.revocationReason", note: "0 other, 1 app issue"),
        .init(receipt: "web_order_line_item_id", attributeType: 1711, jws: "JWSTransactionDecodedPayload.webOrderLineItemId", note: "number → string"),
        .init(receipt: "is_trial_period", attributeType: 1713, jws: "JWSTransactionDecodedPayload.offerType + offerDiscountType", note: "offerType 1 with FREE_TRIAL"),
        .init(receipt: "is_in_intro_offer_period", attributeType: 1719, jws: "JWSTransactionDecodedPayload.offerType + offerDiscountType", note: "offerType 1 (introductory)"),
        .init(receipt: "promotional_offer_id", attributeType: nil, jws: "JWSTransactionDecodedPayload.offerIdentifier", note: "with offerType 2"),
        .init(receipt: "offer_code_ref_name", attributeType: nil, jws: "JWSTransactionDecodedPayload.offerIdentifier", note: "with offerType 3"),
        .init(receipt: "subscription_group_identifier", attributeType: nil, jws: "JWSTransactionDecodedPayload.subscriptionGroupIdentifier", note: "same value"),
        .init(receipt: "in_app_ownership_type", attributeType: nil, jws: "JWSTransactionDecodedPayload.inAppOwnershipType", note: "PURCHASED / FAMILY_SHARED"),
        .init(receipt: "is_upgraded", attributeType: nil, jws: "JWSTransactionDecodedPayload.isUpgraded", note: "\"true\" → true"),
        .init(receipt: "app_account_token", attributeType: nil, jws: "JWSTransactionDecodedPayload.appAccountToken", note: "UUID"),
        .init(receipt: "auto_renew_status", attributeType: nil, jws: "JWSRenewalInfoDecodedPayload.autoRenewStatus", note: "pending_renewal_info → renewal info"),
        .init(receipt: "auto_renew_product_id", attributeType: nil, jws: "JWSRenewalInfoDecodedPayload.autoRenewProductId", note: "same value"),
        .init(receipt: "expiration_intent", attributeType: nil, jws: "JWSRenewalInfoDecodedPayload.expirationIntent", note: "1–5, same meanings"),
        .init(receipt: "is_in_billing_retry_period", attributeType: nil, jws: "JWSRenewalInfoDecodedPayload.isInBillingRetryPeriod", note: "\"1\" → true"),
        .init(receipt: "grace_period_expires_date", attributeType: nil, jws: "JWSRenewalInfoDecodedPayload.gracePeriodExpiresDate", note: "milliseconds"),
        .init(receipt: "price_consent_status", attributeType: nil, jws: "JWSRenewalInfoDecodedPayload.priceIncreaseStatus", note: "0 / 1"),
        .init(receipt: "environment", attributeType: nil, jws: "environment (every payload), data.environment (notification)", note: "Sandbox / Production"),
        .init(receipt: "latest_receipt_info", attributeType: nil, jws: "History response signedTransactions[]", note: "one JWS per transaction"),
    ]

    /// The Markdown table docs/storekit2.md carries between its markers.
    public static var markdownTable: String {
        var lines = ["| receipt / verifyReceipt | ASN.1 type | StoreKit 2 JWS | note |", "|---|---|---|---|"]
        for row in rows {
            lines.append("| `\(row.receipt)` | \(row.attributeType.map(String.init) ?? "") | `\(row.jws)` | \(row.note) |")
        }
        return lines.joined(separator: "\n")
    }
}
