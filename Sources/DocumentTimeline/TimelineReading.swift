import DocumentCore

/// One thing a document says happened, before the documents' reports are merged into events.
package struct TimelineFact {
    package var kind: TimelineEventKind
    package var date: Int64
    package var transactionID: String?
    package var originalTransactionID: String
    package var group: String?
    package var productID: String?
    package var detail: String?
    package var source: TimelineSource
    /// The app the document is about: ids are unique within one app only (Xcode numbers from 0).
    package var bundleID: String? = nil
    /// A renewal-status fact's automatic renewal, on or off (nil: not said): a renewal info and a
    /// notification saying the same at the same moment are one event.
    package var autoRenew: Bool? = nil
    /// The notification that reported it was not delivered: its last attempt and count ("last attempt
    /// TIMED_OUT (2 attempts)"), from the Server API response that recorded the attempts.
    package var undelivered: String? = nil
    package init(kind: TimelineEventKind, date: Int64, transactionID: String? = nil, originalTransactionID: String, group: String? = nil, productID: String? = nil, detail: String? = nil, source: TimelineSource, bundleID: String? = nil, autoRenew: Bool? = nil, undelivered: String? = nil) {
        self.kind = kind
        self.date = date
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.group = group
        self.productID = productID
        self.detail = detail
        self.source = source
        self.bundleID = bundleID
        self.autoRenew = autoRenew
        self.undelivered = undelivered
    }
}

/// One document's view of one transaction: what entitlement, conflicts and `--transaction` read.
package struct TransactionObservation {
    package var transactionID: String
    package var originalTransactionID: String
    package var webOrderLineItemID: String?
    package var group: String?
    package var productID: String?
    /// StoreKit's `type` ("Consumable"…); a receipt says only whether it is a subscription.
    package var type: String?
    package var ownership: String?
    package var purchase: Int64?
    package var expires: Int64?
    package var revocation: Int64?
    package var isUpgraded: Bool = false
    /// When the document said it: a receipt's creation date, a token's signedDate.
    package var issued: Int64?
    package var isReceipt: Bool
    package var source: TimelineSource
    package var bundleID: String? = nil
    package init(transactionID: String, originalTransactionID: String, webOrderLineItemID: String? = nil, group: String? = nil, productID: String? = nil, type: String? = nil, ownership: String? = nil, purchase: Int64? = nil, expires: Int64? = nil, revocation: Int64? = nil, isUpgraded: Bool = false, issued: Int64? = nil, isReceipt: Bool, source: TimelineSource, bundleID: String? = nil) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.webOrderLineItemID = webOrderLineItemID
        self.group = group
        self.productID = productID
        self.type = type
        self.ownership = ownership
        self.purchase = purchase
        self.expires = expires
        self.revocation = revocation
        self.isUpgraded = isUpgraded
        self.issued = issued
        self.isReceipt = isReceipt
        self.source = source
        self.bundleID = bundleID
    }
}

/// A billing grace period a notification announced: entitlement continues until `to`.
package struct GraceWindow {
    package var originalTransactionID: String
    package var from: Int64
    package var to: Int64
    package var bundleID: String? = nil
    package init(originalTransactionID: String, from: Int64, to: Int64, bundleID: String? = nil) {
        self.originalTransactionID = originalTransactionID
        self.from = from
        self.to = to
        self.bundleID = bundleID
    }
}

/// A receipt among the inputs: when it was created, and the node that says so.
package struct ReceiptSnapshot {
    package var document: Int
    package var created: Int64?
    package var source: TimelineSource
    package var bundleID: String? = nil
    package init(document: Int, created: Int64? = nil, source: TimelineSource, bundleID: String? = nil) {
        self.document = document
        self.created = created
        self.source = source
        self.bundleID = bundleID
    }
}

/// Everything the documents say, read once: each document's format reads it (`TimelineReader`, in
/// the kind's folder: a receipt's purchases, a token's transaction, renewal info or notification).
/// Facts and observations are kept as records whose strings are interned in one pool
/// (`TimelineRecords`), read back as `TimelineFact`s and `TransactionObservation`s.
package struct TimelineReading {
    let pool: TimelinePool
    package var facts: TimelineFactList
    package var observations: TimelineObservationList
    package var graces: [GraceWindow] = []
    package var receipts: [ReceiptSnapshot] = []

    init(_ documents: [Document]) {
        pool = TimelinePool()
        facts = TimelineFactList(pool: pool)
        observations = TimelineObservationList(pool: pool)
        for (index, document) in documents.enumerated() {
            (document.format as? any TimelineReader)?.readTimeline(document, index: index, into: &self)
        }
        adoptBundles()
    }

    /// Room for `purchases` more observations and sources, twice as many facts (a purchase's offer
    /// and refund are facts of their own) and four strings each (its ids and its place), for a
    /// reader that knows its count: the lists grown by doubling held a copy beside the old one at
    /// a 20,000-purchase receipt's peak, and a 50 MB receipt's facts, one past a purchase for an
    /// offer, doubled at the timeline's peak (issue 32). Room not written is address space.
    package mutating func reserve(purchases: Int) {
        facts.records.reserveCapacity(facts.count + 2 * purchases)
        observations.records.reserveCapacity(observations.count + purchases)
        pool.sources.reserveCapacity(pool.sources.count + purchases)
        pool.strings.reserve(4 * purchases)
    }

    /// What a reader added since `facts`, `observations`, `graces` belongs to `bundle`.
    package mutating func scope(_ bundle: String?, facts: Int, observations: Int, graces: Int) {
        let ref = pool.strings.intern(bundle)
        for i in facts..<self.facts.count where self.facts.records[i].bundleID == TimelineStrings.none { self.facts.records[i].bundleID = ref }
        for i in observations..<self.observations.count where self.observations.records[i].bundleID == TimelineStrings.none {
            self.observations.records[i].bundleID = ref
        }
        for i in graces..<self.graces.count where self.graces[i].bundleID == nil { self.graces[i].bundleID = bundle }
    }

    /// A document that names no app (a renewal info) joins the one app that has its original transaction.
    mutating func adoptBundles() {
        let none = TimelineStrings.none
        var apps: [Int32: Set<Int32>] = [:]
        for f in facts.records where f.bundleID != none { apps[f.originalTransactionID, default: []].insert(f.bundleID) }
        for o in observations.records where o.bundleID != none { apps[o.originalTransactionID, default: []].insert(o.bundleID) }
        func only(_ original: Int32) -> Int32 { apps[original].flatMap { $0.count == 1 ? $0.first : nil } ?? none }
        for i in facts.indices where facts.records[i].bundleID == none { facts.records[i].bundleID = only(facts.records[i].originalTransactionID) }
        for i in observations.indices where observations.records[i].bundleID == none {
            observations.records[i].bundleID = only(observations.records[i].originalTransactionID)
        }
        for i in graces.indices where graces[i].bundleID == nil {
            graces[i].bundleID = pool.strings.string(only(pool.strings.intern(graces[i].originalTransactionID)))
        }
    }
}

/// One subscription chain: an original transaction within one app.
struct ChainKey: Hashable {
    var bundleID: String?
    var original: String
}

/// What a format gives the timeline, in its kind's folder: the facts its documents state, and where
/// they mention an id (`timeline --transaction`). A format without it adds nothing.
package protocol TimelineReader {
    func readTimeline(_ document: Document, index: Int, into reading: inout TimelineReading)
    /// Every node of `document` that names `id` as a transaction, original transaction, web order
    /// line item or app transaction id (`TransactionLookup.fields`).
    func mentions(of id: String, in document: Document, index: Int) -> [TransactionLookup.Mention]
}
