import DocumentCore
import DocumentRedact
import ReceiptKit
import Foundation
import Testing
import TestSupport
import TextLoader

/// Data pasted inside other text (a log line, a JSON log object, a HAR capture, a `curl -d` body,
/// a quoted token) is redacted where it sits: the text around it stays byte for byte (except the
/// values in it that name the customer or the app), the data is written back in the encoding it had
/// there, and the copy reads as the same kind with none of the original values left.
@Suite struct RedactWrapperTests {
    static var token: String {
        get throws { try String(decoding: Paths.bytes(Paths.samples.appendingPathComponent("jws/transaction.jws")), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    static var base64Receipt: String {
        get throws { try Data(Paths.bytes(Paths.samples.appendingPathComponent("typical.receipt"))).base64EncodedString() }
    }

    /// JSON text for `object`, written as JSONSerialization writes it (`/` escaped as `\/`).
    static func json(_ object: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    struct Wrapped: CustomStringConvertible {
        var name: String
        var text: String
        var description: String { name }
    }

    static func wrappers() throws -> [Wrapped] {
        let token = try token, receipt = try base64Receipt
        let verifyBody = try json(["receipt-data": receipt, "exclude-old-transactions": true])
        return [
            Wrapped(name: "log line with a token", text: "2026-03-01T10:00:00Z INFO [verify] signedTransaction=\(token) status=ok\n"),
            Wrapped(name: "log line with a receipt", text: "Mar  1 10:00:00 app[42]: receipt \(receipt) (sandbox)\n"),
            Wrapped(name: "JSON log object with a token", text: try json(["level": "info", "msg": "notification", "signedTransactionInfo": token]) + "\n"),
            Wrapped(name: "JSON log object with a receipt", text: try json(["ts": "2026-03-01T10:00:00Z", "latest_receipt": receipt]) + "\n"),
            Wrapped(name: "HAR capture", text: try json(["log": ["version": "1.2", "entries": [[
                "request": ["method": "POST", "url": "https://sandbox.itunes.apple.com/verifyReceipt",
                            "postData": ["mimeType": "application/json", "text": verifyBody]],
                "response": ["status": 200, "content": ["text": "{\"status\":0}"]],
            ]]]])),
            Wrapped(name: "curl -d body", text: "curl -X POST -d 'receipt-data=\(receipt)' https://sandbox.itunes.apple.com/verifyReceipt\n"),
            Wrapped(name: "double-quoted token", text: "\"\(token)\"\n"),
            Wrapped(name: "single-quoted token in a sentence", text: "the token was '\(token)', it failed\n"),
        ]
    }

    /// Where the data sits in `text`: from its first character to its last.
    static func dataSpan(_ text: [UInt8]) throws -> Range<Int> {
        let loaded = try PasteLoader.decode(text, name: "t")
        guard let origin = loaded.origin, let offsets = origin.steps.last?.parentOffsets, let first = offsets.first,
              let last = offsets.last else {
            let range = try #require(text.firstRange(of: loaded.bytes))
            return range
        }
        return first..<(last + 1)
    }

    @Test(arguments: try wrappers())
    func wrapperIsKeptAndDataRedacted(_ wrapped: Wrapped) throws {
        let raw = Array(wrapped.text.utf8)
        let input = try RedactSupport.input(raw, name: "pasted")
        let run = try Redactor.run([input], options: RedactSupport.options())
        let copy = try #require(run.copies.first)
        let out = try #require(copy.bytes, "\(wrapped.name): \(copy.failure ?? "")")
        #expect(copy.replaced.values.reduce(0, +) > 0)
        // The text before and after the data is the same, byte for byte.
        let before = try Self.dataSpan(raw), after = try Self.dataSpan(out)
        #expect(Array(out[..<after.lowerBound]) == Array(raw[..<before.lowerBound]), "\(wrapped.name): text before the data")
        #expect(Array(out[after.upperBound...]) == Array(raw[before.upperBound...]), "\(wrapped.name): text after the data")
        // The copy reads as the same kind, found at the same place, with the redacted bytes.
        let original = Document.open(input.loaded, options: AnalysisOptions(validate: false))
        let reread = try PasteLoader.decode(out, name: "pasted")
        // Same start and path; the end may move (a receipt's re-encoded DER can change length).
        func start(_ words: String?) -> String? { words?.replacingOccurrences(of: #"(characters [0-9]+)-[0-9]+"#, with: "$1-", options: .regularExpression) }
        #expect(start(reread.origin?.location) == start(input.loaded.origin?.location))
        #expect(Document.open(reread, options: AnalysisOptions(validate: false)).kind == original.kind)
        #expect(reread.bytes != input.loaded.bytes)
        // And none of the values is left anywhere.
        try RedactLeakTests.checkLeaksNothing(raw, name: wrapped.name)
    }

    /// `/` escaped as `\/` in the HAR (and `\\\/` inside its JSON-in-a-string body) stays escaped
    /// wherever the data's new characters need a `/`.
    @Test func escapedSlashesStayEscaped() throws {
        let har = try #require(try Self.wrappers().first { $0.name == "HAR capture" })
        let raw = Array(har.text.utf8)
        let run = try Redactor.run([try RedactSupport.input(raw)], options: RedactSupport.options())
        let out = String(decoding: try #require(run.copies.first?.bytes), as: UTF8.self)
        let span = try Self.dataSpan(Array(out.utf8))
        let data = String(decoding: Array(out.utf8)[span], as: UTF8.self)
        #expect(data.contains("\\\\\\/"))
        // Every `/` in the data is escaped as in the input: no bare `/` after a character that is not `\`.
        #expect(data.range(of: #"[^\\]/"#, options: .regularExpression) == nil)
    }

    /// Values around the data that name the customer or the app are replaced in place too, with the
    /// same stand-in as inside the data: a password in a curl body, an id in a log message.
    @Test func valuesAroundTheDataAreReplaced() throws {
        let token = try Self.token
        let text = "txn 2000000510000004 bundle=com.example.receiptexplorer: curl -d 'password=s3cretpass&jws=\(token)' https://example.com/verify\n"
        let raw = Array(text.utf8)
        let run = try Redactor.run([try RedactSupport.input(raw)], options: RedactSupport.options())
        let copy = try #require(run.copies.first)
        let out = String(decoding: try #require(copy.bytes, "\(copy.failure ?? "")"), as: UTF8.self)
        #expect(out.count == text.count)
        #expect(!out.contains("2000000510000004"))
        #expect(!out.contains("com.example.receiptexplorer"))
        #expect(!out.contains("s3cretpass"))
        #expect(out.hasPrefix("txn "))
        let standIn = try #require(run.standIns[.text("2000000510000004")])
        guard case .text(let id) = standIn else { Issue.record("not text"); return }
        #expect(out.hasPrefix("txn \(id) bundle="))
        #expect(copy.replaced[.password] == 1)
        #expect(copy.mentions >= 2)
        // With --keep password, the password stays.
        let kept = try Redactor.run([try RedactSupport.input(raw)], options: RedactSupport.options(keep: [.password]))
        #expect(String(decoding: try #require(kept.copies.first?.bytes), as: UTF8.self).contains("password=s3cretpass&"))
    }

    /// --keep FIELD keeps that field's value inside the data and around it.
    @Test func keepKeepsAFieldInAPaste() throws {
        let token = try Self.token
        let raw = Array("INFO jws=\(token)\n".utf8)
        let run = try Redactor.run([try RedactSupport.input(raw)], options: RedactSupport.options(keep: [.transactionID]))
        let out = try #require(run.copies.first?.bytes)
        let reread = try RedactSupport.open(out)
        let payload = try #require(reread.layers.first { $0.role == .jwsPayload })
        let text = String(decoding: payload.bytes, as: UTF8.self)
        #expect(text.contains(#""transactionId":"2000000510000004""#))
        #expect(!text.contains("2000000510000000"))  // the original transaction id is still replaced
    }

    /// The paste finder's other finds are not opened: the copy says they were left as they are.
    @Test func otherDataInThePasteIsNamed() throws {
        let token = try Self.token
        let raw = Array("first \(token)\nsecond \(try Self.base64Receipt)\n".utf8)
        let run = try Redactor.run([try RedactSupport.input(raw)], options: RedactSupport.options())
        let copy = try #require(run.copies.first)
        #expect(copy.notReplaced.contains { $0.hasPrefix("1 other piece of data in the text (") && $0.hasSuffix("redact each on its own") },
                "\(copy.notReplaced)")
    }
}
