import ASN1Lenient
import JSONLenient

/// What the client reads of a response body: whether it is one JSON object, the paging members
/// (`hasMore`, `revision`, `paginationToken`) and Apple's error members (`errorCode`,
/// `errorMessage`). The signed items in it are the document's business (DocumentModel), not this.
public struct ResponseBody: Sendable, Equatable {
    /// One JSON object without an error-severity finding.
    public var isObject = false
    public var hasMore: Bool?
    public var revision: String?
    public var paginationToken: String?
    public var errorCode: Int64?
    public var errorMessage: String?
    /// Look Up Order ID's `status` (0 valid, 1 invalid).
    public var status: Int64?
    /// Request a Test Notification's answer.
    public var testNotificationToken: String?

    /// An empty reading (nothing found): what a body that is not one JSON object reads as; the fuzz target compares with it.
    public init() {}

    public static func read(_ bytes: [UInt8]) -> ResponseBody {
        var body = ResponseBody()
        let tree = JSONParser.parse(bytes)
        guard let root = tree.root, tree[root].kind == .object,
              !tree.diagnostics.contains(where: { $0.severity == .error }) else { return body }
        body.isObject = true
        body.hasMore = tree.value("hasMore", in: root).flatMap(tree.bool(at:))
        body.revision = tree.value("revision", in: root).flatMap(tree.string(at:))
        body.paginationToken = tree.value("paginationToken", in: root).flatMap(tree.string(at:))
        body.errorCode = tree.value("errorCode", in: root).flatMap(tree.number(at:))?.integer
        body.errorMessage = tree.value("errorMessage", in: root).flatMap(tree.string(at:))
        body.status = tree.value("status", in: root).flatMap(tree.number(at:))?.integer
        body.testNotificationToken = tree.value("testNotificationToken", in: root).flatMap(tree.string(at:))
        return body
    }

    /// The cursor of the next page, when the body says there is one.
    public func nextCursor(_ paging: APICall.Paging) -> String? {
        guard hasMore == true else { return nil }
        switch paging {
        case .none: return nil
        case .revision: return revision
        case .paginationToken: return paginationToken
        }
    }
}
