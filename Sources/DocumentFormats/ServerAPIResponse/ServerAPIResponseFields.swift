import ByteText
import JSONLenient
import DocumentCore

/// What each member of a named Server API response means, with the API version it arrived in
/// (Apple's documentation's availability), for the explorer's outline and `explain`.
enum ServerAPIResponseFields {
    static func meaning(_ key: String, in name: ServerAPIResponseName) -> String? {
        switch (key, name) {
        case ("signedTransactions", .refundHistory):
            "Up to 20 refunded transactions, signed by Apple (JWS), in ascending revocationDate (App Store Server API 1.6)."
        case ("signedTransactions", .orderLookup):
            "The order's in-app purchases, signed by Apple (JWS); absent when the order id is invalid (App Store Server API 1.1)."
        case ("revision", _): "The token to pass as the revision query parameter for the next page (App Store Server API 1.6)."
        case ("hasMore", _): "Whether Apple has more to return: call again with the revision or paginationToken."
        case ("status", .orderLookup): "OrderLookupStatus: 0 the order id is valid, 1 it is not (App Store Server API 1.1)."
        case ("notificationHistory", _): "The version 2 notifications Apple sent or tried to send (App Store Server API 1.5)."
        case ("paginationToken", _): "The token to send back for the next page of notification history (App Store Server API 1.5)."
        case ("signedPayload", _): "A version 2 notification, signed by Apple (JWS)."
        case ("sendAttempts", _): "Apple's attempts to deliver the notification, at most six (App Store Server API 1.8)."
        case ("attemptDate", _): "When Apple tried to send the notification (App Store Server API 1.8)."
        case ("sendAttemptResult", _): "SUCCESS, or why the attempt failed (TIMED_OUT, TLS_ISSUE, …) (App Store Server API 1.8)."
        case ("signedAppTransactionInfo", _): "The customer's app transaction, signed by Apple (JWS) (App Store Server API 1.17)."
        case ("signedTransactionInfo", _): "The transaction the Advanced Commerce request made or changed, signed by Apple (JWS) (Advanced Commerce API)."
        case ("signedRenewalInfo", _): "The subscription's renewal info after the request, signed by Apple (JWS) (Advanced Commerce API)."
        default: nil
        }
    }

    /// Every member of the body the response's schema names, by JSON node index (every depth).
    static func wording(_ tree: JSONTree, name: ServerAPIResponseName) -> [Int: FieldWording] {
        members(of: tree) { key, index in
            meaning(key, in: name).map { FieldWording(display: display(key, tree.value(ofMember: index), tree), meaning: $0) }
        }
    }

    /// Every member of `tree` that `word` gives a wording, by JSON node index (every depth).
    static func members(of tree: JSONTree, _ word: (_ key: String, _ member: Int) -> FieldWording?) -> [Int: FieldWording] {
        var out: [Int: FieldWording] = [:]
        for index in 0..<tree.count where tree[index].kind == .member {
            if let key = tree.key(ofMember: index), let wording = word(key, index) { out[index] = wording }
        }
        return out
    }

    /// A date as ISO 8601 and an order status by its name; nil keeps the outline's own summary.
    static func display(_ key: String, _ value: Int?, _ tree: JSONTree) -> String? {
        guard let value, let number = tree.number(at: value)?.integer else { return nil }
        switch key {
        case "attemptDate": return ISO8601Text.string(epochMilliseconds: number, fraction: .whenNonZero, farYears: .julianEra)
        case "status": return number == 0 ? "0 (VALID)" : number == 1 ? "1 (INVALID)" : "\(number) (unknown)"
        default: return nil
        }
    }
}
