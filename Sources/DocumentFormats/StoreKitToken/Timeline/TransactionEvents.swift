import JWSKit
import DocumentCore
import DocumentTimeline

/// Events in a StoreKit 2 transaction (alone, in a history or statuses response, or nested in a
/// notification): its start, offer, family sharing and refund or revocation.
enum TransactionEvents {
    /// `events` false: only what entitlement, conflicts and `--transaction` read (a notification's transaction).
    static func read(_ p: StoreKitPayload, source: TimelineSource, events: Bool = true, into reading: inout TimelineReading) {
        guard let id = p.text("transactionId"), let start = p.milliseconds("purchaseDate") else { return }
        let original = p.text("originalTransactionId") ?? id
        let group = p.text("subscriptionGroupIdentifier")
        func fact(_ kind: TimelineEventKind, _ date: Int64, _ detail: String? = nil) {
            guard events else { return }
            reading.facts.append(TimelineFact(kind: kind, date: date, transactionID: id, originalTransactionID: original, group: group,
                                              productID: p.text("productId"), detail: detail, source: source))
        }
        let renewal = p.string("transactionReason") == "RENEWAL"
        fact(id == original ? .purchase : renewal ? .renewal : .purchase, start)
        if let offer = offer(p) { fact(.offerRedeemed, start, offer) }
        if p.string("inAppOwnershipType") == "FAMILY_SHARED" {
            fact(.familyShared, start, "shared by a family member (inAppOwnershipType FAMILY_SHARED)")
        }
        let revoked = p.milliseconds("revocationDate")
        if let revoked {
            let family = p.string("revocationType") == "FAMILY_REVOKE"
            fact(family ? .revocation : .refund, revoked, revocation(p))
        }
        reading.observations.append(TransactionObservation(
            transactionID: id, originalTransactionID: original, webOrderLineItemID: p.text("webOrderLineItemId"), group: group,
            productID: p.text("productId"), type: p.string("type"), ownership: p.string("inAppOwnershipType"), purchase: start,
            expires: p.milliseconds("expiresDate"), revocation: revoked, isUpgraded: p.flag("isUpgraded"),
            issued: p.milliseconds("signedDate"), isReceipt: false, source: source))
    }

    /// "introductory offer (PAY_AS_YOU_GO, period P1M)".
    static func offer(_ p: StoreKitPayload) -> String? {
        guard let type = p.text("offerType") else { return nil }
        let name = StoreKitEnumeration.offerType.meaning(of: type) ?? "offer type \(type)"
        let parts = [p.string("offerDiscountType"), p.string("offerPeriod").map { "period \($0)" },
                     p.string("offerIdentifier").map { "id \($0)" }].compactMap { $0 }
        return parts.isEmpty ? name : "\(name) (\(parts.joined(separator: ", ")))"
    }

    /// "REFUND_PRORATED, 60% refunded, reason 0: refunded for another reason (e.g. accidental purchase)".
    static func revocation(_ p: StoreKitPayload) -> String {
        var parts: [String] = []
        if let type = p.string("revocationType") { parts.append(type) }
        if case .integer(let milli)? = p.value("revocationPercentage") {
            let whole = milli / 1000, rest = milli % 1000
            // 60500 → "60.5": the thousandths without their trailing zeros.
            var fraction = String(String(rest + 1000).dropFirst())
            while fraction.hasSuffix("0") { fraction.removeLast() }
            parts.append("\(whole)\(fraction.isEmpty ? "" : "." + fraction)% refunded")
        }
        if let reason = p.text("revocationReason") {
            parts.append("reason \(reason)" + (StoreKitEnumeration.revocationReason.meaning(of: reason).map { ": \($0)" } ?? ""))
        }
        return parts.isEmpty ? "revocationDate" : parts.joined(separator: ", ")
    }
}
