import ByteText
import DocumentCore
import DocumentRedact
import Foundation
import Testing
import TestSupport
import TextLoader

/// Data given as base64 written the way an encoder writes it (one alphabet, lines of one length,
/// padding or none) is kept as the text around it and its layout, and its copy's text is made from
/// the new bytes (issue 32): the copy is exactly the copy of the bytes, written in the same layout,
/// with the same text around it; the values around the data are still found and replaced, and
/// named at their line and column.
@Suite struct RedactLayoutTests {
    static let receipts = ["typical.receipt", "minimal.receipt", "xcode-ber.receipt", "malformed-hostile-strings.receipt"]

    /// Foundation's encoder, independent of ours.
    static func base64(_ bytes: [UInt8], _ options: Data.Base64EncodingOptions = []) -> String {
        Data(bytes).base64EncodedString(options: options)
    }

    /// Every text form the layout is for, and two it is not (`/` escaped as `\/`, a space inside), each
    /// as a function of the bytes, so that the copy's expected text is the form of the copy's bytes.
    static let forms: [(name: String, text: @Sendable ([UInt8]) -> String)] = [
        ("one line", { base64($0) + "\n" }),
        ("76 a line, CRLF", { base64($0, [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed]) + "\r\n" }),
        ("PEM", { "-----BEGIN PKCS7-----\n" + base64($0, [.lineLength64Characters, .endLineWithLineFeed]) + "\n-----END PKCS7-----\n" }),
        ("base64url, no padding", {
            base64($0).replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "") + "\n"
        }),
        ("verifyReceipt body", { #"{"receipt-data":""# + base64($0) + #"","exclude-old-transactions":true}"# }),
        ("verifyReceipt body, / escaped", {
            #"{"receipt-data":""# + base64($0).replacingOccurrences(of: "/", with: #"\/"#) + #""}"#
        }),
        ("log line", { "Mar  1 10:00:00 app[42]: receipt " + base64($0) + " (sandbox)\n" }),
        ("a space inside", { let b = base64($0); return String(b.prefix(40)) + " " + String(b.dropFirst(40)) + "\n" }),
    ]

    static func redact(_ raw: [UInt8], mapping: Bool = false) throws -> (RedactRun, [UInt8]) {
        let options = RedactOptions(keep: [], key: .seeded("layout tests"), mapping: mapping)
        let run = try Redactor.run([try RedactSupport.input(raw)], options: options)
        let copy = try #require(run.copies.first)
        return (run, try #require(copy.bytes, "\(copy.failure ?? "")"))
    }

    @Test(arguments: receipts)
    func copyOfEachFormIsTheCopyOfTheBytesInThatForm(_ name: String) throws {
        let der = try Paths.sample(name)
        let (_, copiedDER) = try Self.redact(der)
        #expect(copiedDER != der)
        for form in Self.forms {
            let raw = Array(form.text(der).utf8)
            let regular = form.name != "a space inside" && !form.name.hasSuffix("escaped")
            #expect(Redactor.writesFromLayout(try RedactSupport.input(raw)) == regular, "\(name), \(form.name)")
            let (_, copy) = try Self.redact(raw)
            #expect(String(decoding: copy, as: UTF8.self) == form.text(copiedDER), "\(name), \(form.name)")
        }
    }

    @Test func regularFormsHaveALayoutAndOthersNone() throws {
        let der = try Paths.sample("typical.receipt")
        func layout(_ text: String) -> Base64Layout? { Base64Layout.of(Array(text.utf8)[...], writing: der) }
        let oneLine = try #require(layout(Self.base64(der)))
        #expect(oneLine == Base64Layout(lineLength: 0, lineBreak: [0x0A], padded: Self.base64(der).hasSuffix("="), url: false))
        let wrapped = try #require(layout(Self.base64(der, [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])))
        #expect(wrapped.lineLength == 76 && wrapped.lineBreak == [0x0D, 0x0A])
        let pem = try #require(layout(Self.base64(der, [.lineLength64Characters, .endLineWithLineFeed])))
        #expect(pem.lineLength == 64 && pem.lineBreak == [0x0A])
        // What an encoder writes, byte for byte, and its length said beforehand.
        for found in [oneLine, wrapped, pem] {
            var out: [UInt8] = []
            found.append(der, to: &out)
            #expect(out.count == found.textCount(byteCount: der.count))
            #expect(found.writes(der, as: out[...]))
        }
        // Not an encoder's: a short line, a space, both alphabets, padding dropped from a padded
        // text's middle, a set unused bit, a trailing line break, other bytes.
        let lines = Self.base64(der, [.lineLength64Characters, .endLineWithLineFeed])
        var ragged = Array(lines.utf8)
        ragged.remove(at: 10)
        ragged.insert(UInt8(ascii: "A"), at: 70)
        #expect(Base64Layout.of(ragged[...], writing: der) == nil)
        let text = Self.base64(der)
        #expect(layout(String(text.prefix(8)) + " " + String(text.dropFirst(8))) == nil)
        let mixed = text.replacingOccurrences(of: "+", with: "-")
        #expect(mixed.contains("/") && mixed.contains("-") && layout(mixed) == nil)
        #expect(layout(text + "\n") == nil)
        #expect(layout(Self.base64(Array(der.dropLast()))) == nil)
        // Three bytes less one: the last character carries 2 unused bits, which must be zero.
        let odd = Array(der.prefix(5))
        let written = Self.base64(odd).replacingOccurrences(of: "=", with: "")
        #expect(Base64Layout.of(Array(written.utf8)[...], writing: odd) != nil)
        var unused = Array(written.utf8)
        unused[unused.count - 1] += 1
        #expect(Base64Layout.of(unused[...], writing: odd) == nil)
    }

    /// Values around base64 kept as its layout are found before and after it, replaced with the
    /// data's stand-in, and named at their line and column: on the line before, on the data's own
    /// line after it, and on lines after it.
    @Test func valuesAroundALayoutAreReplacedAndPlaced() throws {
        let der = try Paths.sample("typical.receipt")
        let id = "2000000500000004"  // the first purchase's transaction id
        func text(_ data: [UInt8], _ value: String) -> String {
            "2026-03-01 txn \(value) begins\nreceipt=\(Self.base64(data)) id \(value)\ndone \(value)\ntransaction_id=\(value)\n"
        }
        let (_, copiedDER) = try Self.redact(der)
        let (run, copy) = try Self.redact(Array(text(der, id).utf8), mapping: true)
        guard case .text(let standIn)? = run.standIns[.text(id)] else { Issue.record("no stand-in for \(id)"); return }
        #expect(String(decoding: copy, as: UTF8.self) == text(copiedDER, standIn))
        let places = (run.occurrences[.text(id)] ?? []).filter { $0.layer == "text around the data" }.map(\.place).sorted()
        let dataLine = "receipt=\(Self.base64(der)) id "
        #expect(places == [
            "the text around the data, line 1, column 16",
            "the text around the data, line 2, column \(NumberText.grouped(dataLine.utf8.count + 1))",
            "the text around the data, line 3, column 6",
            "the text around the data, line 4, column 16: transaction_id",
        ])
    }
}
