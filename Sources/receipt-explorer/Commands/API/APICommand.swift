import ArgumentParser
import ReceiptKit
import ServerAPI

/// `receipt-explorer api …`: fetch from the App Store Server API, save, verify, and show.
struct APICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api",
        _superCommandName: ReceiptExplorer.toolName,
        abstract: "Fetch transactions, statuses, refunds and notifications from the App Store Server API, and verify them.",
        discussion: """
            Each command sends the request Apple documents (and Apple's own server libraries send), \
            signed with a bearer token made from your In-App Purchase key (ES256; kid, iss, iat, exp \
            five minutes on, aud appstoreconnect-v1, bid), follows the pages while Apple says hasMore, \
            and then verifies every signed item in every body exactly as `verify` verifies the saved \
            file: the same open, the same steps, with --environment, --bundle-id, --app-apple-id, \
            --root and --at as expectations. The key and the token are never printed, logged or saved.

            429 is retried after Retry-After and 5xx with backoff (1, 2, 4 s), at most 3 times each, \
            said on stderr. Apple's error bodies are printed with the name Apple's documentation gives \
            the code (4040010 TransactionIdNotFoundError). No redirect is followed and a body over \
            16 MiB is refused: the token goes only to the host asked.

            Exit status: 0 = every page came and every signed item verified; 1 = an item failed to \
            verify, or Apple answered with an error (401 included); 2 = usage, network, TLS, time-out \
            or I/O problem (one line on stderr naming the host and the reason).
            """,
        subcommands: [
            APITransactionCommand.self, APIHistoryCommand.self, APIStatusesCommand.self, APIRefundsCommand.self,
            APIOrderCommand.self, APIAppTransactionCommand.self, APINotificationsCommand.self, APITestNotificationCommand.self,
        ]
    )
}

/// The transaction id argument most endpoints take: digits, as Apple writes them.
struct TransactionIDArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("A transaction id (any of the customer's: Apple looks up the original).", valueName: "transaction-id"))
    var id: String

    func validate() throws {
        guard !id.isEmpty, id.allSatisfy(\.isWholeNumber), id.allSatisfy(\.isASCII) else {
            throw ValidationError("'\(id)' is not a transaction id (digits)")
        }
    }
}

struct APITransactionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "transaction", abstract: "Get Transaction Info: GET /inApps/v1/transactions/{transactionId}.")
    @OptionGroup var transaction: TransactionIDArgument
    @OptionGroup var api: APIOptions
    func run() throws { try APIRunner(options: api).run(.transaction(id: transaction.id)) }
}

struct APIHistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "history",
                                                    abstract: "Get Transaction History: GET /inApps/v2/history/{transactionId}, every page.")
    @OptionGroup var transaction: TransactionIDArgument
    @Option(help: ArgumentHelp("Transactions from this date (RFC 3339, YYYY-MM-DD or now).", valueName: "DATE")) var start: String?
    @Option(help: ArgumentHelp("Transactions before this date (RFC 3339, YYYY-MM-DD or now).", valueName: "DATE")) var end: String?
    @Option(name: .customLong("product-id"), help: ArgumentHelp("Only this product (repeatable).", valueName: "P")) var productIDs: [String] = []
    @Option(name: .customLong("product-type"),
            help: ArgumentHelp("AUTO_RENEWABLE, NON_RENEWABLE, CONSUMABLE or NON_CONSUMABLE, any case (repeatable).", valueName: "T"))
    var productTypes: [String] = []
    @Option(name: .customLong("group"), help: ArgumentHelp("Only this subscription group identifier (repeatable).", valueName: "G")) var groups: [String] = []
    @Option(help: ArgumentHelp("PURCHASED or FAMILY_SHARED, any case.", valueName: "O")) var ownership: String?
    @Flag(help: "Only revoked (refunded) transactions.") var revoked = false
    @Flag(name: .customLong("not-revoked"), help: "Only transactions that are not revoked.") var notRevoked = false
    @Option(help: ArgumentHelp("ascending or descending (by modification date).", valueName: "ORDER")) var sort: String?
    @OptionGroup var api: APIOptions

    func validate() throws {
        if revoked && notRevoked { throw ValidationError("--revoked and --not-revoked exclude each other") }
    }

    func run() throws {
        var filter = HistoryFilter()
        filter.startDate = try start.map { try APIRunner.epochMilliseconds($0, option: "--start") }
        filter.endDate = try end.map { try APIRunner.epochMilliseconds($0, option: "--end") }
        filter.productIDs = productIDs
        filter.productTypes = try productTypes.map { try APIRunner.match($0, APIValues.productType) }
        filter.groups = groups
        filter.ownership = try ownership.map { try APIRunner.match($0, APIValues.ownership) }
        filter.sort = try sort.map { try APIRunner.match($0, APIValues.sort) }
        filter.revoked = revoked ? true : (notRevoked ? false : nil)
        try APIRunner(options: api).run(.history(id: transaction.id, filter: filter), timelineView: true)
    }
}

struct APIStatusesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "statuses",
                                                    abstract: "Get All Subscription Statuses: GET /inApps/v1/subscriptions/{transactionId}.")
    @OptionGroup var transaction: TransactionIDArgument
    @Option(help: ArgumentHelp("Only subscriptions in this status: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked (repeatable).",
                               valueName: "N"))
    var status: [String] = []
    @OptionGroup var api: APIOptions

    func run() throws {
        let statuses = try status.map { try APIRunner.match($0, APIValues.status) }
        try APIRunner(options: api).run(.statuses(id: transaction.id, statuses: statuses), timelineView: true)
    }
}

struct APIRefundsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "refunds",
                                                    abstract: "Get Refund History: GET /inApps/v2/refund/lookup/{transactionId}, every page.")
    @OptionGroup var transaction: TransactionIDArgument
    @OptionGroup var api: APIOptions
    func run() throws { try APIRunner(options: api).run(.refunds(id: transaction.id)) }
}

struct APIOrderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "order", abstract: "Look Up Order ID: GET /inApps/v1/lookup/{orderId}.")
    @Argument(help: ArgumentHelp("The order id from the customer's App Store receipt email.", valueName: "order-id")) var orderID: String
    @OptionGroup var api: APIOptions

    func validate() throws {
        guard !orderID.isEmpty, orderID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw ValidationError("'\(orderID)' is not an order id (letters and digits, like MK5TTTVWJH)")
        }
    }

    func run() throws { try APIRunner(options: api).run(.order(id: orderID)) }
}

struct APIAppTransactionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "app-transaction",
                                                    abstract: "Get App Transaction Info: GET /inApps/v1/transactions/appTransactions/{transactionId}.")
    @OptionGroup var transaction: TransactionIDArgument
    @OptionGroup var api: APIOptions
    func run() throws { try APIRunner(options: api).run(.appTransaction(id: transaction.id)) }
}

struct APINotificationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "notifications",
                                                    abstract: "Get Notification History: POST /inApps/v1/notifications/history, every page.")
    @Option(help: ArgumentHelp("From this date (RFC 3339, YYYY-MM-DD or now; Apple keeps 180 days).", valueName: "DATE")) var start: String
    @Option(help: ArgumentHelp("Until this date.", valueName: "DATE")) var end: String
    @Option(help: ArgumentHelp("Only this notificationType (DID_RENEW, …; any case).", valueName: "T")) var type: String?
    @Option(help: ArgumentHelp("Only this subtype (with --type).", valueName: "S")) var subtype: String?
    @Option(help: ArgumentHelp("Only notifications about this transaction id.", valueName: "ID")) var transaction: String?
    @Flag(name: .customLong("only-failures"), help: "Only notifications that did not reach your server.") var onlyFailures = false
    @OptionGroup var api: APIOptions

    func validate() throws {
        if subtype != nil && type == nil { throw ValidationError("--subtype needs --type (Apple filters a subtype within a type)") }
        if let transaction, transaction.isEmpty || !transaction.allSatisfy({ $0.isASCII && $0.isWholeNumber }) {
            throw ValidationError("--transaction: '\(transaction)' is not a transaction id (digits)")
        }
        if type != nil && transaction != nil {
            // Apple answers 4000019 MultipleFiltersSuppliedError; said before a request is spent.
            throw ValidationError("--type and --transaction exclude each other (Apple takes one filter: MultipleFiltersSuppliedError)")
        }
    }

    func run() throws {
        var filter = NotificationFilter(startDate: try APIRunner.epochMilliseconds(start, option: "--start"),
                                        endDate: try APIRunner.epochMilliseconds(end, option: "--end"))
        filter.type = try type.map { try APIRunner.match($0, APIValues.notificationType) }
        filter.subtype = try subtype.map { try APIRunner.match($0, APIValues.subtype) }
        filter.transactionID = transaction
        filter.onlyFailures = onlyFailures
        try APIRunner(options: api).run(.notifications(filter), timelineView: true)
    }
}

struct APITestNotificationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-notification",
        abstract: "Request a Test Notification (POST /inApps/v1/notifications/test), or with --status TOKEN get its status (GET /inApps/v1/notifications/test/{token}).")
    @Option(help: ArgumentHelp("The testNotificationToken an earlier request printed: fetch that notification's status and payload.", valueName: "TOKEN"))
    var status: String?
    @OptionGroup var api: APIOptions

    func validate() throws {
        if let status, status.isEmpty || !status.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) {
            throw ValidationError("--status: '\(status)' is not a test notification token (letters, digits, '-', '_')")
        }
    }

    func run() throws { try APIRunner(options: api).run(status.map { .testNotificationStatus(token: $0) } ?? .testNotification) }
}
