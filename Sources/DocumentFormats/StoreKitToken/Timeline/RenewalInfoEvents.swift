import JWSKit
import DocumentCore
import DocumentTimeline

/// A renewal info that is not part of a notification (alone, or in a statuses response): the
/// renewal state it reports at its signedDate.
enum RenewalInfoEvents {
    static func read(_ p: StoreKitPayload, source: TimelineSource, into reading: inout TimelineReading) {
        guard let original = p.text("originalTransactionId"), let signed = p.milliseconds("signedDate") else { return }
        reading.facts.append(TimelineFact(kind: .renewalStatus, date: signed, originalTransactionID: original,
                                          productID: p.text("productId"), detail: state(p), source: source,
                                          autoRenew: p.text("autoRenewStatus").map { $0 == "1" }))
    }

    /// "automatic renewal off, renews with …monthly, in billing retry, grace period until …, expiration intent 1: …".
    static func state(_ p: StoreKitPayload) -> String {
        var parts: [String] = []
        if let status = p.text("autoRenewStatus") { parts.append(status == "1" ? "automatic renewal on" : "automatic renewal off") }
        if let product = p.text("autoRenewProductId") { parts.append("renews with \(product)") }
        if p.flag("isInBillingRetryPeriod") { parts.append("in billing retry") }
        if let grace = p.milliseconds("gracePeriodExpiresDate") { parts.append("grace period until \(Timeline.iso(grace))") }
        if let intent = expirationIntent(p) { parts.append(intent) }
        return parts.joined(separator: ", ")
    }

    static func expirationIntent(_ p: StoreKitPayload) -> String? {
        guard let intent = p.text("expirationIntent") else { return nil }
        return "expiration intent \(intent)" + (StoreKitEnumeration.expirationIntent.meaning(of: intent).map { ": \($0)" } ?? "")
    }
}
