import JWSKit
import ReceiptKit

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

/// Everything the documents say, read once: each source family's reader (ReceiptEvents,
/// TransactionEvents, RenewalInfoEvents, NotificationEvents) adds to it.
struct TimelineReading {
    var facts: [TimelineFact] = []
    var observations: [TransactionObservation] = []
    var graces: [GraceWindow] = []
    var receipts: [ReceiptSnapshot] = []

    init(_ documents: [Document]) {
        for (index, document) in documents.enumerated() {
            ReceiptEvents.read(document, index: index, into: &self)
            StoreKitTokens.read(document, index: index, into: &self)
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

/// The tokens of a StoreKit 2 document, each handed to the reader of its payload kind.
enum StoreKitTokens {
    static func read(_ document: Document, index: Int, into reading: inout TimelineReading) {
        guard let side = StoreKitSide(document) else { return }
        for (i, token) in side.model.tokens.enumerated() {
            let payload = token.document.payload
            let source = Self.source(side, i, document: index)
            let marks = (reading.facts.count, reading.observations.count, reading.graces.count)
            defer { reading.scope(payload.bundleId, facts: marks.0, observations: marks.1, graces: marks.2) }
            let parentKind = token.parent.map { side.model.tokens[$0].document.payload.kind }
            switch payload.kind {
            // A notification's transaction: the notification says which of its events it is about.
            case .transaction: TransactionEvents.read(payload, source: source, events: parentKind != .notification, into: &reading)
            // A notification's renewal info is read with its notification (it explains it).
            case .renewalInfo where parentKind != .notification: RenewalInfoEvents.read(payload, source: source, into: &reading)
            case .notification:
                let nested = side.model.tokens.enumerated().filter { $0.element.parent == i }.map(\.element.document.payload)
                NotificationEvents.read(payload, transaction: nested.first { $0.kind == .transaction },
                                        renewal: nested.first { $0.kind == .renewalInfo }, source: source, into: &reading)
            default: break
            }
        }
    }

    /// A token's payload (its root object) and the token's path in the document.
    static func source(_ side: StoreKitSide, _ token: Int, document: Int) -> TimelineSource {
        let whole = side.transactionSide(token)
        let path = side.path(token)
        let label = side.model.tokens[token].document.payload.kind.label
        return TimelineSource(document: document, place: path.isEmpty ? label : path, node: whole.node,
                              fileOffset: whole.fileRange?.lowerBound)
    }
}

/// Reading payload values as the timeline needs them.
extension StoreKitPayload {
    func milliseconds(_ path: String) -> Int64? {
        switch value(path) {
        case .date(let ms, _)?, .number(let ms)?: ms.isFinite && abs(ms) < 9e15 ? Int64(ms) : nil
        case .integer(let ms)?: ms
        default: nil
        }
    }

    /// A string, an enumeration's raw value or an integer, as text.
    func text(_ path: String) -> String? {
        switch value(path) {
        case .integer(let v)?: String(v)
        case .bool(let b)?: b ? "true" : "false"
        default: string(path)
        }
    }

    func flag(_ path: String) -> Bool { if case .bool(true)? = value(path) { return true }; return false }
}
