import DocumentCore

/// `timeline --transaction ID`: every document and node that mentions the id (as a transaction,
/// original transaction, web order line item or app transaction id) and, for each receipt that
/// does not, the reason the documents' dates and types give, or none.
public struct TransactionLookup: Sendable {
    public struct Mention: Sendable, Equatable {
        /// "transactionId", "originalTransactionId", "webOrderLineItemId", "appTransactionId".
        public var field: String
        public var source: TimelineSource
        package init(field: String, source: TimelineSource) {
            self.field = field
            self.source = source
        }
    }

    public struct Absence: Sendable, Equatable {
        public var document: Int
        public var reason: String
        /// False for "no reason in these documents".
        public var explained: Bool
    }

    public var id: String
    public var mentions: [Mention]
    public var absences: [Absence]

    public static let fields = ["transactionId", "originalTransactionId", "webOrderLineItemId", "appTransactionId"]

    public static func find(_ id: String, in documents: [Document]) -> TransactionLookup {
        find(id, in: documents, reading: TimelineReading(documents))
    }

    static func find(_ id: String, in documents: [Document], reading: TimelineReading) -> TransactionLookup {
        var mentions: [Mention] = []
        for (index, document) in documents.enumerated() {
            mentions += (document.format as? any TimelineReader)?.mentions(of: id, in: document, index: index) ?? []
        }
        let mentioned = Set(mentions.map(\.source.document))
        let absences = reading.receipts.filter { !mentioned.contains($0.document) }.map { snapshot in
            let (reason, explained) = reason(id, snapshot, reading, mentions, names: documents.map(\.source.name))
            return Absence(document: snapshot.document, reason: reason, explained: explained)
        }
        return TransactionLookup(id: id, mentions: mentions, absences: absences)
    }

    /// Why a receipt lacks the transaction, from what the other documents say about it.
    static func reason(_ id: String, _ snapshot: ReceiptSnapshot, _ reading: TimelineReading, _ mentions: [Mention],
                       names: [String]) -> (String, Bool) {
        let none = "no reason in these documents"
        if !mentions.isEmpty, mentions.allSatisfy({ $0.field == "appTransactionId" }) {
            return ("the id is an appTransactionId, which receipts do not carry", true)
        }
        // What another document of the same app says about the id.
        // Made from the records one at a time: a receipt's own purchases are skipped unread.
        let sameApp = reading.observations.indices.lazy.filter { !reading.observations.records[$0].isReceipt }
            .map { reading.observations[$0] }
            .filter { $0.bundleID == nil || snapshot.bundleID == nil || $0.bundleID == snapshot.bundleID }
        guard let known = sameApp.first(where: { $0.transactionID == id })
                ?? sameApp.first(where: { $0.originalTransactionID == id || $0.webOrderLineItemID == id }) else {
            return (mentions.isEmpty ? "\(none) (no document mentions the id)" : none, false)
        }
        let from = TimelineConflicts.name(known.source, names)
        guard let created = snapshot.created, let bought = known.purchase else { return (none, false) }
        if bought > created {
            return ("the receipt was created \(Timeline.iso(created)), before the purchase \(Timeline.iso(bought)) (\(from))", true)
        }
        if known.type == "Consumable" {
            return ("a consumable (type Consumable in \(from)): a receipt lists a consumable only until the app finishes the transaction, "
                    + "and it was bought \(Timeline.iso(bought)), before the receipt was created \(Timeline.iso(created))", true)
        }
        if known.ownership == "FAMILY_SHARED" {
            return ("a family-shared purchase (inAppOwnershipType FAMILY_SHARED in \(from)): it enters a device's receipt only after "
                    + "purchases are restored there", true)
        }
        return (none, false)
    }
}
