import JWSKit
import ReceiptKit
import DocumentCore
import DocumentTimeline

/// Events in an app receipt: each in-app purchase's start, its offer flags, its cancellation.
enum ReceiptEvents {
    static func read(_ document: Document, index: Int, into reading: inout TimelineReading) {
        guard let side = ReceiptSide(document) else { return }
        let receipt = side.receipt
        let created = receipt.creationDate?.epochMilliseconds
        let creationNode = receipt.field(12).map { NodeID(side.layer, $0.primaryNode) }
        reading.receipts.append(ReceiptSnapshot(document: index, created: created,
                                                source: source(side, creationNode, "receipt creation date (attribute 12)", index),
                                                bundleID: receipt.bundleID))
        let marks = (reading.facts.count, reading.observations.count)
        defer { reading.scope(receipt.bundleID, facts: marks.0, observations: marks.1, graces: reading.graces.count) }
        reading.reserve(purchases: receipt.inApp.count)
        for purchase in receipt.inApp {
            guard let id = purchase.transactionID, let start = purchase.purchaseDate?.epochMilliseconds else { continue }
            let original = purchase.originalTransactionID ?? id
            let src = source(side, NodeID(side.layer, purchase.attributeNode), "in-app purchase \(purchase.index + 1)", index)
            func fact(_ kind: TimelineEventKind, _ date: Int64, _ detail: String? = nil) {
                reading.facts.append(TimelineFact(kind: kind, date: date, transactionID: id, originalTransactionID: original,
                                                  productID: purchase.productID, detail: detail, source: src))
            }
            fact(id == original || !purchase.isAutoRenewable ? .purchase : .renewal, start)
            if purchase.isTrialPeriod == true {
                fact(.offerRedeemed, start, "free trial (is_trial_period)")
            } else if purchase.isInIntroOfferPeriod == true {
                fact(.offerRedeemed, start, "introductory offer (is_in_intro_offer_period)")
            }
            if let offer = purchase.promotionalOfferID, !offer.isEmpty { fact(.offerRedeemed, start, "promotional offer \(offer)") }
            let cancelled = purchase.cancellationDate?.epochMilliseconds
            if let cancelled {
                let reason = purchase.cancellationReason.map { r in
                    "cancellation reason \(r)" + (StoreKitEnumeration.revocationReason.meaning(of: String(r)).map { ": \($0)" } ?? "")
                }
                fact(.refund, cancelled, reason ?? "cancellation date")
            }
            reading.observations.append(TransactionObservation(
                transactionID: id, originalTransactionID: original, webOrderLineItemID: purchase.webOrderLineItemID,
                productID: purchase.productID, type: purchase.isAutoRenewable ? "Auto-Renewable Subscription" : nil,
                purchase: start, expires: purchase.expiresDate?.epochMilliseconds, revocation: cancelled,
                issued: created, isReceipt: true, source: src))
        }
    }

    static func source(_ side: ReceiptSide, _ node: NodeID?, _ place: String, _ document: Int) -> TimelineSource {
        let tree = side.document.layer(side.layer).tree
        let offset = node.flatMap { n in tree.map { side.document.fileRange($0.nodes[n.index].byteRange, in: side.layer).lowerBound } }
        return TimelineSource(document: document, place: place, node: node, fileOffset: offset)
    }

    static func mentions(of id: String, in document: Document, index: Int) -> [TransactionLookup.Mention] {
        guard let side = ReceiptSide(document) else { return [] }
        var out: [TransactionLookup.Mention] = []
        for purchase in side.receipt.inApp {
            let values: [(Int, String, String?)] = [(1703, "transactionId", purchase.transactionID),
                                                    (1705, "originalTransactionId", purchase.originalTransactionID),
                                                    (1711, "webOrderLineItemId", purchase.webOrderLineItemID)]
            for (type, field, value) in values where value == id {
                let node = purchase.field(type).map { NodeID(side.layer, $0.primaryNode) }
                out.append(TransactionLookup.Mention(field: field, source: ReceiptEvents.source(side, node, "in-app purchase \(purchase.index + 1) · \(field) (\(type))", index)))
            }
        }
        return out
    }
}

/// A document read as a receipt tells the timeline its purchases (`ReceiptEvents`).
extension ReadsAsReceipt {
    package func readTimeline(_ document: Document, index: Int, into reading: inout TimelineReading) {
        ReceiptEvents.read(document, index: index, into: &reading)
    }

    package func mentions(of id: String, in document: Document, index: Int) -> [TransactionLookup.Mention] {
        ReceiptEvents.mentions(of: id, in: document, index: index)
    }
}

extension AppReceiptFormat: TimelineReader {}
extension CertificateFormat: TimelineReader {}
extension ASN1Format: TimelineReader {}
