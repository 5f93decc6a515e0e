import ByteText
import Foundation
import Testing
import DocumentCore
@testable import DocumentFormats
import ReceiptKit
import TestSupport
import TextLoader

/// A body's tokens are read in place (issue 32: "the text layers keep one copy of the text and
/// index into it"): a 50 MB history held every token's characters a second time, and every token's
/// full verification report at once.
@Suite struct SharedTokenTextTests {
    static let moment = Date(timeIntervalSince1970: 1_767_225_600)

    static func open(_ text: String, name: String) throws -> Document {
        let input = try InputLoader.decode(Array(text.utf8), name: name)
        let options = AnalysisOptions(roots: [try Paths.sample("pki/test-ec-root.cer")], now: moment)
        return Document.open(input, options: options, reading: .always, jws: JWSOptions())
    }

    static func sampleToken(_ name: String) throws -> String {
        try String(contentsOf: Paths.samples.appendingPathComponent("jws/" + name), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The address of a window's first byte.
    static func address(_ bytes: ByteWindow) -> UnsafeRawPointer? {
        bytes.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func aBodysTokenLayersAreWindowsIntoTheBodysBytes() throws {
        let token = try Self.sampleToken("transaction.jws")
        let document = try Self.open("{\"signedTransactions\": [\"\(token)\", \"\(token)\"]}", name: "history.json")
        let tokens = try #require(document.jws?.tokens)
        #expect(tokens.count == 2)
        let body = document.fileLayer.bytes
        let starts = [25, 25 + token.utf8.count + 4]
        for (token, start) in zip(tokens, starts) {
            let layer = document.layer(token.layers.token)
            #expect(layer.bytes.offset == start && layer.bytes.count == token.document.text.count)
            #expect(layer.bytes.array == Array(body.array[start..<(start + layer.bytes.count)]))
            // The same storage, not a copy of it.
            #expect(Self.address(layer.bytes) == Self.address(body).map { $0 + start })
            #expect(Self.address(token.document.text) == Self.address(layer.bytes))
        }
    }

    @Test func aNestedTokenIsAWindowIntoItsParentsPayload() throws {
        let document = try Self.open(try Self.sampleToken("notification.jws"), name: "notification.jws")
        let model = try #require(document.jws)
        let nested = try #require(model.tokens.first { $0.parent == 0 })
        let payload = document.layer(try #require(model.tokens[0].layers.payload))
        let layer = document.layer(nested.layers.token)
        #expect(layer.parent == payload.id && layer.bytes.offset > 0)
        #expect(Self.address(layer.bytes) == Self.address(payload.bytes).map { $0 + layer.bytes.offset })
    }

    @Test func eachTokensNestedTokensAreTheOnesAfterItWhoseParentItIs() throws {
        let token = try Self.sampleToken("notification.jws")
        let document = try Self.open("{\"a\": {\"signedPayload\": \"\(token)\"}, \"b\": {\"signedPayload\": \"\(token)\"}}", name: "two.json")
        let model = try #require(document.jws)
        let perNotification = model.tokens[0].document.nested.count
        #expect(perNotification == 2 && model.tokens.count == 2 * (1 + perNotification))
        let second = 1 + perNotification
        #expect(model.nestedIndices(of: 0) == Array(1...perNotification))
        #expect(model.nestedIndices(of: second) == Array((second + 1)...(second + perNotification)))
        #expect(model.nestedIndices(of: 1).isEmpty && model.nestedIndices(of: model.tokens.count - 1).isEmpty)
        // The same as asking every token for its parent.
        for index in model.tokens.indices {
            #expect(model.nestedIndices(of: index) == model.tokens.indices.filter { model.tokens[$0].parent == index })
        }
    }

    @Test func aBrokenTokenInABodyIsPinnedWhereItIsAlone() throws {
        let token = try Self.sampleToken("malformed-bad-base64url.jws")
        let alone = try Self.open(token, name: "token.jws")
        let inBody = try Self.open("{\"signedPayload\": \"\(token)\"}", name: "body.json")
        let aloneFindings = alone.fileLayer.content.diagnostics
        let tokenLayer = try #require(inBody.jws?.tokens.first?.layers.token)
        let bodyFindings = inBody.layer(tokenLayer).content.diagnostics
        #expect(!aloneFindings.isEmpty)
        #expect(bodyFindings.map(\.range) == aloneFindings.map(\.range))
        #expect(bodyFindings.map(\.message) == aloneFindings.map(\.message))
        // In the file: 19 characters later, where the token starts in the body.
        #expect(bodyFindings.map { inBody.fileRange($0.range, in: tokenLayer) } == aloneFindings.map { ($0.range.lowerBound + 19)..<($0.range.upperBound + 19) })
    }

    @Test func aHistorysNestedReportsAreMadeAsTheyAreReadAndAreTheSameEachTime() throws {
        let token = try Self.sampleToken("transaction.jws")
        let document = try Self.open("{\"signedTransactions\": [" + Array(repeating: "\"\(token)\"", count: 3).joined(separator: ", ") + "]}",
                                     name: "history.json")
        let full = VerificationReport(verifying: document, now: Self.moment, words: .plain, jws: JWSOptions())
        let verdictOnly = VerificationReport(verifying: document, now: Self.moment, words: .plain, jws: JWSOptions(), detail: .verdict)
        #expect(full.nested.isMadeOnRead && !verdictOnly.nested.isMadeOnRead)
        #expect(full.nested.count == 3)
        #expect(Array(full.nested) == Array(full.nested))
        #expect(full.nested.allSatisfy { $0.steps.count > 5 && !$0.certificates.isEmpty })
        #expect(full.nested.map(\.subject.path) == verdictOnly.nested.map(\.subject.path))
        #expect(full.nested.map(\.verdict) == verdictOnly.nested.map(\.verdict))
        #expect(full.verdict == verdictOnly.verdict && full.verdict.valid)
        // A report made whole reads the same as the one made on read.
        var whole = full
        whole.nested = NestedReports(Array(full.nested))
        #expect(!whole.nested.isMadeOnRead && whole == full)
        #expect(VerificationText.text(whole, inputName: "h") == VerificationText.text(full, inputName: "h"))
    }

    @Test func aWindowCountsFromZeroAndSlicesKeepItsIndices() {
        let base: [UInt8] = Array(0..<10)
        let window = ByteWindow(base, window: 3..<8)
        #expect(window.count == 5 && window.startIndex == 0 && window[0] == 3 && window[4] == 7)
        #expect(Array(window[1..<3]) == [4, 5] && window[1..<3].startIndex == 1)
        #expect(window.array == [3, 4, 5, 6, 7])
        #expect(window.baseSlice(1..<3).startIndex == 4 && Array(window.baseSlice(1..<3)) == [4, 5])
        #expect(window == ByteWindow([3, 4, 5, 6, 7]) && window.hashValue == ByteWindow([3, 4, 5, 6, 7]).hashValue)
        #expect(window != ByteWindow(base, window: 2..<7))
        #expect(window.withUnsafeBufferPointer { Array($0) } == [3, 4, 5, 6, 7])
        // The whole array is handed back as it is, not copied.
        let whole = ByteWindow(base)
        #expect(whole.array.withUnsafeBufferPointer { $0.baseAddress } == base.withUnsafeBufferPointer { $0.baseAddress })
    }
}
