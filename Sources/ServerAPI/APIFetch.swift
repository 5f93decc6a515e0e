/// A call's pages, fetched in order: the first request, then while a body says `hasMore`, the next
/// page by its `revision` or `paginationToken`.
public enum APIFetch {
    /// Apple's history pages hold 20 transactions: 1,000 pages is 20,000, past any real customer.
    public static let maximumPages = 1000

    public struct Page: Sendable, Equatable {
        public var request: APIRequest
        /// The body exactly as received.
        public var body: [UInt8]
        /// `history-001.json`, … : the name `--out` saves it under and documents are opened as.
        public var fileName: String
    }

    /// Fetches every page, handing each to `received` as it arrives (so `--out` keeps what came before
    /// a failure); returns the failure that stopped it, nil when every page came.
    public static func run(_ call: APICall, client: APIClient, received: (Page) throws -> Void) rethrows -> APIFailure? {
        var cursor: String?
        var seen: Set<String> = []
        for number in 1...maximumPages {
            let request = call.request(cursor: cursor)
            let body: [UInt8]
            switch client.send(request) {
            case .failure(let failure): return failure
            case .success(let bytes): body = bytes
            }
            try received(Page(request: request, body: body, fileName: fileName(call.fileStem, number)))
            guard let next = ResponseBody.read(body).nextCursor(call.paging) else { return nil }
            // A server that hands back a cursor it gave before would page forever.
            guard seen.insert(next).inserted else {
                return APIFailure(kind: .transport, description: "\(client.host) gave the same \(call.paging == .revision ? "revision" : "paginationToken") twice: stopped after page \(number)")
            }
            cursor = next
        }
        return APIFailure(kind: .transport, description: "\(client.host) still had more after \(maximumPages) pages: stopped")
    }

    /// `history-001.json`: three digits at least, so names sort in page order.
    public static func fileName(_ stem: String, _ number: Int) -> String {
        let digits = String(number)
        return stem + "-" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits + ".json"
    }
}
