import ReceiptKit
import DocumentCore

/// What happened, as `timeline` names it (the JSON `kind`).
public enum TimelineEventKind: String, Sendable, CaseIterable {
    // A period starts: the most specific name the documents give wins when they agree on the moment.
    case purchase, renewal, upgrade, downgrade, crossgrade, resubscribe
    case familyShared = "family-shared"
    case offerRedeemed = "offer-redeemed"
    case billingRetry = "billing-retry"
    case gracePeriod = "grace-period"
    case gracePeriodEnded = "grace-period-ended"
    case expiry, refund, revocation
    case refundReversed = "refund-reversed"
    case renewalStatus = "renewal-status"
    case renewalPreference = "renewal-preference"
    /// Any other notification (price increase, renewal extension, consumption request…).
    case notification
    /// No entitlement between two periods (made by the timeline, from no document).
    case gap

    /// Kinds that say a period started: they are one event when they name the same transaction and moment.
    var startsPeriod: Bool {
        switch self {
        case .purchase, .renewal, .upgrade, .downgrade, .crossgrade, .resubscribe: true
        default: false
        }
    }

    /// Which name wins when documents name one period start differently (a notification's subtype
    /// is more specific than a transaction's reason).
    var specificity: Int {
        switch self {
        case .purchase: 0
        case .renewal: 1
        case .crossgrade: 2
        default: 3
        }
    }

    /// Order of events at the same moment.
    var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}

/// Where a document says it: the document (its position among the inputs), a readable place and
/// the node the explorer selects.
public struct TimelineSource: Sendable, Hashable {
    /// Index into the documents the timeline was built from.
    public var document: Int
    /// "in-app purchase 1", "signedTransactions[0]", "notification DID_RENEW".
    public var place: String
    public var node: NodeID?
    /// The node's first byte in the file as loaded.
    public var fileOffset: Int?
    package init(document: Int, place: String, node: NodeID? = nil, fileOffset: Int? = nil) {
        self.document = document
        self.place = place
        self.node = node
        self.fileOffset = fileOffset
    }
}

/// One event on the time line, reported by one or more documents.
public struct TimelineEvent: Sendable, Equatable {
    public var kind: TimelineEventKind
    /// Milliseconds since 1970 (UTC).
    public var date: Int64
    public var transactionID: String?
    public var productID: String?
    /// What else the documents say: the offer's type and period, the refund's type, percentage and reason…
    public var detail: String?
    /// For a gap: when entitlement came back.
    public var until: Int64?
    /// Every document that reports it, in document order.
    public var sources: [TimelineSource]
    /// A notification reported it and Apple did not deliver that notification: "last attempt
    /// TIMED_OUT (2 attempts)" (the server may never have heard of the event).
    public var undelivered: String? = nil
}

/// The events of one original transaction (and its subscription group, when a document names it).
public struct TimelineGroup: Sendable, Equatable {
    public var subscriptionGroup: String?
    public var originalTransactionID: String
    /// The app, named only when the documents are about more than one (ids repeat across apps).
    public var bundleID: String?
    /// Made from compact records when read (`TimelineEvents`).
    public var events: TimelineEvents
    /// The periods with entitlement, merged (empty for a purchase that is no subscription).
    public var entitled: [Range<Int64>]
    /// Why entitlement ended at each `entitled` range's end ("expired", "refunded"…).
    public var endings: [String]
    /// The billing grace periods notifications announced (part of `entitled`).
    public var graces: [Range<Int64>] = []

    /// "subscription group 21400001 · original transaction 2000000700000000".
    public var title: String {
        let original = "original transaction \(originalTransactionID)" + (bundleID.map { " of \($0)" } ?? "")
        return subscriptionGroup.map { "subscription group \($0) · \(original)" } ?? "\(original) (no subscription group)"
    }
}

/// A disagreement between documents, or a receipt that contradicts a later one.
public struct TimelineFinding: Sendable, Equatable {
    public var code: String
    public var message: String
    public var sources: [TimelineSource]
}

/// Every event of every document on one time line.
public struct Timeline: Sendable {
    /// The documents' names, in input order (`TimelineSource.document` indexes them).
    public var names: [String]
    public var summaries: [String]
    public var groups: [TimelineGroup]
    public var findings: [TimelineFinding]

    public var eventCount: Int { groups.reduce(0) { $0 + $1.events.records.count(where: { $0.kind != .gap }) } }
    public var gapCount: Int { groups.reduce(0) { $0 + $1.events.records.count(where: { $0.kind == .gap }) } }

    /// The widest moment's ISO 8601 text (StoreKit's milliseconds are wider than a receipt's), 20 when none.
    public var dateWidth: Int {
        var widest: Int?
        for group in groups {
            for i in group.events.indices { widest = max(widest ?? 0, Timeline.iso(group.events.date(at: i)).count) }
        }
        return widest ?? 20
    }

    /// ISO 8601 in UTC, as every output prints a moment.
    public static func iso(_ ms: Int64) -> String { ReceiptDate(epochMilliseconds: ms).iso8601 }
}
