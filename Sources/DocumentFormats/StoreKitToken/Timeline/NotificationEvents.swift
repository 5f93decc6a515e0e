import JWSKit
import DocumentCore
import DocumentTimeline

/// Events an App Store Server Notification V2 names by its type and subtype, dated by its
/// transaction (a period's start, a refund) or by its own signedDate (a renewal-status change).
enum NotificationEvents {
    static func read(_ n: StoreKitPayload, transaction t: StoreKitPayload?, renewal r: StoreKitPayload?,
                     source: TimelineSource, into reading: inout TimelineReading) {
        guard let type = n.notificationType, let signed = n.milliseconds("signedDate"),
              let original = t?.text("originalTransactionId") ?? r?.text("originalTransactionId") else { return }
        let subtype = n.subtype
        let id = t?.text("transactionId")
        let started = t?.milliseconds("purchaseDate") ?? signed
        let prefix = source.place == StoreKitPayloadKind.notification.label ? "notification" : source.place
        let place = TimelineSource(document: source.document, place: "\(prefix) \(type)\(subtype.map { "/\($0)" } ?? "")",
                                   node: source.node, fileOffset: source.fileOffset)
        func fact(_ kind: TimelineEventKind, _ date: Int64, _ detail: String? = nil, product: String? = nil, autoRenew: Bool? = nil) {
            reading.facts.append(TimelineFact(kind: kind, date: date, transactionID: id, originalTransactionID: original,
                                              group: t?.text("subscriptionGroupIdentifier"),
                                              productID: product ?? t?.text("productId") ?? r?.text("productId"), detail: detail, source: place,
                                              autoRenew: autoRenew))
        }
        // What the new period's transaction says about itself (its offer, family sharing).
        func periodStarted(_ kind: TimelineEventKind, _ detail: String? = nil) {
            fact(kind, started, detail)
            if let offer = t.flatMap(TransactionEvents.offer) { fact(.offerRedeemed, started, offer) }
            if t?.string("inAppOwnershipType") == "FAMILY_SHARED" {
                fact(.familyShared, started, "shared by a family member (inAppOwnershipType FAMILY_SHARED)")
            }
        }
        switch type {
        case "SUBSCRIBED": periodStarted(subtype == "RESUBSCRIBE" ? .resubscribe : .purchase)
        case "DID_RENEW": periodStarted(.renewal, subtype == "BILLING_RECOVERY" ? "billing recovery: renewed after a billing failure" : nil)
        case "DID_CHANGE_RENEWAL_PREF":
            let next = r?.text("autoRenewProductId")
            switch subtype {
            case "UPGRADE": periodStarted(.upgrade)
            case "DOWNGRADE": fact(.downgrade, signed, "at the next renewal" + (next.map { ", to \($0)" } ?? ""), product: next)
            default: fact(.renewalPreference, signed, next.map { "renews with \($0)" }, product: next)
            }
        case "DID_CHANGE_RENEWAL_STATUS":
            let on: Bool? = subtype == "AUTO_RENEW_DISABLED" ? false : subtype == "AUTO_RENEW_ENABLED" ? true : nil
            fact(.renewalStatus, signed, on.map { $0 ? "automatic renewal turned on" : "automatic renewal turned off" } ?? subtype, autoRenew: on)
        case "DID_FAIL_TO_RENEW":
            fact(.billingRetry, signed, "renewal failed: billing retry")
            if subtype == "GRACE_PERIOD", let until = r?.milliseconds("gracePeriodExpiresDate") {
                fact(.gracePeriod, signed, "until \(Timeline.iso(until))")
                reading.graces.append(GraceWindow(originalTransactionID: original, from: t?.milliseconds("expiresDate") ?? signed, to: until))
            }
        case "GRACE_PERIOD_EXPIRED":
            fact(.gracePeriodEnded, signed, r?.flag("isInBillingRetryPeriod") == true ? "billing retry continues" : nil)
        case "EXPIRED":
            let intent = [subtype, r.flatMap(RenewalInfoEvents.expirationIntent)].compactMap { $0 }.joined(separator: "; ")
            fact(.expiry, t?.milliseconds("expiresDate") ?? signed, intent.isEmpty ? nil : intent)
        case "REFUND": fact(.refund, t?.milliseconds("revocationDate") ?? signed, t.map(TransactionEvents.revocation))
        case "REFUND_REVERSED": fact(.refundReversed, signed)
        case "REVOKE": fact(.revocation, t?.milliseconds("revocationDate") ?? signed, "Family Sharing access revoked")
        case "OFFER_REDEEMED": fact(.offerRedeemed, started, t.flatMap(TransactionEvents.offer) ?? subtype)
        case "ONE_TIME_CHARGE": periodStarted(.purchase)
        default: fact(.notification, signed, type + (subtype.map { " (\($0))" } ?? ""))
        }
    }
}
