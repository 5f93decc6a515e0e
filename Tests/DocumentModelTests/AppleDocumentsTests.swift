import DocumentCore
import DocumentFormats
import ReceiptKit
import Foundation
import JWSKit
import Testing
import TestSupport

/// Issue 31: Apple's newest documents as kinds (samples/apple/, from Scripts/apple_documents_samples.py):
/// the Server API responses named by their shape, the Retention Messaging request and replies, and
/// the legacy (V1) offer signature. Facts from manifest.json's `apple_documents`.
@Suite struct AppleDocumentsTests {
    nonisolated(unsafe) static let facts: [String: [String: Any]] = {
        guard let data = try? Data(contentsOf: Paths.samples.appendingPathComponent("manifest.json")),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let apple = object["apple_documents"] as? [String: Any] else { return [:] }
        return apple["files"] as? [String: [String: Any]] ?? [:]
    }()
    static var files: [String] { facts.keys.sorted() }

    static let roots = [try! Paths.sample("pki/test-ec-root.cer")]
    static let key = "developer/SubscriptionKey_TESTKEY001.p8"
    static let at = Date(timeIntervalSince1970: 1_709_295_000)  // 2024-03-01T12:10:00Z, as the developer samples

    static func open(_ file: String, validate: Bool = true, bundleID: String? = nil, key: Bool = false,
                     environment: String? = nil, appAppleID: Int64? = nil) throws -> Document {
        var jws = JWSOptions(expectedEnvironment: environment, expectedAppAppleID: appAppleID)
        if key {
            var bytes = try Paths.sample(Self.key)
            try jws.loadDeveloperKey(&bytes, fileName: "SubscriptionKey_TESTKEY001.p8")
        }
        let read = try DocumentInput.path(Paths.samples.appendingPathComponent("apple/" + file).path).read()
        return Document.open(read.loaded, options: AnalysisOptions(validate: validate, roots: roots, bundleID: bundleID, at: at), jws: jws)
    }

    @Test func manifestListsEverySample() throws {
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: Paths.samples.appendingPathComponent("apple").path)
        #expect(Set(Self.files) == Set(onDisk))
        #expect(Self.files.count == 14)
    }

    @Test("each sample opens as the kind the manifest names", arguments: files)
    func kinds(file: String) throws {
        let fact = try #require(Self.facts[file])
        let document = try Self.open(file, validate: false)
        #expect(document.kind.id == fact["kind"] as? String, "\(file)")
        if let tokens = fact["tokens"] as? Int { #expect(document.jws?.tokens.count == tokens, "\(file)") }
    }

    @Test func recognitionReasons() throws {
        let read = try DocumentInput.path(Paths.samples.appendingPathComponent("apple/refund-history.json").path).read()
        let recognitions = FormatRegistry.recognitions(FormatProbe(read.loaded))
        #expect(recognitions.first?.format.rawValue == "server-api-response")
        #expect(recognitions.first?.recognition == Recognition(.certain, "JSON with signedTransactions, revision and hasMore but no bundleId or environment: Apple's RefundHistoryResponse"))
        // The transaction history keeps its own kind: it names its bundle and environment.
        let history = try DocumentInput.path(Paths.samples.appendingPathComponent("jws/transaction-history.json").path).read()
        #expect(Document.open(history.loaded, options: AnalysisOptions(validate: false)).kind == .transactionHistory(transactions: 2))
    }

    @Test func namesInSummaries() throws {
        let refund = try Self.open("refund-history.json", validate: false)
        #expect(refund.kind == .serverAPIResponse(.refundHistory, tokens: 2))
        #expect(refund.kind.summary == "a refund history response (RefundHistoryResponse, Get Refund History, App Store Server API 1.6): 2 refunded transactions")
        #expect(refund.kind.title == "Refund history")
        let order = try Self.open("order-lookup.json", validate: false)
        #expect(order.kind.summary == "an order lookup response (OrderLookupResponse, Look Up Order ID, App Store Server API 1.1): 1 transaction")
        let app = try Self.open("app-transaction-response.json", validate: false)
        #expect(app.kind.summary == "an app transaction response (AppTransactionInfoResponse, Get App Transaction Info, App Store Server API 1.17): 1 app transaction")
    }

    @Test func serverAPIResponsesVerifyTokenByToken() throws {
        for file in ["refund-history.json", "order-lookup.json", "notification-history.json", "test-notification-status.json",
                     "app-transaction-response.json", "advanced-commerce-response.json"] {
            let report = try Self.open(file).verificationReport()
            #expect(report.verdict.valid, "\(file): \(report.verdict.reasons)")
            #expect(report.subject.kind == Self.facts[file]?["kind"] as? String)
        }
    }

    @Test func notificationHistoryDeliveryAttempts() throws {
        let document = try Self.open("notification-history.json", validate: false)
        let tree = try #require(document.jws?.body)
        let attempts = DeliveryAttempts(tree)
        #expect(attempts.deliveries.map(\.token) == ["notificationHistory[0].signedPayload", "notificationHistory[1].signedPayload"])
        #expect(attempts.deliveries[0].attempts.map(\.words) == ["2024-03-01T12:00:01Z SUCCESS"])
        #expect(attempts.deliveries[0].delivered == true)
        #expect(attempts.deliveries[1].attempts.map(\.words) == ["2024-03-01T12:00:02Z TIMED_OUT", "2024-03-01T13:00:02Z UNSUCCESSFUL_HTTP_RESPONSE_CODE"])
        #expect(attempts.deliveries[1].delivered == false)
        #expect(attempts.deliveries[1].verdict == "⚠ not delivered: last attempt UNSUCCESSFUL_HTTP_RESPONSE_CODE (2 attempts)")
        // Each attempt's object, at its bytes in the body.
        let bytes = document.fileLayer.bytes
        let first = attempts.deliveries[1].attempts[0].range
        #expect(String(decoding: bytes[first], as: UTF8.self).contains("\"TIMED_OUT\""))
        #expect(bytes[first.lowerBound] == UInt8(ascii: "{") && bytes[first.upperBound - 1] == UInt8(ascii: "}"))
    }

    @Test func dumpShowsDeliveryBesideEachNotification() throws {
        let dump = JWSTreeDump(try Self.open("notification-history.json", validate: false)).render()
        #expect(dump.contains("  attempt 1: 2024-03-01T12:00:01Z SUCCESS\n  delivered (1 attempt)\n"))
        #expect(dump.contains("  attempt 1: 2024-03-01T12:00:02Z TIMED_OUT\n  attempt 2: 2024-03-01T13:00:02Z UNSUCCESSFUL_HTTP_RESPONSE_CODE\n"
                              + "  ⚠ not delivered: last attempt UNSUCCESSFUL_HTTP_RESPONSE_CODE (2 attempts)\n"))
        let status = JWSTreeDump(try Self.open("test-notification-status.json", validate: false)).render()
        #expect(status.contains("  attempt 1: 2024-03-01T12:00:01Z SUCCESS\n  delivered (1 attempt)\n"))
    }

    @Test func bodyMembersHaveMeaningsWithTheirVersion() throws {
        let document = try Self.open("notification-history.json", validate: false)
        let tree = try #require(document.jws?.body)
        let fields = document.outlineWording.fields(of: .file, in: document)
        func wording(_ key: String) -> FieldWording? {
            (0..<tree.count).first { tree[$0].kind == .member && tree.key(ofMember: $0) == key }.flatMap { fields[$0] }
        }
        #expect(wording("sendAttempts")?.meaning == "Apple's attempts to deliver the notification, at most six (App Store Server API 1.8).")
        #expect(wording("paginationToken")?.meaning == "The token to send back for the next page of notification history (App Store Server API 1.5).")
        #expect(wording("attemptDate")?.display == "2024-03-01T12:00:01Z")
        let order = try Self.open("order-lookup.json", validate: false)
        let orderTree = try #require(order.jws?.body)
        let status = try #require((0..<orderTree.count).first { orderTree[$0].kind == .member && orderTree.key(ofMember: $0) == "status" })
        #expect(order.outlineWording.fields(of: .file, in: order)[status]?.display == "0 (VALID)")
    }

    @Test func summaryViewShowsDeliveries() throws {
        let document = try Self.open("notification-history.json")
        let lines = try #require(document.outlineWording.summary(of: document)).map(\.text)
        let second = try #require(lines.firstIndex { $0.hasPrefix("token notificationHistory[1].signedPayload: ") })
        #expect(lines[second + 1] == "  attempt 1: 2024-03-01T12:00:02Z TIMED_OUT")
        #expect(lines[second + 3] == "  ⚠ not delivered: last attempt UNSUCCESSFUL_HTTP_RESPONSE_CODE (2 attempts)")
    }
}
