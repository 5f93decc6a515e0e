import ByteText
import Foundation
import JSONLenient
import JWSKit
import ServerAPI
import Testing
import TestSupport

@Suite("App Store Server API: requests as Apple documents them")
struct ServerAPIRequestTests {
    @Test func pathsAndMethodsPerCall() {
        #expect(APICall.transaction(id: "2000000000000001").request().target == "/inApps/v1/transactions/2000000000000001")
        #expect(APICall.appTransaction(id: "7").request().target == "/inApps/v1/transactions/appTransactions/7")
        #expect(APICall.order(id: "MK5TTTVWJH").request().target == "/inApps/v1/lookup/MK5TTTVWJH")
        #expect(APICall.refunds(id: "7").request(cursor: "r2").target == "/inApps/v2/refund/lookup/7?revision=r2")
        #expect(APICall.statuses(id: "7", statuses: ["1", "5"]).request().target == "/inApps/v1/subscriptions/7?status=1&status=5")
        #expect(APICall.testNotification.request() == APIRequest(method: "POST", path: "/inApps/v1/notifications/test"))
        #expect(APICall.testNotificationStatus(token: "a_b-c").request().target == "/inApps/v1/notifications/test/a_b-c")
    }

    @Test func historyQueryInAppleLibraryOrder() {
        var filter = HistoryFilter()
        filter.startDate = 1
        filter.endDate = 2
        filter.productIDs = ["p.1", "p 2"]
        filter.productTypes = ["AUTO_RENEWABLE", "CONSUMABLE"]
        filter.sort = "DESCENDING"
        filter.groups = ["21000001"]
        filter.ownership = "FAMILY_SHARED"
        filter.revoked = false
        let request = APICall.history(id: "9", filter: filter).request(cursor: "rev/2")
        #expect(request.method == "GET")
        #expect(request.target == "/inApps/v2/history/9?revision=rev%2F2&startDate=1&endDate=2&productId=p.1&productId=p%202&productType=AUTO_RENEWABLE"
            + "&productType=CONSUMABLE&sort=DESCENDING&subscriptionGroupIdentifier=21000001&inAppOwnershipType=FAMILY_SHARED"
            + "&revoked=false")
    }

    @Test func pathSegmentsCannotChangeTheRequestShape() {
        #expect(APIRequest.percentEncoded("../x?y=1&z#") == "..%2Fx%3Fy%3D1%26z%23")
        #expect(APIRequest.percentEncoded("é") == "%C3%A9")
    }

    @Test func notificationHistoryBody() {
        var filter = NotificationFilter(startDate: 1740000000000, endDate: 1740830400000)
        #expect(String(decoding: APICall.notifications(filter).request().body!, as: UTF8.self)
            == #"{"startDate":1740000000000,"endDate":1740830400000}"#)
        filter.type = "SUBSCRIBED"
        filter.subtype = "INITIAL_BUY"
        filter.onlyFailures = true
        filter.transactionID = "5"
        let request = APICall.notifications(filter).request(cursor: "pt-2")
        #expect(request.method == "POST")
        #expect(request.target == "/inApps/v1/notifications/history?paginationToken=pt-2")
        #expect(String(decoding: request.body!, as: UTF8.self)
            == #"{"startDate":1740000000000,"endDate":1740830400000,"notificationType":"SUBSCRIBED","notificationSubtype":"INITIAL_BUY","transactionId":"5","onlyFailures":true}"#)
    }

    @Test func valuesMatchWithoutCaseAndNameEveryChoice() {
        #expect(APIValues.productType.match("auto_renewable") == .success("AUTO_RENEWABLE"))
        #expect(APIValues.ownership.match("Family_Shared") == .success("FAMILY_SHARED"))
        #expect(APIValues.notificationType.match("did_renew") == .success("DID_RENEW"))
        #expect(APIValues.status.match("5") == .success("5"))
        #expect(APIValues.sort.match("up") == .failure(APIUsageError("--sort: 'up' is not one of ASCENDING, DESCENDING")))
        #expect(APIValues.status.match("6") == .failure(APIUsageError("--status: '6' is not one of 1, 2, 3, 4, 5")))
    }

    @Test func pagedFileNames() {
        #expect(APIFetch.fileName("history", 1) == "history-001.json")
        #expect(APIFetch.fileName("history", 12) == "history-012.json")
        #expect(APIFetch.fileName("notifications", 1000) == "notifications-1000.json")
    }

    @Test func environmentsAndHosts() {
        #expect(APIEnvironment(userText: "Sandbox") == .sandbox)
        #expect(APIEnvironment(userText: "xcode") == nil)
        #expect(APIEnvironment.production.baseURL == "https://api.storekit.apple.com")
        #expect(APIEnvironment.sandbox.baseURL == "https://api.storekit-sandbox.apple.com")
    }
}

@Suite("App Store Server API: response bodies and Apple's error codes")
struct ServerAPIResponseTests {
    @Test func pagingMembers() {
        let body = ResponseBody.read(Array(#"{"revision":"r2","hasMore":true,"signedTransactions":[]}"#.utf8))
        #expect(body.isObject)
        #expect(body.nextCursor(.revision) == "r2")
        #expect(body.nextCursor(.paginationToken) == nil)
        #expect(body.nextCursor(.none) == nil)
        let last = ResponseBody.read(Array(#"{"revision":"r3","hasMore":false}"#.utf8))
        #expect(last.nextCursor(.revision) == nil)
        let notes = ResponseBody.read(Array(#"{"notificationHistory":[],"hasMore":true,"paginationToken":"p2"}"#.utf8))
        #expect(notes.nextCursor(.paginationToken) == "p2")
    }

    @Test func appleErrorBody() {
        let body = ResponseBody.read(Array(#"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#.utf8))
        #expect(body.errorCode == 4040010)
        #expect(body.errorMessage == "Transaction id not found.")
        #expect(APIErrorCode.describe(4040010) == "4040010 TransactionIdNotFoundError (a transaction identifier wasn't found)")
        #expect(APIErrorCode.describe(4000006) == "4000006 InvalidTransactionIdError (an invalid transaction identifier)")
        #expect(APIErrorCode.describe(4290000) == "4290000 RateLimitExceededError (that the request exceeded the rate limit)")
        #expect(APIErrorCode.describe(1) == "1 (a code this tool does not know)")
        #expect(APIErrorCode.names.count == 61)
    }

    @Test func notAnObject() {
        #expect(!ResponseBody.read(Array("<html></html>".utf8)).isObject)
        #expect(!ResponseBody.read(Array("[1]".utf8)).isObject)
        #expect(!ResponseBody.read(Array(#"{"hasMore":true"#.utf8)).isObject)
        #expect(!ResponseBody.read([]).isObject)
        // A cut-off body gives no cursor: paging stops rather than guessing.
        #expect(ResponseBody.read(Array(#"{"hasMore":true,"revision":"x""#.utf8)).nextCursor(.revision) == nil)
    }
}

@Suite("App Store Server API: the bearer token")
struct BearerTokenTests {
    static let keyFile = Paths.samples.appendingPathComponent("developer/SubscriptionKey_TESTKEY001.p8")

    func signer() throws -> DeveloperSigner {
        var bytes = try Paths.bytes(Self.keyFile)
        let signer = try DeveloperSigner.load(&bytes, fileName: Self.keyFile.path)
        #expect(bytes.allSatisfy { $0 == 0 }, "the key file's bytes are wiped once read")
        return signer
    }

    @Test func headerClaimsAndSignature() throws {
        let signer = try signer()
        #expect(signer.keyIDFromName == "TESTKEY001")
        let credentials = try BearerCredentials(signer: signer, keyID: "TESTKEY001", issuer: "57246542-96fe-1a63-e053-0824d011072a",
                                                bundleID: "com.example.app")
        let claims = BearerClaims(credentials: credentials, now: 1_740_830_400)
        let token = try #require(claims.token(signedBy: signer))
        let parts = token.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        func decoded(_ segment: String) -> String {
            var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            text += String(repeating: "=", count: (4 - text.count % 4) % 4)
            return String(decoding: Data(base64Encoded: text)!, as: UTF8.self)
        }
        #expect(decoded(parts[0]) == #"{"alg":"ES256","kid":"TESTKEY001","typ":"JWT"}"#)
        #expect(decoded(parts[1])
            == #"{"iss":"57246542-96fe-1a63-e053-0824d011072a","iat":1740830400,"exp":1740830700,"aud":"appstoreconnect-v1","bid":"com.example.app"}"#)
        #expect(claims.shown.contains(#""exp":1740830700"#) && !claims.shown.contains(parts[2]))
        // The signature is raw r‖s and verifies with the key's public half, as Apple checks it.
        var pem = try Paths.bytes(Self.keyFile)
        let key = try DeveloperKey.load(&pem, fileName: Self.keyFile.path)
        var raw = Data(base64Encoded: parts[2].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            + String(repeating: "=", count: (4 - parts[2].count % 4) % 4))!
        #expect(raw.count == 64)
        let der = try #require(ES256Signature.der(fromRaw: [UInt8](raw)))
        #expect(ES256Signature.verify(message: ArraySlice((parts[0] + "." + parts[1]).utf8), derSignature: der, developerKey: key) == nil)
        raw[10] ^= 1
        let tampered = try #require(ES256Signature.der(fromRaw: [UInt8](raw)))
        #expect(ES256Signature.verify(message: ArraySlice((parts[0] + "." + parts[1]).utf8), derSignature: tampered, developerKey: key) != nil)
    }

    @Test func refusesAPublicKeyAndBadCredentials() throws {
        var public_ = try Paths.bytes(Paths.samples.appendingPathComponent("developer/test-developer-key-TESTKEY001.pub.pem"))
        #expect(throws: DeveloperKey.LoadError.self) { try DeveloperSigner.load(&public_, fileName: "x.pem") }
        let signer = try signer()
        #expect(throws: APIUsageError.self) { try BearerCredentials(signer: signer, keyID: "K-1", issuer: "ab", bundleID: "b") }
        #expect(throws: APIUsageError.self) { try BearerCredentials(signer: signer, keyID: "K1", issuer: "\"x", bundleID: "b") }
        #expect(throws: APIUsageError.self) { try BearerCredentials(signer: signer, keyID: "K1", issuer: "ab", bundleID: "b\"") }
    }

    @Test func rawFromDERRoundTrips() {
        let raw = [UInt8](repeating: 0, count: 1) + [UInt8](repeating: 0x80, count: 31) + [UInt8](1...32)
        let der = ES256Signature.der(fromRaw: raw)!
        #expect(ES256Signature.raw(fromDER: der) == raw)
        #expect(ES256Signature.raw(fromDER: [0x30, 0x00]) == nil)
    }

    @Test func base64URLWithoutPadding() {
        #expect(Base64Text.encodeURL([0xFB, 0xFF]) == "-_8")
        #expect(Base64Text.encode([0xFB, 0xFF]) == Array("+/8=".utf8))
    }
}
