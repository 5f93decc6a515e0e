/// One thing a document says happened, before the documents' reports are merged into events.
struct TimelineFact {
    var kind: TimelineEventKind
    var date: Int64
    var transactionID: String?
    var originalTransactionID: String
    var group: String?
    var productID: String?
    var detail: String?
    var source: TimelineSource
    /// The app the document is about: ids are unique within one app only (Xcode numbers from 0).
    var bundleID: String? = nil
    /// A renewal-status fact's automatic renewal, on or off (nil: not said): a renewal info and a
    /// notification saying the same at the same moment are one event.
    var autoRenew: Bool? = nil
    /// The notification that reported it was not delivered: its last attempt and count ("last attempt
    /// TIMED_OUT (2 attempts)"), from the Server API response that recorded the attempts.
    package var undelivered: String? = nil
}

/// One document's view of one transaction: what entitlement, conflicts and `--transaction` read.
struct TransactionObservation {
    var transactionID: String
    var originalTransactionID: String
    var webOrderLineItemID: String?
    var group: String?
    var productID: String?
    /// StoreKit's `type` ("Consumable"…); a receipt says only whether it is a subscription.
    var type: String?
    var ownership: String?
    var purchase: Int64?
    var expires: Int64?
    var revocation: Int64?
    var isUpgraded = false
    /// When the document said it: a receipt's creation date, a token's signedDate.
    var issued: Int64?
    var isReceipt: Bool
    var source: TimelineSource
    var bundleID: String? = nil
}

/// A billing grace period a notification announced: entitlement continues until `to`.
struct GraceWindow {
    var originalTransactionID: String
    var from: Int64
    var to: Int64
    var bundleID: String? = nil
}

/// A receipt among the inputs: when it was created, and the node that says so.
struct ReceiptSnapshot {
    var document: Int
    var created: Int64?
    var source: TimelineSource
    var bundleID: String? = nil
}

/// Everything the documents say, read once: each document's format reads it (`TimelineReader`, in
/// the kind's folder: a receipt's purchases, a token's transaction, renewal info or notification).
struct TimelineReading {
    var facts: [TimelineFact] = []
    var observations: [TransactionObservation] = []
    var graces: [GraceWindow] = []
    var receipts: [ReceiptSnapshot] = []

    init(_ documents: [Document]) {
        for (index, document) in documents.enumerated() {
            (document.format as? any TimelineReader)?.readTimeline(document, index: index, into: &self)
        }
        adoptBundles()
    }

    /// What a reader added since `facts`, `observations`, `graces` belongs to `bundle`.
    mutating func scope(_ bundle: String?, facts: Int, observations: Int, graces: Int) {
        for i in facts..<self.facts.count where self.facts[i].bundleID == nil { self.facts[i].bundleID = bundle }
        for i in observations..<self.observations.count where self.observations[i].bundleID == nil { self.observations[i].bundleID = bundle }
        for i in graces..<self.graces.count where self.graces[i].bundleID == nil { self.graces[i].bundleID = bundle }
    }

    /// A document that names no app (a renewal info) joins the one app that has its original transaction.
    mutating func adoptBundles() {
        var apps: [String: Set<String>] = [:]
        for f in facts { if let b = f.bundleID { apps[f.originalTransactionID, default: []].insert(b) } }
        for o in observations { if let b = o.bundleID { apps[o.originalTransactionID, default: []].insert(b) } }
        func only(_ original: String) -> String? { apps[original].flatMap { $0.count == 1 ? $0.first : nil } }
        for i in facts.indices where facts[i].bundleID == nil { facts[i].bundleID = only(facts[i].originalTransactionID) }
        for i in observations.indices where observations[i].bundleID == nil { observations[i].bundleID = only(observations[i].originalTransactionID) }
        for i in graces.indices where graces[i].bundleID == nil { graces[i].bundleID = only(graces[i].originalTransactionID) }
    }
}

/// One subscription chain: an original transaction within one app.
struct ChainKey: Hashable {
    var bundleID: String?
    var original: String
}

/// What a format gives the timeline, in its kind's folder: the facts its documents state, and where
/// they mention an id (`timeline --transaction`). A format without it adds nothing.
protocol TimelineReader {
    func readTimeline(_ document: Document, index: Int, into reading: inout TimelineReading)
    /// Every node of `document` that names `id` as a transaction, original transaction, web order
    /// line item or app transaction id (`TransactionLookup.fields`).
    func mentions(of id: String, in document: Document, index: Int) -> [TransactionLookup.Mention]
}
