import CCurl

/// Sends one request, retrying what Apple says to retry: 429 after `Retry-After`, 5xx with backoff,
/// each at most `maximumRetries` times, said on `note`. Every request carries a fresh bearer token
/// (as Apple's libraries make one per request); the token never leaves this type.
public struct APIClient: Sendable {
    public var baseURL: String
    public var credentials: BearerCredentials
    public var userAgent: String
    public var timeoutSeconds = 30
    /// Apple's largest page (a history page of 20 transactions, a notification page) is well under 1 MB.
    public var maximumBodyBytes = 16 << 20
    public var maximumRetries = 3
    /// The longest Retry-After honoured; a longer one ends the call.
    public var maximumRetryAfter = 60
    /// Lines for stderr: retries always, and with `verbose` each request line and its token's claims.
    public var note: @Sendable (String) -> Void
    public var verbose = false
    public var now: @Sendable () -> Int64
    public var sleep: @Sendable (Int) -> Void

    public init(baseURL: String, credentials: BearerCredentials, userAgent: String, note: @escaping @Sendable (String) -> Void,
                now: @escaping @Sendable () -> Int64, sleep: @escaping @Sendable (Int) -> Void) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.credentials = credentials
        self.userAgent = userAgent
        self.note = note
        self.now = now
        self.sleep = sleep
    }

    /// The host part of the base URL, for messages.
    public var host: String {
        let afterScheme = baseURL.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        // "https://host/path" splits as ["https:", "", "host/path"].
        let rest = afterScheme.count == 3 && afterScheme[0].hasSuffix(":") && afterScheme[1].isEmpty ? afterScheme[2] : Substring(baseURL)
        return String(rest.prefix { $0 != "/" })
    }

    /// The body of a 2xx answer that is one JSON object, or why there is none.
    public func send(_ request: APIRequest) -> Result<[UInt8], APIFailure> {
        var retries = 0
        while true {
            let claims = BearerClaims(credentials: credentials, now: now())
            guard let token = claims.token(signedBy: credentials.signer) else {
                return .failure(APIFailure(kind: .signing, description: "OpenSSL could not sign the bearer token with --key"))
            }
            if verbose { note("\(request.method) \(baseURL)\(request.target) (token \(claims.shown))") }
            var headers = ["Authorization: Bearer " + token, "User-Agent: " + userAgent, "Accept: application/json"]
            if request.body != nil { headers.append("Content-Type: application/json") }
            let exchange = HTTPExchange.perform(method: request.method, url: baseURL + request.target, headers: headers, body: request.body,
                                                timeoutSeconds: timeoutSeconds, maxBody: maximumBodyBytes)
            switch judge(exchange, request, claims: claims, retries: retries) {
            case .done(let result): return result
            case .retry(let seconds, let why):
                guard retries < maximumRetries else {
                    return .failure(finalFailure(exchange, request) ?? transport("\(why), still after \(maximumRetries) retries"))
                }
                retries += 1
                note("\(host) \(why): retrying in \(seconds) s (retry \(retries) of \(maximumRetries))")
                sleep(seconds)
            }
        }
    }

    enum Verdict {
        case done(Result<[UInt8], APIFailure>)
        case retry(seconds: Int, why: String)
    }

    func judge(_ exchange: HTTPExchange, _ request: APIRequest, claims: BearerClaims, retries: Int) -> Verdict {
        let line = "\(request.method) \(request.path)"
        switch exchange.failure {
        case CCURL_OK: break
        case CCURL_TOO_LARGE:
            return .done(.failure(transport("\(host) sent more than \(maximumBodyBytes >> 20) MiB for \(line): stopped (Apple's pages are far smaller)")))
        case CCURL_TIMEOUT:
            return .done(.failure(transport("\(host) did not answer \(line) within \(timeoutSeconds) s (--timeout): \(exchange.failureText)")))
        case CCURL_TLS:
            return .done(.failure(transport("TLS with \(host) failed: \(exchange.failureText)")))
        case CCURL_RESOLVE, CCURL_CONNECT:
            return .done(.failure(transport("cannot reach \(host): \(exchange.failureText)")))
        default:
            return .done(.failure(transport("\(line) to \(host) failed: \(exchange.failureText)")))
        }
        let status = exchange.status
        let body = ResponseBody.read(exchange.body)
        switch status {
        case 200..<300:
            guard body.isObject else {
                let type = exchange.contentType.isEmpty ? "no Content-Type" : "Content-Type \(exchange.contentType)"
                return .done(.failure(transport("\(host) answered \(status) to \(line) with \(exchange.body.count) bytes that are not a JSON object (\(type))")))
            }
            return .done(.success(exchange.body))
        case 300..<400:
            let to = exchange.location.isEmpty ? "" : " to \(exchange.location)"
            return .done(.failure(transport("\(host) answered \(status), a redirect\(to), to \(line): not followed (the bearer token goes only to the host asked; Apple's API does not redirect)")))
        case 401:
            return .done(.failure(APIFailure(kind: .unauthorized, description: """
                \(host) answered 401 Unauthorized to \(line): Apple did not accept the bearer token. Likely causes: \
                the key id (kid \(claims.keyID)) is not this key's (--key-id, or the SubscriptionKey_<KID>.p8 name); \
                the issuer (iss \(claims.issuer)) is not your team's issuer id (--issuer); the key is not an \
                In-App Purchase key, was revoked, or belongs to another team (--key); the bundle id (bid \(claims.bundleID)) \
                is not this team's app (--bundle-id); or this machine's clock is off (iat \(claims.issuedAt)).
                """)))
        case 429:
            if let seconds = Int(exchange.retryAfter), seconds >= 0 {
                guard seconds <= maximumRetryAfter else {
                    return .done(.failure(finalFailure(exchange, request)
                        ?? transport("\(host) is rate limiting (429) and asks to wait \(seconds) s, over the \(maximumRetryAfter) s this tool waits: try later")))
                }
                return .retry(seconds: seconds, why: "answered 429 (rate limited, Retry-After: \(seconds))")
            }
            return .retry(seconds: 1, why: "answered 429 (rate limited)")
        case 500..<600:
            // Exponential backoff: 1, 2, 4 s.
            return .retry(seconds: 1 << min(retries, 5), why: "answered \(status)")
        default:
            return .done(.failure(finalFailure(exchange, request)
                ?? transport("\(host) answered \(status) to \(line) with \(exchange.body.count) bytes that are not an Apple error body")))
        }
    }

    /// Apple's error body in a failed answer, as a failure; nil when the body is not one.
    func finalFailure(_ exchange: HTTPExchange, _ request: APIRequest) -> APIFailure? {
        let body = ResponseBody.read(exchange.body)
        guard let code = body.errorCode else { return nil }
        let message = body.errorMessage.map { ": \"\($0)\"" } ?? ""
        return APIFailure(kind: .apple(code: code), description: "Apple error \(APIErrorCode.describe(code))\(message) (HTTP \(exchange.status) for \(request.method) \(request.path))")
    }

    func transport(_ text: String) -> APIFailure { APIFailure(kind: .transport, description: text) }
}
