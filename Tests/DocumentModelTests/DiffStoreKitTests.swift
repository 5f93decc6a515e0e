import ASN1Lenient
import DocumentCore
import DocumentDiff
import Foundation
import ReceiptKit
import Testing
import TestSupport
import TextLoader

/// StoreKit 2 pairs beyond the manifest's lists: transactions without ids, the structure of a
/// refund inside a history, and x5c certificates compared as DER.
@Suite struct DiffStoreKitTests {
    static func b64u(_ bytes: [UInt8]) -> String { Base64URL.encode(bytes) }

    /// An unsigned stand-in token (diff does not verify): a header without x5c and 64 zero bytes.
    static func token(_ payload: String) -> String {
        b64u(Array(#"{"alg":"ES256"}"#.utf8)) + "." + b64u(Array(payload.utf8)) + "." + b64u([UInt8](repeating: 0, count: 64))
    }

    static func history(_ payloads: [String]) throws -> Document {
        let body = #"{"signedTransactions":["# + payloads.map { "\"\(token($0))\"" }.joined(separator: ",") + "]}"
        return Document.open(try InputLoader.decode(Array(body.utf8), name: "history"), options: AnalysisOptions(validate: false))
    }

    /// No transactionId: matched by originalTransactionId and purchaseDate, and each entry says so;
    /// a later purchase in the chain is a renewal.
    @Test func transactionsWithoutIDsPairByOriginalIDAndDate() throws {
        let first = #"{"originalTransactionId":"100","productId":"p","purchaseDate":1700000000000,"price":100}"#
        let repriced = #"{"originalTransactionId":"100","productId":"p","purchaseDate":1700000000000,"price":200}"#
        let next = #"{"originalTransactionId":"100","productId":"p","purchaseDate":1702592000000,"price":200}"#
        let diff = DocumentDiff.compare(try Self.history([first]), try Self.history([repriced, next]))
        #expect(diff.comparison == .jws)
        #expect(diff.semantic.map(\.kind) == [.transactionChanged, .renewal])
        #expect(diff.semantic.map(\.key) == ["100@1700000000000", "100@1702592000000"])
        #expect(diff.semantic[0].note == "matched by original transaction id and purchase date (no transaction id)")
        #expect(diff.semantic[0].fields.map(\.subject) == ["price"])
        #expect(diff.semantic[0].fields.map { $0.a?.value } == ["100"])
        #expect(diff.semantic[0].fields.map { $0.b?.value } == ["200"])
        #expect(diff.semantic[1].note == "continues subscription chain 100; matched by original transaction id and purchase date (no transaction id)")
        #expect(diff.semantic[1].b?.value == "signedTransactions[1]")
    }

    static func statuses(renewal: String?, transaction: String) throws -> Document {
        let renewalMember = renewal.map { #""signedRenewalInfo":""# + token($0) + #"","# } ?? ""
        let body = #"{"data":[{"lastTransactions":[{"#  + renewalMember + #""signedTransactionInfo":""# + token(transaction) + #""}]}]}"#
        return Document.open(try InputLoader.decode(Array(body.utf8), name: "statuses"), options: AnalysisOptions(validate: false))
    }

    /// Two status responses: the renewal info only A carries is named by its path; the transaction
    /// both carry is matched by its id and unchanged.
    @Test func renewalInfoMissingFromAStatusResponse() throws {
        let transaction = #"{"transactionId":"7","originalTransactionId":"7","productId":"p","purchaseDate":1700000000000}"#
        let a = try Self.statuses(renewal: #"{"originalTransactionId":"7","autoRenewStatus":1}"#, transaction: transaction)
        let b = try Self.statuses(renewal: nil, transaction: transaction)
        let diff = DocumentDiff.compare(a, b)
        #expect(diff.semantic.map(\.kind) == [.fieldRemoved])
        #expect(diff.semantic.first?.subject == "data[0].lastTransactions[0].signedRenewalInfo")
        #expect(diff.semantic.first?.a?.layer == a.jws?.tokens.first { $0.path == "data[0].lastTransactions[0].signedRenewalInfo" }?.layers.token)
        #expect(diff.structural.map(\.kind) == [.nodeRemoved])
        #expect(diff.structural.first?.subject == "body: data[0].lastTransactions[0].signedRenewalInfo")
    }

    /// The refund inside a history, structurally: the two members the refunded payload gained, with
    /// their JSON paths under the token's path, in the payload layer and in the file.
    @Test
    func refundInAHistoryIsTwoMembersAndASignature() throws {
        let a = try DiffFixtures.open(diff: "history.json"), b = try DiffFixtures.open(diff: "history-refund.json")
        let diff = DocumentDiff.compare(a, b)
        #expect(diff.structural.map(\.kind) == [.nodeAdded, .nodeAdded, .contentChanged])
        #expect(diff.structural.map(\.subject) == ["signedTransactions[1] payload: revocationDate",
                                                   "signedTransactions[1] payload: revocationReason",
                                                   "signedTransactions[1] signature"])
        let payload = try #require(b.jws?.tokens[1].layers.payload)
        let json = try #require(b.layer(payload).json)
        let added = try #require(diff.structural[0].b?.node)
        #expect(added.layer == payload)
        #expect(json.text(of: added.index) == #""revocationDate":1709114400000"#)
        #expect(diff.structural[0].b?.range == 426..<456)
        #expect(diff.structural[0].b?.fileRange == 8718..<8758)
        #expect(diff.structural[2].a?.layer == a.jws?.tokens[1].layers.signature)
        #expect(diff.structural[2].a?.range == 0..<64)
        #expect(diff.structuralContentChanges == 3)
    }

    /// x5c in another order (samples/jws/malformed-x5c-wrong-order.jws: root first, leaf last, the
    /// intermediate in place): each position whose DER differs is walked as ASN.1 in its certificate
    /// layer; x5c[1] and the header JSON around the strings are unchanged.
    @Test
    func certificatesAreComparedAsDER() throws {
        let a = try DiffFixtures.open(Paths.samples.appendingPathComponent("jws/transaction.jws"))
        let b = try DiffFixtures.open(Paths.samples.appendingPathComponent("jws/malformed-x5c-wrong-order.jws"))
        let diff = DocumentDiff.compare(a, b, structuralLimit: 1000)
        let layers = try #require(a.jws?.tokens.first?.layers.certificates)
        #expect(diff.structural.first?.subject == "x5c[0] > SEQUENCE > SEQUENCE[0] > INTEGER[1]")
        #expect(diff.structural.first?.a?.node == NodeID(layers[0], 4))
        #expect(diff.structural.first?.a?.range == 13..<27)
        #expect(!diff.structural.contains { $0.subject.hasPrefix("header") })
        #expect(Set(diff.structural.map { String($0.subject.prefix(6)) }) == ["x5c[0]", "x5c[2]", "signat"])
        #expect(diff.semantic.map(\.kind) == [.resigned, .signatureChanged])
    }
}
