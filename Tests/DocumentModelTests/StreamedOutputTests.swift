import Foundation
import Testing
import DocumentCore
@testable import DocumentFormats
import ReceiptKit
import TestSupport
import TextLoader

/// Outputs written as they are made (issue 32: memory bounded by the input). A body of many tokens
/// is the case: a 50 MB history of 10,000 tokens held its whole `dump` (800 MB of lines), its
/// `json` text and its `verify --format json` bytes at once. Each streamed output must be, byte
/// for byte, what the whole one was, and must really come in pieces.
@Suite struct StreamedOutputTests {
    static let tokens = 60

    /// A transaction history body holding the sample transaction `tokens` times.
    static func history() throws -> Document {
        let token = try String(contentsOf: Paths.samples.appendingPathComponent("jws/transaction.jws"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let body = "{\"signedTransactions\": [" + Array(repeating: "\"\(token)\"", count: tokens).joined(separator: ", ") + "], \"hasMore\": false}"
        let input = try InputLoader.decode(Array(body.utf8), name: "history.json")
        let options = AnalysisOptions(roots: [try Paths.sample("pki/test-ec-root.cer")], now: Date(timeIntervalSince1970: 1_767_225_600))
        return Document.open(input, options: options, reading: .always, jws: JWSOptions())
    }

    @Test func theLayersDumpComesATokenAtATimeAndIsTheWholeDump() throws {
        let document = try Self.history()
        var pieces: [String] = []
        #expect(document.format.layersDump(document, color: false) { pieces.append($0) })
        #expect(pieces.count == Self.tokens + 2)  // the input line, one a token, the counts
        #expect(pieces.allSatisfy { $0.hasSuffix("\n") })
        #expect(pieces[1].hasPrefix("signedTransactions[0]: token StoreKit 2 transaction"))
        #expect(pieces.joined() == JWSTreeDump(document).render())
        #expect(pieces.last == "# \(Self.tokens) tokens, \(document.layers.count) layers; 0 errors, 0 der, 0 warnings, 0 info\n")
    }

    @Test func eachDistinctCertificateIsRenderedOnceADump() throws {
        let document = try Self.history()
        let dump = JWSTreeDump(document)
        let text = dump.render()
        // Three certificates (leaf, intermediate, root) shared by every token: three renders, not 180.
        #expect(dump.certificates.byDER.count == 3)
        let leafLines = text.split(separator: "\n").filter { $0.hasPrefix("      x5c[0] ") }
        #expect(leafLines.count == Self.tokens)
        // Each token's copy of the leaf's tree is the same text: the first and the last token's.
        let first = try #require(text.range(of: "x5c[0] ")), last = try #require(text.range(of: "x5c[0] ", options: .backwards))
        let firstBlock = text[first.lowerBound...].prefix(2000)
        let lastBlock = text[last.lowerBound...].prefix(2000)
        #expect(firstBlock.split(separator: "\n").dropFirst().prefix(20) == lastBlock.split(separator: "\n").dropFirst().prefix(20))
    }

    @Test func theVerifyJSONStreamIsTheWholeReport() throws {
        let document = try Self.history()
        let report = VerificationReport(verifying: document, now: Date(timeIntervalSince1970: 1_767_225_600), words: .plain, jws: JWSOptions())
        #expect(report.nested.count == Self.tokens)
        let input = (name: "history.json", size: document.fileLayer.bytes.count)
        var streamed: [UInt8] = [], pieces = 0
        VerificationJSON.stream(report, input: input) { streamed += $0; pieces += 1 }
        let whole = VerificationJSON.bytes(report, input: input)
        #expect(whole.count > 3 << 16)
        #expect(pieces >= whole.count >> 16)
        #expect(streamed == whole)
    }

    @Test func theVerifyTextComesANestedReportAtATimeAndIsTheWholeText() throws {
        let document = try Self.history()
        let report = VerificationReport(verifying: document, now: Date(timeIntervalSince1970: 1_767_225_600), words: .plain, jws: JWSOptions())
        var pieces: [String] = []
        document.format.writeVerifyText(document, report: report, style: VerifyStyle(), words: .plain) { pieces.append($0) }
        #expect(pieces.count == Self.tokens + 1)  // the first with the top report's lines, one a nested token, the verdict
        #expect(pieces.allSatisfy { $0.hasSuffix("\n") })
        #expect(pieces[1].hasPrefix("Nested signedTransactions[1]: VALID\n"))
        #expect(pieces.joined() == VerificationText.text(report, inputName: "history.json"))
        #expect(pieces.last?.hasPrefix("Verdict: VALID") == true)
    }

    @Test func theJSONReadingStreamIsTheSerializedObject() throws {
        let document = try Self.history()
        let reading = try #require(document.format.json(document, words: .plain))
        var streamed: [UInt8] = [], largest = 0, pieces = 0
        reading.write { streamed += $0; largest = max(largest, $0.count); pieces += 1 }
        let whole = Array(ReceiptJSON.serialize(JWSJSON.object(document)).utf8)
        #expect(streamed == whole)
        #expect(whole.count > 1 << 17 && pieces > 1)
        #expect(largest < (1 << 16) + (1 << 14), "a piece of \(largest) bytes: more than a chunk and one token's object")
    }

    /// Nested arrays and objects of every value type: the pieces put together are `serialize`'s text.
    @Test func receiptJSONStreamIsSerializeInPieces() {
        let element: [String: Any] = ["id": "2000000", "n": 42, "big": Int64.max, "ok": true, "price": 1.5,
                                      "list": [1, "two", ["three": 3] as [String: Any]] as [Any], "none": NSNull(), "quote": "a\"b\\c\u{1}"]
        let object: [String: Any] = ["items": Array(repeating: element, count: 3_000) as [Any], "count": 3_000]
        var streamed: [UInt8] = [], pieces = 0
        ReceiptJSON.stream(object) { streamed += $0; pieces += 1 }
        #expect(String(decoding: streamed, as: UTF8.self) == ReceiptJSON.serialize(object))
        #expect(pieces > 4)
    }
}
