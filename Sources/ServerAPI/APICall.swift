/// The App Store Server API endpoints this tool calls, each with its request and how it pages.
/// Paths, parameter and member names are Apple's (developer.apple.com/documentation/appstoreserverapi).
public enum APICall: Sendable, Equatable {
    case transaction(id: String)
    case history(id: String, filter: HistoryFilter)
    case statuses(id: String, statuses: [String])
    case refunds(id: String)
    case order(id: String)
    case appTransaction(id: String)
    case notifications(NotificationFilter)
    case testNotification
    case testNotificationStatus(token: String)

    /// How a response says there is more, and how the next request asks for it.
    public enum Paging: Sendable, Equatable {
        case none
        /// `hasMore` and `revision` in the body; the next request adds `revision` to the query.
        case revision
        /// `hasMore` and `paginationToken` in the body; the next request adds `paginationToken` to the query.
        case paginationToken
    }

    public var paging: Paging {
        switch self {
        case .history, .refunds: .revision
        case .notifications: .paginationToken
        default: .none
        }
    }

    /// The name saved bodies are numbered under (`history-001.json`).
    public var fileStem: String {
        switch self {
        case .transaction: "transaction"
        case .history: "history"
        case .statuses: "statuses"
        case .refunds: "refunds"
        case .order: "order"
        case .appTransaction: "app-transaction"
        case .notifications: "notifications"
        case .testNotification: "test-notification"
        case .testNotificationStatus: "test-notification-status"
        }
    }

    /// The request for the first page (`cursor` nil) or the page after the one that gave `cursor`.
    public func request(cursor: String? = nil) -> APIRequest {
        let segment = APIRequest.percentEncoded
        switch self {
        case .transaction(let id):
            return APIRequest(method: "GET", path: "/inApps/v1/transactions/" + segment(id))
        case .history(let id, let filter):
            return APIRequest(method: "GET", path: "/inApps/v2/history/" + segment(id),
                              query: (cursor.map { [.init("revision", $0)] } ?? []) + filter.queryItems)
        case .statuses(let id, let statuses):
            return APIRequest(method: "GET", path: "/inApps/v1/subscriptions/" + segment(id), query: statuses.map { .init("status", $0) })
        case .refunds(let id):
            return APIRequest(method: "GET", path: "/inApps/v2/refund/lookup/" + segment(id), query: cursor.map { [.init("revision", $0)] } ?? [])
        case .order(let id):
            return APIRequest(method: "GET", path: "/inApps/v1/lookup/" + segment(id))
        case .appTransaction(let id):
            return APIRequest(method: "GET", path: "/inApps/v1/transactions/appTransactions/" + segment(id))
        case .notifications(let filter):
            return APIRequest(method: "POST", path: "/inApps/v1/notifications/history",
                              query: cursor.map { [.init("paginationToken", $0)] } ?? [], body: filter.body)
        case .testNotification:
            return APIRequest(method: "POST", path: "/inApps/v1/notifications/test")
        case .testNotificationStatus(let token):
            return APIRequest(method: "GET", path: "/inApps/v1/notifications/test/" + segment(token))
        }
    }
}

/// Get Transaction History's query: every filter Apple documents, in the order Apple's library sends them
/// (`revision` first, then these).
public struct HistoryFilter: Sendable, Equatable {
    public var startDate: Int64?
    public var endDate: Int64?
    public var productIDs: [String] = []
    public var productTypes: [String] = []
    public var sort: String?
    public var groups: [String] = []
    public var ownership: String?
    public var revoked: Bool?

    public init() {}

    var queryItems: [APIRequest.QueryItem] {
        var items: [APIRequest.QueryItem] = []
        if let startDate { items.append(.init("startDate", String(startDate))) }
        if let endDate { items.append(.init("endDate", String(endDate))) }
        items += productIDs.map { .init("productId", $0) }
        items += productTypes.map { .init("productType", $0) }
        if let sort { items.append(.init("sort", sort)) }
        items += groups.map { .init("subscriptionGroupIdentifier", $0) }
        if let ownership { items.append(.init("inAppOwnershipType", ownership)) }
        if let revoked { items.append(.init("revoked", revoked ? "true" : "false")) }
        return items
    }
}

/// Get Notification History's JSON body (`NotificationHistoryRequest`), members in the order of Apple's library.
public struct NotificationFilter: Sendable, Equatable {
    public var startDate: Int64
    public var endDate: Int64
    public var type: String?
    public var subtype: String?
    public var transactionID: String?
    public var onlyFailures = false

    public init(startDate: Int64, endDate: Int64) {
        self.startDate = startDate
        self.endDate = endDate
    }

    /// Compact JSON; every string in it was matched against Apple's values or checked to be digits,
    /// so none needs escaping.
    var body: [UInt8] {
        var members = ["\"startDate\":\(startDate)", "\"endDate\":\(endDate)"]
        if let type { members.append("\"notificationType\":\"\(type)\"") }
        if let subtype { members.append("\"notificationSubtype\":\"\(subtype)\"") }
        if let transactionID { members.append("\"transactionId\":\"\(transactionID)\"") }
        if onlyFailures { members.append("\"onlyFailures\":true") }
        return Array(("{" + members.joined(separator: ",") + "}").utf8)
    }
}
