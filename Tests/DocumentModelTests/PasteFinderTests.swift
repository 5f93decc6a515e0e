import ASN1Lenient
import ByteText
@testable import DocumentCore
import Foundation
import ReceiptKit
import Testing
import TestSupport
import TextLoader

/// The paste finder on the project's samples wrapped in every form a developer pastes: where the
/// data was found (exact location), that the document opened equals the clean one's (kind, tree,
/// diagnostics), and that offsets map back to the very characters pasted.
@Suite
struct PasteFinderTests {
    /// A pasted text and where its data starts and ends in it.
    struct Form: CustomTestStringConvertible {
        var name: String
        var text: [UInt8]
        var location: String
        var dataStart: Int
        var testDescription: String { name }
    }

    static func sampleText(_ name: String) -> String {
        (try? String(decoding: Paths.sample(name), as: UTF8.self)) ?? ""
    }

    /// typical.b64 on one line (10,248 characters, no padding).
    static let base64 = sampleText("typical.b64").filter { !$0.isWhitespace }
    static let token = sampleText("jws/transaction.jws").filter { !$0.isWhitespace }

    /// `before` + data + `after`, the data on line `line` at 1-based `column`.
    static func form(_ name: String, _ before: String, _ data: String, _ after: String, location: String) -> Form {
        Form(name: name, text: Array((before + data + after).utf8), location: location, dataStart: before.utf8.count)
    }

    /// Where `data` sits after `before`, as the loader words it for a file named "pasted":
    /// "characters 25-10272 of line 1 of pasted", "line 2, character 1 to line 136, character 64 of pasted".
    static func words(_ before: String, _ data: String, path: String?) -> String {
        func position(_ text: String) -> (line: Int, character: Int) {
            // Bytes, not Characters: "\r\n" is one Character (the data and the text around it are ASCII).
            let lines = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
            return (lines.count, lines.last!.count + 1)
        }
        let first = position(before)
        let last = position(before + String(data.dropLast()))
        func n(_ value: Int) -> String { value.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US"))) }
        let at = first.line == last.line
            ? "characters \(first.character)-\(last.character) of line \(n(first.line)) of pasted"
            : "line \(n(first.line)), character \(n(first.character)) to line \(n(last.line)), character \(n(last.character)) of pasted"
        return path.map { at + " (\($0))" } ?? at
    }

    static var receiptForms: [Form] {
        let b64 = base64
        let escaped = b64.replacingOccurrences(of: "/", with: "\\/")
        let wrappedCRLF = stride(from: 0, to: b64.count, by: 76).map { i -> String in
            let start = b64.index(b64.startIndex, offsetBy: i)
            return String(b64[start..<b64.index(start, offsetBy: min(76, b64.count - i))])
        }.joined(separator: "\r\n")
        let percent = b64.replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: "/", with: "%2F")
        var forms: [Form] = []
        func add(_ name: String, _ before: String, _ data: String, _ after: String, path: String? = nil) {
            forms.append(form(name, before, data, after, location: words(before, data, path: path)))
        }
        add("log line", "2025-01-01 INFO receipt=", b64, " user=42\n")
        add("single quotes, trailing comma", "receipt: '", b64, "',\n")
        add("double quotes, trailing semicolon", "let receipt = \"", b64, "\";\n")
        add("CRLF-wrapped in a log", "2025-01-01 INFO receipt follows\r\n", wrappedCRLF, "\r\n2025-01-01 INFO done\r\n")
        add("markdown fence", "Here is the receipt:\n\n```\n", wrappedCRLF.replacingOccurrences(of: "\r\n", with: "\n"), "\n```\n")
        add("form body", "receipt-data=", percent, "&password=secret&exclude-old-transactions=true\n", path: "form field receipt-data")
        add("JSON any key, escaped slashes", "{\"app\": {\"blob\": \"", escaped, "\"}}", path: "JSON path app.blob")
        add("verifyReceipt request receiptData", "{\"receiptData\":\"", b64, "\",\"password\":\"x\"}", path: "JSON path receiptData")
        add("verifyReceipt request receipt_data", "{\n  \"receipt_data\": \"", b64, "\"\n}\n", path: "JSON path receipt_data")
        add("verifyReceipt response", "{\"status\":0,\"environment\":\"Production\",\"latest_receipt\":\"", escaped,
            "\",\"latest_receipt_info\":[{\"product_id\":\"a\"}]}", path: "JSON path latest_receipt")
        add("JSON log line", "2025-01-01T00:00:00Z {\"x\":1}\n{\"level\":\"info\",\"receipt\":\"", b64, "\"}\n",
            path: "JSON path receipt")
        let body = "{\\\"receipt-data\\\":\\\"" 
        add("HAR request postData.text", "{\"log\":{\"entries\":[{\"request\":{\"postData\":{\"text\":\"" + body, escaped,
            "\\\"}\"}}}]}}", path: "JSON path log.entries[0].request.postData.text → receipt-data")
        return forms
    }

    static func clean() throws -> Document {
        Document.open(try InputLoader.decode(try Paths.sample("typical.receipt"), name: "typical.receipt"),
                      options: AnalysisOptions(validate: false))
    }

    static func findings(_ document: Document) -> [String] {
        document.diagnostics.map { "\($0.layer.index) \($0.diagnostic.code.rawValue) \($0.diagnostic.offset)+\($0.diagnostic.length)" }
    }

    /// A run of characters next to each other in the text is read where it is (its characters are
    /// a slice of the text, at the text's own indices: no copy of a 67 MB line); a run that leaves
    /// out a wrapped line break or reads `\/` as `/` holds its characters, the same either way.
    @Test func aRunIsReadWhereItIsUnlessItsCharactersAreApart() {
        let data = String(Self.base64.prefix(60)) + "/" + String(Self.base64.dropFirst(60).prefix(59))
        let line = Array(("receipt=" + data + " status=ok").utf8)
        let runs = PasteRuns.runs(in: PasteView(text: line)).filter { $0.count >= 100 }
        #expect(runs.count == 1)
        #expect(runs.first?.characters.startIndex == 8)
        #expect(runs.first.map { Array($0.characters) } == Array(data.utf8))
        #expect((try? runs.first?.decoded().get().bytes)?.count == 90)
        let wrapped = Array(("x " + String(data.prefix(60)) + "\n" + String(data.dropFirst(60)) + "\n").utf8)
        let escaped = Array(("x " + data.replacingOccurrences(of: "/", with: "\\/") + " y").utf8)
        for text in [wrapped, escaped] {
            let found = PasteRuns.runs(in: PasteView(text: text)).filter { $0.count >= 100 }
            #expect(found.map { Array($0.characters) } == [Array(data.utf8)])
            #expect(found.first?.characters.startIndex == 0)
            let decoded = try? found.first?.decoded().get().bytes
            #expect(decoded == (try? TextLoader.Base64Text.decode(Array(data.utf8)).get().bytes))
            #expect(decoded?.count == 90)
        }
    }

    @Test(arguments: receiptForms)
    func receiptIsFoundAndOpensAsTheCleanOne(_ form: Form) throws {
        let loaded = try PasteLoader.decode(form.text, name: "pasted")
        let origin = try #require(loaded.origin, "\(loaded.note)")
        #expect(origin.location == form.location)
        #expect(loaded.note.hasPrefix("found at \(form.location): base64 of a PKCS#7 SignedData (10,248 characters → 7,686 bytes)"))
        let document = Document.open(loaded, options: AnalysisOptions(validate: false))
        let reference = try Self.clean()
        #expect(document.kind == reference.kind)
        #expect(document.fileLayer.bytes == reference.fileLayer.bytes)
        #expect(document.fileTree.nodes.count == reference.fileTree.nodes.count)
        #expect(Self.findings(document) == Self.findings(reference))
        // Offsets stay true: the first byte maps to the first two base64 characters as pasted.
        let first = document.pastedRange(0..<1, in: .file)
        #expect(first == form.dataStart..<(form.dataStart + 2))
        #expect(String(decoding: form.text[first], as: UTF8.self) == "MI")
        // Any aligned 3 bytes map to the 4 characters that encode them, as pasted (wrapping,
        // JSON escapes and percent-encoding in between).
        for start in stride(from: 0, to: 7_680, by: 1_533) {
            let range = document.pastedRange(start..<(start + 3), in: .file)
            var characters = String(decoding: form.text[range], as: UTF8.self).filter { !$0.isWhitespace && $0 != "\\" }
            characters = characters.replacingOccurrences(of: "%2B", with: "+").replacingOccurrences(of: "%2F", with: "/")
            #expect(Data(base64Encoded: characters).map { [UInt8]($0) } == Array(document.fileLayer.bytes[start..<(start + 3)]),
                    "bytes \(start)-\(start + 2) → text \(range)")
        }
    }

    static var tokenForms: [Form] {
        let t = token
        var forms: [Form] = []
        func add(_ name: String, _ before: String, _ after: String, path: String? = nil) {
            forms.append(form(name, before, t, after, location: words(before, t, path: path)))
        }
        add("log line", "2025-01-01 12:00:00 DEBUG jws=", " status=ok\n")
        add("single quotes, trailing comma", "  token: '", "',\n")
        add("JSON log line", "{\"level\":\"info\",\"payload\":\"", "\"}\n", path: "JSON path payload")
        add("HAR response content.text", "{\"log\":{\"entries\":[{\"response\":{\"content\":{\"text\":\"{\\\"signedTransactionInfo\\\":\\\"",
            "\\\"}\"}}}]}}", path: "JSON path log.entries[0].response.content.text → signedTransactionInfo")
        add("Authorization header", "curl -H 'X-Token: Bearer ", "' https://example.com\n")
        return forms
    }

    @Test(arguments: tokenForms)
    func tokenIsFoundAndOpensAsTheCleanOne(_ form: Form) throws {
        let loaded = try PasteLoader.decode(form.text, name: "pasted")
        #expect(loaded.origin?.location == form.location)
        #expect(loaded.encoding == .jws)
        #expect(loaded.note == "found at \(form.location): a compact JWS, 4,556 characters")
        let document = Document.open(loaded, options: AnalysisOptions(validate: false))
        let reference = Document.open(try InputLoader.decode(Array(Self.token.utf8), name: "t"), options: AnalysisOptions(validate: false))
        #expect(document.kind == reference.kind)
        #expect(document.layers.map(\.bytes) == reference.layers.map(\.bytes))
        #expect(Self.findings(document) == Self.findings(reference))
        let whole = document.pastedRange(0..<Self.token.utf8.count, in: .file)
        #expect(whole == form.dataStart..<(form.dataStart + Self.token.utf8.count))
        // The header's first byte `{` is the token's first two characters, "ey", where they were pasted.
        let header = try #require(document.layers.first { $0.role == .jwsHeader })
        let brace = document.pastedRange(0..<1, in: header.id)
        #expect(brace == form.dataStart..<(form.dataStart + 2))
        #expect(String(decoding: form.text[brace], as: UTF8.self) == "ey")
    }

    @Test func base64InsideBase64OpensAsTheReceipt() throws {
        let twice = Data(Self.base64.utf8).base64EncodedString(options: .lineLength76Characters)
        let loaded = try PasteLoader.decode(Array((twice + "\n").utf8), name: "twice.b64")
        #expect(loaded.note == "found at line 1, character 1 to line 180, character 60 of twice.b64: base64 of a PKCS#7 SignedData (10,248 characters → 7,686 bytes), base64 inside base64 (decoded twice)")
        let document = Document.open(loaded, options: AnalysisOptions(validate: false))
        let reference = try Self.clean()
        #expect(document.kind == .receipt)
        #expect(document.fileLayer.bytes == reference.fileLayer.bytes)
        #expect(Self.findings(document) == Self.findings(reference))
        // Byte 0 is inner characters 0-1 ("MI"), which are outer characters 0-2.
        #expect(document.pastedRange(0..<1, in: .file) == 0..<3)
        #expect(loaded.origin?.steps.map(\.kind) == [.base64, .base64])
    }

    @Test func tokenBase64EncodedIsDecodedOnce() throws {
        let encoded = Data(Self.token.utf8).base64EncodedString()
        let loaded = try PasteLoader.decode(Array(encoded.utf8), name: "offer.txt")
        #expect(loaded.encoding == .jws)
        #expect(loaded.bytes == Array(Self.token.utf8))
        #expect(loaded.note == "found at characters 1-6075 of line 1 of offer.txt: a compact JWS, 4,556 characters, base64 inside base64 (decoded twice)")
    }

    static var tokenParts: (header: String, payload: String, signature: String) {
        let parts = token.split(separator: ".").map(String.init)
        return (parts[0], parts[1], parts[2])
    }

    @Test func tokenCutOffInTheSignature() throws {
        let (h, p, s) = Self.tokenParts
        #expect(s.count == 86)
        let text = Array("jws=\(h).\(p).\(s.prefix(50))\n".utf8)
        let loaded = try PasteLoader.decode(text, name: "cut.txt")
        #expect(loaded.diagnostics.map(\.message) == ["the token is cut off after \(NumberText.grouped(h.count + p.count + 52)) of its characters; the signature segment has 50 of 86 characters (ES256: 64 bytes); 36 are missing"])
        #expect(loaded.diagnostics.map(\.code) == [InputCode.cutOff.code])
        let document = Document.open(loaded, options: AnalysisOptions(validate: false))
        #expect(document.kind == .transaction)  // shown as far as it goes: header and payload decode
        #expect(document.hasErrors)
    }

    /// A whole-file token is named as cut off too when its signature is short; `alg: none` has an
    /// empty signature by design and is not.
    @Test func wholeFileTokensCutOffOrUnsigned() throws {
        let truncated = try PasteLoader.decode(try Paths.sample("jws/malformed-truncated-signature.jws"), name: "t.jws")
        #expect(truncated.note == "a compact JWS, 4,554 characters (cut off)")
        #expect(truncated.diagnostics.map(\.message) == ["the token is cut off after 4,554 of its characters; the signature segment has 84 of 86 characters (ES256: 64 bytes); 2 are missing"])
        let none = try PasteLoader.decode(try Paths.sample("jws/malformed-alg-none.jws"), name: "n.jws")
        #expect(none.note == "a compact JWS, 4,468 characters")
        #expect(none.diagnostics.isEmpty)
    }

    /// `PasteToken.reading` judges a token's start without naming it; the candidate `read` makes
    /// from that judgement carries the finding word for word.
    @Test func readingIsTheCandidatesJudgement() throws {
        let (h, p, s) = Self.tokenParts
        let whole = Array("\(h).\(p).\(s)".utf8)
        #expect(PasteToken.reading(whole) == .whole)
        #expect(PasteToken.read(whole, offsets: OffsetList())?.what == "a compact JWS, 4,556 characters")
        let cut = Array("\(h).\(p).\(s.prefix(50))".utf8)
        let message = "the token is cut off after \(NumberText.grouped(cut.count)) of its characters; the signature segment has 50 of 86 characters (ES256: 64 bytes); 36 are missing"
        #expect(PasteToken.reading(cut) == .cutOff(message))
        let candidate = try #require(PasteToken.read(cut, offsets: OffsetList()))
        #expect(candidate.shape == .cutOffToken)
        #expect(candidate.what == "a compact JWS cut off, \(NumberText.grouped(cut.count)) characters")
        #expect(candidate.cutOff?.message == message)
        #expect(candidate.cutOff?.range == (cut.count - 1)..<cut.count)
        #expect(PasteToken.reading(Array("\(h)=.\(p).\(s)".utf8)) == nil)
    }

    @Test func tokenCutOffInThePayload() throws {
        let (h, p, _) = Self.tokenParts
        let text = Array("\(h).\(p.prefix(120))".utf8)
        let loaded = try PasteLoader.decode(text, name: "cut.txt")
        #expect(loaded.encoding == .jws)
        #expect(loaded.diagnostics.map(\.message) == ["the token is cut off after \(NumberText.grouped(h.count + 121)) of its characters; it ends in the payload segment after 120 characters; the signature segment is missing"])
        #expect(loaded.diagnostics.first.map { $0.offset..<($0.offset + $0.length) } == (text.count - 1)..<text.count)
        let document = Document.open(loaded, options: AnalysisOptions(validate: false))
        #expect(document.jws?.tokens.count == 1)
        #expect(document.layers.contains { $0.role == .jwsHeader })
    }

    @Test func tokenCutOffInTheHeader() throws {
        let (h, _, _) = Self.tokenParts
        let loaded = try PasteLoader.decode(Array(h.prefix(400).utf8), name: "cut.txt")
        #expect(loaded.diagnostics.map(\.message) == ["the token is cut off after 400 of its characters; it ends in the header segment after 400 characters; the payload and signature segments are missing"])
    }

    @Test func severalCandidatesTheMostSpecificWinsAndTheOthersAreNamed() throws {
        let text = "2025-01-01 jws=\(Self.token)\n{\"receipt-data\":\"\(Self.base64)\"}\n"
        let loaded = try PasteLoader.decode(Array(text.utf8), name: "both.log")
        #expect(loaded.origin?.location == "characters 18-10265 of line 2 of both.log (JSON path receipt-data)")
        #expect(loaded.origin?.others == ["a compact JWS, 4,556 characters at characters 16-4571 of line 1 of both.log"])
        #expect(loaded.note.hasSuffix("; also found 1 other: a compact JWS, 4,556 characters at characters 16-4571 of line 1 of both.log"))
    }

    @Test(arguments: [
        ("The quick brown fox jumps over the lazy dog. It has no receipt.\n", "plain text (13 words)"),
        ("<!DOCTYPE html><html><body>Bad gateway</body></html>\n", "HTML"),
        ("{\"status\": 21002, \"environment\": \"Sandbox\"}", "a JSON object without purchase data (its keys are \"status\", \"environment\")"),
        ("{\"status\":0,\"receipt\":{\"bundle_id\":\"a\"},\"latest_receipt_info\":[]}",
         "a verifyReceipt response without the receipt's base64 (no \"latest_receipt\"; \"receipt\" and \"latest_receipt_info\" are Apple's decoded copy, not the signed receipt)"),
        ("[1, 2, 3]\n", "a JSON array without purchase data"),
    ])
    func textWithoutDataSaysWhatItIsAndIsNotReadAsASN1(_ text: String, _ what: String) throws {
        let loaded = try PasteLoader.decode(Array(text.utf8), name: "t.txt")
        #expect(loaded.diagnostics.map(\.message) == ["this looks like \(what): no receipt (base64, PEM, verifyReceipt JSON) or StoreKit token (JWS) was found in it"])
        for reading in [ReceiptReading.ifSignedData, .always] {
            let document = Document.open(loaded, options: AnalysisOptions(validate: false), reading: reading)
            #expect(document.kind == .text)
            // Not parsed: one unparsed region over every byte (the coverage invariant holds).
            #expect(document.fileTree.count == 1)
            #expect(document.fileTree[0].kind == .unparsed)
            #expect(document.fileTree[0].byteRange == 0..<text.utf8.count)
            #expect(Self.findings(document) == ["0 input-unrecognized-text 0+\(text.utf8.count)"])
            #expect(document.receipt == nil)
        }
    }

    @Test func cleanInputsKeepTheLoadersOwnResult() throws {
        for name in ["typical.receipt", "typical.b64", "typical.pem", "typical.json", "jws/transaction.jws", "jws/transaction-history.json"] {
            let raw = try Paths.sample(name)
            let plain = try InputLoader.decode(raw, name: name)
            let pasted = try PasteLoader.decode(raw, name: name)
            #expect(pasted.origin == nil, "\(name)")
            #expect(pasted.bytes == plain.bytes && pasted.note == plain.note && pasted.encoding == plain.encoding, "\(name)")
        }
    }

    @Test func brokenDataKeepsTheLoadersPreciseRefusal() {
        #expect(throws: InputError("cannot decode 'b.b64': base64: unexpected character '#' at text offset 4 (line 1, column 5)")) {
            try PasteLoader.decode(Array("MAMC#AQU=\n".utf8), name: "b.b64")
        }
        #expect(throws: InputError("cannot decode 'b.json': \"receipt-data\" is a number, not a base64 string")) {
            try PasteLoader.decode(Array("{\"receipt-data\": 42}".utf8), name: "b.json")
        }
    }
}
