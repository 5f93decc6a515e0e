import CCurl
import Platform

/// C strings that live as long as the process (the library names CCurl keeps a pointer to).
final class CStringList: @unchecked Sendable {
    // @unchecked: written once in init, only read afterwards.
    let pointers: UnsafeMutablePointer<UnsafePointer<CChar>?>

    init(_ strings: [String]) {
        pointers = .allocate(capacity: strings.count + 1)
        for (i, string) in strings.enumerated() { pointers[i] = UnsafePointer(strdup(string)) }
        pointers[strings.count] = nil
    }
}

/// One HTTP exchange through libcurl (CCurl): what came back, or which family of failure.
struct HTTPExchange {
    var failure: ccurl_error
    var failureText: String
    var status: Int
    var body: [UInt8]
    var retryAfter: String
    var contentType: String
    var location: String

    static func perform(method: String, url: String, headers: [String], body: [UInt8]?, timeoutSeconds: Int, maxBody: Int) -> HTTPExchange {
        // C copies of the header lines, wiped before they are freed: one of them carries the token.
        let lines = headers.map { strdup($0) }
        defer { for line in lines { if let line { memset(line, 0, strlen(line)); free(line) } } }
        let pointers: [UnsafePointer<CChar>?] = lines.map { UnsafePointer($0) }
        var response = ccurl_response()
        let payload = body ?? []
        method.withCString { method in
            url.withCString { url in
                pointers.withUnsafeBufferPointer { headerList in
                    payload.withUnsafeBufferPointer { bytes in
                        var request = ccurl_request(method: method, url: url, headers: headerList.baseAddress, header_count: headerList.count,
                                                    body: body == nil ? nil : bytes.baseAddress, body_length: bytes.count,
                                                    timeout_seconds: timeoutSeconds, max_body: maxBody)
                        ccurl_perform(libraryNames.pointers, &request, &response)
                    }
                }
            }
        }
        defer { ccurl_response_free(&response) }
        let received = response.body.map { [UInt8](UnsafeBufferPointer(start: $0, count: response.body_length)) } ?? []
        return HTTPExchange(failure: response.error, failureText: text(&response.error_text), status: response.status,
                            body: received, retryAfter: text(&response.retry_after), contentType: text(&response.content_type),
                            location: text(&response.location))
    }

    /// SharedLibraries.curl as a NULL-terminated C array, made once and kept for the process.
    static let libraryNames = CStringList(SharedLibraries.curl)

    /// A fixed C char array (imported as a tuple) as a String, up to its NUL.
    private static func text<T>(_ field: inout T) -> String {
        withUnsafeBytes(of: &field) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
