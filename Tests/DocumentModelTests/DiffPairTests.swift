import ASN1Lenient
import DocumentCore
import DocumentDiff
import Foundation
import Testing
import TestSupport

/// Every generated pair in samples/diff against the entries the generator recorded (kinds, subjects,
/// transaction ids, fields, file ranges found by searching the encoded elements in the files).
@Suite struct DiffPairTests {
    static let names: [String] = (try? DiffFixtures.pairs().map { "\($0["a"]!) \($0["b"]!)" }) ?? []

    @Test(arguments: names)
    func pairMatchesManifest(_ names: String) throws {
        let parts = names.split(separator: " ").map(String.init)
        let expected = try DiffFixtures.pair(parts[0], parts[1])
        let diff = DocumentDiff.compare(try DiffFixtures.open(diff: parts[0]), try DiffFixtures.open(diff: parts[1]))
        #expect(diff.comparison.rawValue == expected["comparison"] as? String)
        #expect(diff.isEquivalent == expected["equivalent"] as? Bool)
        let entries = try #require(expected["semantic"] as? [[String: Any]])
        #expect(diff.semantic.map(\.kind.rawValue) == entries.map { $0["kind"] as? String ?? "" })
        for (actual, wanted) in zip(diff.semantic, entries) { check(actual, wanted) }
        if let kinds = expected["structural_kinds"] as? [String] {
            #expect(!diff.structural.isEmpty)
            #expect(Set(diff.structural.map(\.kind.rawValue)) == Set(kinds))
        }
        if let structural = expected["structural"] as? [[String: Any]] {
            #expect(diff.structural.map(\.kind.rawValue) == structural.map { $0["kind"] as? String ?? "" })
            #expect(diff.structural.map(\.subject) == structural.map { $0["subject"] as? String ?? "" })
            #expect(diff.structural.map(\.note) == structural.map { wanted in
                let note = wanted["note"] as? String
                return wanted["kind"] as? String == "reencoded" ? "same content, different encoding: " + (note ?? "") : note
            })
        }
    }

    func check(_ actual: DiffEntry, _ wanted: [String: Any]) {
        #expect(actual.subject == wanted["subject"] as? String)
        if let key = wanted["key"] as? String { #expect(actual.key == key) }
        if let note = wanted["note"] as? String { #expect(actual.note == note) }
        if let a = wanted["a"] as? String { #expect(actual.a?.value == a) }
        if let b = wanted["b"] as? String { #expect(actual.b?.value == b) }
        if let r = DiffFixtures.range(wanted["a_file_range"]) { #expect(actual.a?.fileRange == r) }
        if let r = DiffFixtures.range(wanted["b_file_range"]) { #expect(actual.b?.fileRange == r) }
        let fields = wanted["fields"] as? [[String: Any]] ?? []
        #expect(actual.fields.map(\.kind.rawValue) == fields.map { $0["kind"] as? String ?? "" })
        for (f, w) in zip(actual.fields, fields) { check(f, w) }
    }

    @Test
    func everyPairIsListed() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Paths.samples.appendingPathComponent("diff").path)
        let named = Set(try DiffFixtures.pairs().flatMap { [$0["a"] as? String ?? "", $0["b"] as? String ?? ""] })
        #expect(named == Set(files))
        #expect(Self.names.count == 13)
    }

    /// The refund pair in full: one purchase, its two fields with nodes in the file layer, and
    /// the node paths of the structural entries.
    @Test
    func refundEntriesInDetail() throws {
        let a = try DiffFixtures.open(diff: "base.receipt"), b = try DiffFixtures.open(diff: "refund.receipt")
        let diff = DocumentDiff.compare(a, b)
        let refund = try #require(diff.semantic.first)
        #expect(refund.kind == .refund)
        #expect(refund.note == "cancellation date appeared: 2024-02-28T10:00:00Z")
        #expect(refund.a?.node == NodeID(.file, 56))
        #expect(refund.b?.node == NodeID(.file, 341))
        #expect(refund.fields.map { $0.b?.node } == [NodeID(.file, 435), NodeID(.file, 410)])
        #expect(refund.fields.first?.a?.node == NodeID(.file, 75))
        let payload = "SEQUENCE > [0][1] > SEQUENCE > SEQUENCE[2] > [0][1] > OCTET STRING > SET"
        #expect(diff.structural.map(\.kind) == [.contentChanged, .nodeAdded, .contentChanged])
        #expect(diff.structural.map(\.subject) == [
            payload + " > SEQUENCE[9] > OCTET STRING[2] > SET > SEQUENCE[2] > OCTET STRING[2] > IA5String",
            payload + " > SEQUENCE[12] > OCTET STRING[2] > SET > SEQUENCE[12]",
            "SEQUENCE > [0][1] > SEQUENCE > SET[4] > SEQUENCE > OCTET STRING[4]",
        ])
        #expect(diff.structural[0].b?.path == payload + " > SEQUENCE[12] > OCTET STRING[2] > SET > SEQUENCE[17] > OCTET STRING[2] > IA5String")
        #expect(diff.structural[0].a?.range == 359..<361)
        #expect(diff.structural[0].b?.range == 1777..<1799)
        #expect(diff.structuralContentChanges == 3)
    }

    /// DER against OpenSSL's streaming BER of the same payload: nothing but re-encodings, with the
    /// chunked OCTET STRING and the indefinite lengths named.
    @Test
    func reencodingIsSameContent() throws {
        let diff = DocumentDiff.compare(try DiffFixtures.open(diff: "base.receipt"), try DiffFixtures.open(diff: "base-ber.receipt"))
        #expect(diff.semantic.isEmpty)
        #expect(diff.signatures?.sameSignature == true)
        #expect(diff.signatures?.sameCertificates == true)
        #expect(diff.structural.allSatisfy { $0.kind == .reencoded })
        #expect(diff.structural.map(\.note) == [String](repeating: "same content, different encoding: definite length vs indefinite", count: 5)
                + ["same content, different encoding: primitive vs constructed (1 chunk)"])
        #expect(diff.structural.last?.subject == "SEQUENCE > [0][1] > SEQUENCE > SEQUENCE[2] > [0][1] > OCTET STRING")
        #expect(diff.isEquivalent)
    }

    /// The JWS pair: the price field by its node in the payload layer and its token characters.
    @Test
    func jwsFieldChangePointsAtPayloadNodes() throws {
        let a = try DiffFixtures.open(diff: "transaction-a.jws"), b = try DiffFixtures.open(diff: "transaction-b.jws")
        let diff = DocumentDiff.compare(a, b)
        let price = try #require(diff.semantic.first)
        let layer = try #require(a.jws?.tokens.first?.layers.payload)
        #expect(price.a?.node?.layer == layer)
        let json = try #require(a.layer(layer).json)
        #expect(json.text(of: price.a!.node!.index) == "4990")
        #expect(price.a?.fileRange == a.fileRange(price.a!.range!, in: layer))
        #expect(Array(a.fileLayer.bytes[price.a!.fileRange!]).count == 6)
        #expect(diff.signatures?.sameCertificates == true)
        #expect(diff.signatures?.sameSignature == false)
    }

    @Test
    func structuralListIsBounded() throws {
        let diff = DocumentDiff.compare(try DiffFixtures.open(diff: "base.receipt"), try DiffFixtures.open(diff: "resigned.receipt"),
                                        structuralLimit: 2)
        #expect(diff.structural.count == 2)
        #expect(diff.structuralOmitted == 6)
        #expect(diff.structuralContentChanges == 8)
        #expect(!diff.isEquivalent)
    }

    /// A notification against the transaction it carries (samples/jws: notification.jws nests
    /// transaction.jws as data.signedTransactionInfo): the nested token is compared, and it is the same.
    @Test
    func notificationAgainstItsTransaction() throws {
        let notification = try DiffFixtures.open(Paths.samples.appendingPathComponent("jws/notification.jws"))
        let transaction = try DiffFixtures.open(Paths.samples.appendingPathComponent("jws/transaction.jws"))
        let diff = DocumentDiff.compare(notification, transaction)
        #expect(diff.comparison == .jws)
        #expect(diff.semantic.isEmpty)
        #expect(diff.isEquivalent)
        let renewal = try DiffFixtures.open(Paths.samples.appendingPathComponent("jws/renewal-info.jws"))
        let other = DocumentDiff.compare(transaction, renewal)
        #expect(!other.isEquivalent)
        #expect(other.semantic.contains { $0.kind == .fieldRemoved && $0.subject == "transactionId" })
    }
}
