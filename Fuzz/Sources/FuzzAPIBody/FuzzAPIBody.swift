import FuzzSupport
import ServerAPI

/// Fuzz target `apibody`: what the `api` client reads of a response body before anything else does
/// (the body is then opened as a document, which `receipt` and `paste` fuzz). Traps when:
/// - `ResponseBody.read` finds members in something that is not one well-formed JSON object;
/// - a next-page cursor is given without `hasMore: true`, or for a call that does not page;
/// - an error code's description is empty or holds a control character.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPIBody(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let raw = Array(UnsafeBufferPointer(start: data, count: size))
    let body = ResponseBody.read(raw)
    if !body.isObject && body != ResponseBody() { fatalError("members read from a body that is not one JSON object") }
    if body.hasMore != true, body.nextCursor(.revision) != nil || body.nextCursor(.paginationToken) != nil {
        fatalError("a next page without hasMore")
    }
    if body.nextCursor(.none) != nil { fatalError("a cursor for a call that does not page") }
    if let code = body.errorCode {
        let text = APIErrorCode.describe(code)
        assertTerminalSafe(text, "APIErrorCode.describe", allowNewlines: false)
    }
    return 0
}
