import ASN1Lenient
import DocumentCore
import Foundation
import ReceiptKit
import Testing
import TestSupport
import TextLoader
import X509Trust

/// The `json` document of a receipt, pretty and as a batch line, against the exact expected bytes
/// in Tests/Expected/receipt-json (every sample receipt validated at a fixed `at`; a few also
/// decoded only, at another `at`, and as batch lines). Re-record with `RECORD_EXPECTED=1` after a
/// deliberate change, and read the diff.
@Suite struct ReceiptJSONTests {
    static let sampleNames = ["minimal.receipt", "typical.receipt", "unlisted-attributes.receipt", "xcode-ber.receipt",
                              "malformed-bad-date.receipt", "malformed-duplicate-attribute.receipt", "malformed-expired-cert.receipt",
                              "malformed-hostile-strings.receipt", "malformed-indefinite-in-payload.receipt",
                              "malformed-invalid-utf8.receipt", "malformed-length-past-parent.receipt",
                              "malformed-missing-required.receipt", "malformed-no-receipt-oid.receipt",
                              "malformed-non-minimal-length.receipt", "malformed-tampered.receipt",
                              "malformed-trailing-bytes.receipt", "malformed-truncated.receipt", "malformed-wrong-type.receipt"]
    /// Also decoded only at the other `at`, and as batch lines.
    static let everyForm: Set<String> = ["typical.receipt", "unlisted-attributes.receipt", "xcode-ber.receipt", "malformed-hostile-strings.receipt"]
    static let expected = ExpectedOutput("receipt-json")

    static func expect(_ actual: String, file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try actual == expected.text(file, recording: actual), "\(file)", sourceLocation: sourceLocation)
    }

    @Test(arguments: sampleNames)
    func sampleDocument(_ name: String) throws {
        let bytes = try Paths.sample(name)
        let roots = [try Paths.sample("pki/test-root.cer")]
        // An `at` inside the purchases' span, so that some subscriptions are active and some are not.
        let forms: [(Bool, Date, String)] = [(true, Date(timeIntervalSince1970: 1_700_000_000), "validated"),
                                             (false, Date(timeIntervalSince1970: 1_500_000_000), "decoded")]
        for (validate, at, suffix) in forms where Self.everyForm.contains(name) || validate {
            let a = ReceiptAnalyzer.analyze(bytes: bytes, options: AnalysisOptions(validate: validate, roots: roots, at: at,
                                                                                 now: Date(timeIntervalSince1970: 1_767_225_600)))
            let input = ReceiptJSON.InputInfo(name: name, encoding: "binary")
            try Self.expect(ReceiptJSON.text(a, input: input, words: .plain), file: "\(name).\(suffix).json")
            guard Self.everyForm.contains(name) else { continue }
            try Self.expect(ReceiptJSON.batchLine(a, input: input, words: .plain, source: .init(file: "exports/x.txt", line: 12)),
                            file: "\(name).\(suffix).batch.json")
        }
    }

    /// `source` keeps a purchase's keys as numbers and spells them as it writes them, in the order
    /// of the strings: "in_app[10]" and "in_app[11]" before "in_app[1]" ('0' < ']'), a purchase's
    /// own key before its fields', and each with the range of its value.
    @Test func sourceKeysOfTwelvePurchasesAreInStringOrder() throws {
        let purchases = (0..<12).map { i in
            DER.seq(DER.int(17), DER.int(1), DER.octets(DER.set(DER.seq(DER.int(1703), DER.int(1), DER.octets(DER.utf8("\(1000 + i)"))),
                                                              DER.seq(DER.int(1702), DER.int(1), DER.octets(DER.utf8("p\(i)"))))))
        }
        let payload = DER.tlv(0x31, DER.seq(DER.int(2), DER.int(1), DER.octets(DER.utf8("com.x"))) + purchases.flatMap { $0 })
        let bytes = DER.unsignedReceipt(payload: payload)
        let a = ReceiptAnalyzer.analyze(bytes: bytes, options: AnalysisOptions(validate: false))
        #expect(a.receipt?.inApp.count == 12)
        let text = ReceiptJSON.text(a)
        let source = try #require(text.range(of: "\n  \"source\": {\n").map { text[$0.upperBound...] })
        let keys = source.split(separator: "\n").prefix { $0 != "  }," }
            .filter { $0.hasPrefix("    \"") }.map { String($0.dropFirst(5).prefix { $0 != "\"" }) }
        let perPurchase = (0..<12).flatMap { ["in_app[\($0)]", "in_app[\($0)].product_id", "in_app[\($0)].transaction_id"] }
        #expect(keys == (["bundle_id"] + perPurchase).sorted())
        #expect(keys.prefix(4) == ["bundle_id", "in_app[0]", "in_app[0].product_id", "in_app[0].transaction_id"])
        #expect(keys[4...6] == ["in_app[10]", "in_app[10].product_id", "in_app[10].transaction_id"])
        // The value's range: in_app[3]'s transaction id, "1003", is at its UTF8String's content.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let ranges = try #require(json["source"] as? [String: [String: Int]])
        let id = try #require(ranges["in_app[3].transaction_id"])
        let offset = try #require(id["offset"]), length = try #require(id["length"])
        #expect(Array(bytes[offset..<(offset + length)]) == DER.utf8("1003"))  // the attribute's value: the OCTET STRING's content
    }

    /// The document handed over in 64-byte pieces (the sink path `json` writes through) is the
    /// same document: no store lands in a piece already handed over.
    @Test(arguments: sampleNames)
    func streamedInSmallPiecesIsTheSameDocument(_ name: String) throws {
        let a = ReceiptAnalyzer.analyze(bytes: try Paths.sample(name),
                                        options: AnalysisOptions(validate: true, roots: [try Paths.sample("pki/test-root.cer")],
                                                                 at: Date(timeIntervalSince1970: 1_700_000_000),
                                                                 now: Date(timeIntervalSince1970: 1_767_225_600)))
        var pieces: [[UInt8]] = []
        ReceiptJSON.stream(a, bufferSize: 64) { pieces.append(Array($0)) }
        #expect(pieces.count > 10)
        #expect(String(decoding: pieces.joined(), as: UTF8.self) == ReceiptJSON.text(a))
        // A batch line too large to make whole is written the same way (`JSONLine.write`).
        let source = ReceiptJSON.BatchSourceFields(file: "exports/x.txt", line: 12)
        var line: [[UInt8]] = []
        ReceiptJSON.stream(a, input: .init(name: name, encoding: "binary"), compact: true, batchSource: source, bufferSize: 64) {
            line.append(Array($0))
        }
        #expect(line.count > 10)
        #expect(String(decoding: line.joined(), as: UTF8.self)
                == ReceiptJSON.batchLine(a, input: .init(name: name, encoding: "binary"), source: source))
    }

    @Test func notAReceipt() throws {
        let a = ReceiptAnalyzer.analyze(bytes: [0x30, 0x03, 0x02, 0x01, 0x05], options: AnalysisOptions(validate: false))
        let text = ReceiptJSON.text(a, input: .init(name: "tiny", encoding: "binary"))
        try Self.expect(text, file: "tiny.decoded.json")
    }
}
