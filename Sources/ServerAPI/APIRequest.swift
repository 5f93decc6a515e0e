/// One request as it goes on the wire: method, path, query (in Apple's parameter names, repeated for
/// lists) and JSON body. Built by `APICall`; the client adds the host, the token and the headers.
public struct APIRequest: Sendable, Equatable {
    public var method: String
    public var path: String
    public var query: [QueryItem]
    public var body: [UInt8]?

    public struct QueryItem: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(method: String, path: String, query: [QueryItem] = [], body: [UInt8]? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
    }

    /// The path with its percent-encoded query, as the request line carries it.
    public var target: String {
        guard !query.isEmpty else { return path }
        return path + "?" + query.map { Self.percentEncoded($0.name) + "=" + Self.percentEncoded($0.value) }.joined(separator: "&")
    }

    /// RFC 3986 unreserved characters kept, every other UTF-8 byte as %XX: a path segment or query
    /// value cannot change the request's shape (no `/`, `?`, `&`, `#` get through).
    public static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                out += "%"
                out.unicodeScalars.append(digits[Int(byte >> 4)])
                out.unicodeScalars.append(digits[Int(byte & 15)])
            }
        }
        return out
    }
}
