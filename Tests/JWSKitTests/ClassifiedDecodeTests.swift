import ASN1Lenient
import Foundation
import JSONLenient
import Testing
@testable import JWSKit
import TestSupport

/// Classifying a body keeps each token's split, header and payload JSON (issue 12), and decoding
/// the token from there gives exactly what a fresh decode of its characters gives.
@Suite("Decoding classified tokens")
struct ClassifiedDecodeTests {
    static func expectSame(_ carried: JWSDocument, _ fresh: JWSDocument, _ note: String) {
        #expect(carried.text == fresh.text, "\(note)")
        #expect(carried.textOffset == fresh.textOffset, "\(note)")
        #expect(carried.segments == fresh.segments, "\(note)")
        #expect(carried.diagnostics == fresh.diagnostics, "\(note)")
        #expect(carried.payload == fresh.payload, "\(note)")
        #expect(carried.payloadJSON?.nodes.count == fresh.payloadJSON?.nodes.count, "\(note)")
        #expect(carried.payloadJSON?.strings == fresh.payloadJSON?.strings, "\(note)")
        #expect(carried.headerJSON?.strings == fresh.headerJSON?.strings, "\(note)")
        #expect(carried.header.alg == fresh.header.alg, "\(note)")
        #expect(carried.header.certificates.map(\.der) == fresh.header.certificates.map(\.der), "\(note)")
        #expect(carried.signatureBytes == fresh.signatureBytes, "\(note)")
        #expect(carried.nested.count == fresh.nested.count, "\(note)")
    }

    @Test func aBodyTokenWithPayloadDiagnosticsDecodesLikeAFreshDecode() {
        // A duplicate key: the payload's diagnostic must keep its offset (21, the second key).
        let transaction = token(payload: #"{"transactionId":"1","transactionId":"2"}"#)
        let text = String(decoding: transaction, as: UTF8.self)
        let body = Array(#"{"signedTransactions":["\#(text)"]}"#.utf8)
        guard case .body(_, let tokens) = StoreKitInput.classify(body) else {
            Issue.record("not a body"); return
        }
        #expect(tokens.count == 1)
        #expect(tokens[0].range == 24..<(24 + transaction.count))
        #expect(tokens[0].prepared != nil)
        let carried = JWSDocument.decode(tokens[0], in: body)
        let fresh = JWSDocument.decode(text: transaction, textOffset: 24)
        Self.expectSame(carried, fresh, "duplicate key")
        let duplicate = carried.diagnostics.filter { $0.diagnostic.code == JSONCode.duplicateKey.code }
        #expect(duplicate.map(\.layer) == [.payload])
        #expect(duplicate.map(\.diagnostic.offset) == [21])
        #expect(carried.textOffset == 24)
    }

    @Test func aNotificationIsCarriedAndDecodesItsNestedTokens() {
        let nested = String(decoding: token(payload: #"{"transactionId":"7"}"#), as: UTF8.self)
        let notification = token(payload: #"{"notificationType":"DID_RENEW","data":{"signedTransactionInfo":"\#(nested)"}}"#)
        let body = Array(#"{"signedPayload":"\#(String(decoding: notification, as: UTF8.self))"}"#.utf8)
        guard case .body(_, let tokens) = StoreKitInput.classify(body) else {
            Issue.record("not a body"); return
        }
        #expect(tokens.map(\.kind) == [.notification(type: "DID_RENEW", subtype: nil)])
        #expect(tokens[0].prepared != nil)
        #expect(tokens[0].prepared?.document.payload.fields.isEmpty == true, "prepared before its payload is read")
        let carried = JWSDocument.decode(tokens[0], in: body)
        Self.expectSame(carried, JWSDocument.decode(text: notification, textOffset: 18), "notification")
        #expect(carried.nested.map(\.path) == ["data.signedTransactionInfo"])
        #expect(carried.nested.first?.document.payload.string("transactionId") == "7")
    }

    @Test
    func everySampleHistoryTokenDecodesLikeAFreshDecode() throws {
        let history = try Array(Data(contentsOf: Paths.samples.appendingPathComponent("jws/transaction-history.json")))
        let (kind, json) = StoreKitInput.classifyKeepingJSON(history)
        guard case .body(_, let tokens) = kind else {
            Issue.record("transaction-history.json is not a body"); return
        }
        #expect(json?.nodes.count == JSONParser.parse(history).nodes.count)
        #expect(json?.strings == JSONParser.parse(history).strings)
        #expect(tokens.map { $0.prepared != nil } == [true, true])
        for token in tokens {
            let fresh = JWSDocument.decode(text: Array(history[token.range]), textOffset: token.range.lowerBound)
            Self.expectSame(JWSDocument.decode(token, in: history), fresh, token.path)
        }
        #expect(StoreKitInput.classifyKeepingJSON(Array(history[tokens[0].range])).json == nil)
    }

    /// A whole-input token (a batch line, a file): classifying keeps its work and the token format
    /// decodes on from it; a token with whitespace around it is decoded afresh (other offsets).
    @Test func aWholeTokenIsCarriedFromItsClassification() throws {
        let transaction = try Array(Data(contentsOf: Paths.samples.appendingPathComponent("jws/transaction.jws")))
        let whole = Array(transaction.prefix { $0 != 0x0A })
        let classification = StoreKitInput.classifyKeepingWork(whole)
        #expect(classification.kind == .token(.transaction))
        #expect(classification.json == nil)
        let prepared = try #require(classification.token)
        Self.expectSame(JWSDocument.decode(prepared), JWSDocument.decode(text: whole), "transaction.jws")
        #expect(StoreKitInput.classifyKeepingWork(whole + [0x0A]).token == nil)
        let notificationFile = try Array(Data(contentsOf: Paths.samples.appendingPathComponent("jws/notification.jws")))
        let notification = Array(notificationFile.prefix { $0 != 0x0A })
        let carriedNotification = JWSDocument.decode(try #require(StoreKitInput.classifyKeepingWork(notification).token))
        Self.expectSame(carriedNotification, JWSDocument.decode(text: notification), "notification.jws")
        #expect(carriedNotification.nested.map(\.path) == ["data.signedTransactionInfo", "data.signedRenewalInfo"])
        let duplicate = token(payload: #"{"transactionId":"1","transactionId":"2"}"#)
        let carried = JWSDocument.decode(try #require(StoreKitInput.classifyKeepingWork(duplicate).token))
        Self.expectSame(carried, JWSDocument.decode(text: duplicate), "duplicate key")
        #expect(carried.diagnostics.filter { $0.diagnostic.code == JSONCode.duplicateKey.code }.map(\.diagnostic.offset) == [21])
    }

    /// The loader's word that the input is one compact JWS, whole (`LoadedInput.isCompactJWS`),
    /// replaces the classifier's own shape scan and changes nothing else: the same kind, the same
    /// prepared document and payload kind (named once, kept for opening), for every sample token.
    @Test func theLoadersShapeAnswerClassifiesAsTheScanDoes() throws {
        for name in ["transaction", "notification", "renewal-info", "app-transaction"] {
            let text = Array(try Paths.sample("jws/\(name).jws").prefix { $0 != 0x0A })
            let scanned = StoreKitInput.classifyKeepingWork(text)
            let told = StoreKitInput.classifyKeepingWork(text, compactJWS: true)
            #expect(told.kind == scanned.kind, "\(name)")
            let (toldToken, scannedToken) = (try #require(told.token, "\(name)"), try #require(scanned.token, "\(name)"))
            #expect(toldToken.kind == scannedToken.kind, "\(name)")
            #expect(toldToken.kind == SchemaDecoder.kind(of: toldToken.payloadTree), "\(name)")
            Self.expectSame(JWSDocument.decode(toldToken), JWSDocument.decode(text: text), name)
        }
        #expect(StoreKitInput.classifyKeepingWork(Array("{\"a\": 1}".utf8)).kind == .notStoreKit(reason: "JSON without signedPayload, signedTransactions or other signed… fields"))
    }

    /// A notification's schema is read once, when classifying names its type (issue 32): opening
    /// goes on from that read and gives what a fresh decode gives, for every sample and corpus
    /// notification (the ones without signedDate, the TEST ones, Apple's real ones).
    @Test func aNotificationsSchemaReadIsKeptAndDecodesLikeAFreshDecode() throws {
        var folders = [Paths.samples.appendingPathComponent("jws")]
        if Paths.jwsCorpusAvailable { folders.append(Paths.jws) }
        let files = try folders.flatMap { try FileManager.default.contentsOfDirectory(at: $0, includingPropertiesForKeys: nil) }
            .filter { $0.pathExtension == "jws" && $0.lastPathComponent.hasPrefix("notification") }
        #expect(files.count >= (Paths.jwsCorpusAvailable ? 6 : 2))
        for file in files {
            let text = Array(try Array(Data(contentsOf: file)).prefix { $0 != 0x0A })
            let classification = StoreKitInput.classifyKeepingWork(text)
            let prepared = try #require(classification.token, "\(file.lastPathComponent)")
            #expect(prepared.schema != nil, "\(file.lastPathComponent)")
            #expect(prepared.document.payload.fields.isEmpty, "prepared before its payload is read")
            let carried = JWSDocument.decode(prepared)
            let fresh = JWSDocument.decode(text: text)
            Self.expectSame(carried, fresh, file.lastPathComponent)
            #expect(carried.nested.map(\.document.payload) == fresh.nested.map(\.document.payload), "\(file.lastPathComponent)")
            #expect(classification.kind == .token(StoreKitTokenKind(kindOf: fresh)), "\(file.lastPathComponent)")
        }
        // Other kinds are named by their keys alone: no schema read is kept for them.
        let transaction = Array(try Paths.sample("jws/transaction.jws").prefix { $0 != 0x0A })
        #expect(try #require(StoreKitInput.classifyKeepingWork(transaction).token).schema == nil)
    }

    /// `Prepared.payloadNames` answers from the kept tree what the decoded payload's fields answer
    /// (the Retention request format asks it instead of decoding the token again).
    @Test func payloadNamesAgreesWithTheDecodedFields() throws {
        let claims = ["requestIdentifier", "userLocale", "originalTransactionId"]
        let payloads = [
            #"{"requestIdentifier":"r","userLocale":"en_US","originalTransactionId":"1"}"#,
            #"{"requestIdentifier":"r","userLocale":"en_US"}"#,
            #"{"requestIdentifier":"r","requestIdentifier":"s","userLocale":"en_US","originalTransactionId":"1"}"#,
            #"{"request\u0049dentifier":"r","userLocale":"en_US","originalTransactionId":"1"}"#,
            #"{"data":{"requestIdentifier":"r","userLocale":"en_US","originalTransactionId":"1"}}"#,
            #"[{"requestIdentifier":"r","userLocale":"en_US","originalTransactionId":"1"}]"#,
            #"[0,0,0]"#, #""requestIdentifier""#, #"{}"#,
        ]
        var answers: [Bool] = []
        for payload in payloads {
            let text = token(payload: payload)
            let prepared = try #require(StoreKitInput.classifyKeepingWork(text).token, "\(payload)")
            let fields = JWSDocument.decode(text: text).payload
            let named = prepared.payloadNames(claims)
            #expect(named == claims.allSatisfy { fields.field($0) != nil }, "\(payload)")
            answers.append(named)
        }
        #expect(answers == [true, false, true, true, false, false, false, false, false])
    }
}
