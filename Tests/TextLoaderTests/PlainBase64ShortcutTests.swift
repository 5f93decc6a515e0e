import Foundation
import Testing
import TestSupport
import ByteText
@testable import ASN1Lenient
@testable import TextLoader

/// `InputLoader.decode` reads plain base64 in one pass (`plainBase64`) before the detection steps;
/// everything it takes must load exactly as the steps alone load it (`decodeByDetectors`), and what
/// it declines (hostile or other text) must give the same result or the same message as before.
@Suite struct PlainBase64ShortcutTests {
    /// The loaded input or the loader's message, for comparing the two paths.
    static func outcome(_ load: () throws -> LoadedInput) -> String {
        do {
            let l = try load()
            return "\(l.encoding) \(l.note) \(l.bytes) \(l.diagnostics.map { "\($0.code.rawValue) \($0.offset) \($0.length) \($0.message)" })"
        } catch let error as InputError {
            return "error: " + error.message
        } catch {
            return "unexpected: \(error)"
        }
    }

    static func expectSame(_ raw: [UInt8], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let shortcut = outcome { try InputLoader.decode(raw, name: "line 1") }
        let steps = outcome { try InputLoader.decodeByDetectors(raw, name: "line 1") }
        #expect(shortcut == steps, "\(what)", sourceLocation: sourceLocation)
    }

    static let typical: [UInt8] = Array((try? Paths.sample("typical.receipt")).map { Data($0).base64EncodedString() }?.utf8 ?? "".utf8)

    @Test func takesPlainBase64AndLoadsItAsTheStepsDo() throws {
        let text = Self.typical
        #expect(text.count > 1000)
        let taken = try #require(InputLoader.plainBase64(text, name: "line 1"))
        #expect(taken.bytes == (try Paths.sample("typical.receipt")))
        #expect(taken.encoding == .base64)
        #expect(taken.note == "decoded from base64: \(NumberText.grouped(text.count)) characters → \(NumberText.grouped(taken.bytes.count)) bytes")
        Self.expectSame(text, "typical")
        Self.expectSame(Array(" \n".utf8) + text + Array("\r\n\t ".utf8), "surrounding whitespace")
        Self.expectSame(Array(text.prefix(500)) + Array("\n".utf8) + Array(text.dropFirst(500)), "a line break inside")
        Self.expectSame(Array(text.reversed().drop(while: { $0 == UInt8(ascii: "=") }).reversed()), "padding dropped")
    }

    @Test(.enabled(if: Paths.corpusAvailable)) func everyCorpusReceiptLoadsAlike() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Paths.receipts.path).filter { $0.hasSuffix(".receipt") }
        #expect(names.count >= 10)
        for name in names {
            let der = try Paths.corpusReceipt(name)
            let text = Array(Data(der).base64EncodedString().utf8)
            #expect(InputLoader.plainBase64(text, name: name)?.bytes == der, "\(name)")
            Self.expectSame(text, name)
            Self.expectSame(der, name + " (DER)")
        }
    }

    /// Text the shortcut must leave to the detection steps, and the result each gives.
    @Test func declinesOtherTextAndTheStepsDecideAsBefore() throws {
        let text = Self.typical
        func replacing(_ at: Int, with bytes: String) -> [UInt8] { Array(text[..<at]) + Array(bytes.utf8) + Array(text[(at + 1)...]) }
        let declined: [(String, [UInt8])] = [
            ("byte-order mark", [0xEF, 0xBB, 0xBF] + text),
            ("URL-safe alphabet", replacing(300, with: "-")),
            ("underscore", replacing(301, with: "_")),
            ("a stray character", replacing(1000, with: "#")),
            ("a stray character near the end", replacing(text.count - 10, with: "!")),
            ("a dot", replacing(100, with: ".")),
            ("padding in the middle", Array(text[..<400]) + Array("==".utf8) + Array(text[402...])),
            ("too much padding", text + Array("=".utf8)),
            ("one character of a group", Array(text.prefix(501))),
            ("quoted", Array("\"".utf8) + text + Array("\"".utf8)),
            ("NUL padding", text + [0, 0, 0]),
            ("PEM on one line", Array("-----BEGIN PKCS7-----".utf8) + text + Array("-----END PKCS7-----".utf8)),
            ("a verifyReceipt body", Array("{\"receipt-data\": \"".utf8) + text + Array("\"}".utf8)),
            ("external purchase token prefix", Array("eyJhbGciOiJFUzI1NiJ9abcdefghijkl".utf8)),
            ("prose", Array("hello world, this is not a receipt".utf8)),
            ("binary", (0...255).map { UInt8($0) }),
            ("only whitespace", Array(" \n\t ".utf8)),
            ("empty", []),
            ("only padding", Array("====".utf8)),
        ]
        for (what, raw) in declined {
            #expect(InputLoader.plainBase64(raw, name: "line 1") == nil, "\(what)")
            Self.expectSame(raw, what)
        }
        // The messages the steps give, pinned (the shortcut declined, nothing changed for these).
        #expect(decodeError(replacing(1000, with: "#"), name: "line 1")
                == "cannot decode 'line 1': base64: unexpected character '#' at text offset 1,000 (line 1, column 1,001)")
        #expect(decodeError(Array(text.prefix(501)), name: "line 1")
                == "cannot decode 'line 1': base64: the text ends with an incomplete group: 1 character cannot encode a byte at text offset 501 (line 1, column 502)")
        #expect(decodeError(text + Array("=".utf8), name: "line 1")
                == "cannot decode 'line 1': base64: unexpected '=' padding after 0 character(s) of a group of four at text offset \(NumberText.grouped(text.count)) (line 1, column \(NumberText.grouped(text.count + 1)))")
        let urlSafe = try InputLoader.decode(replacing(300, with: "-"), name: "line 1")
        #expect(urlSafe.note.hasPrefix("decoded from base64url: "))
    }

    /// A truncated receipt in plain base64 is taken and keeps the step's diagnostics (the parser's).
    @Test func truncatedReceiptIsTakenAndLoadsAlike() throws {
        let der = try Paths.sample("typical.receipt")
        let text = Array(Data(der.prefix(900)).base64EncodedString().utf8)
        #expect(InputLoader.plainBase64(text, name: "line 1")?.bytes == Array(der.prefix(900)))
        Self.expectSame(text, "truncated")
    }
}

/// `Base64Text.decode` reads groups of four standard characters at once; every other byte goes
/// through the byte-by-byte step. Both must give the same bytes, flags and failure offsets.
@Suite struct Base64GroupDecodeTests {
    static func encoded(_ bytes: [UInt8]) -> [UInt8] { Array(Data(bytes).base64EncodedString().utf8) }

    @Test func roundTripsEveryLength() {
        for length in 0..<64 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let text = Self.encoded(bytes)
            guard length > 0 else { continue }
            guard case .success(let decoded) = Base64Text.decode(text) else { Issue.record("length \(length)"); continue }
            #expect(decoded.bytes == bytes, "length \(length)")
            #expect(decoded.characters == text.count)
            #expect(!decoded.urlSafe)
        }
    }

    @Test func aBadByteAtEveryPositionOfAGroupIsPinned() {
        let text = Self.encoded(Array(0..<30))  // 40 characters, no padding
        for position in 0..<text.count {
            for bad in [UInt8(ascii: "#"), 0x00, 0xC3] {
                var broken = text
                broken[position] = bad
                guard case .failure(let failure) = Base64Text.decode(broken) else { Issue.record("\(position)"); continue }
                #expect(failure.offset == position, "byte \(bad) at \(position)")
            }
        }
    }

    @Test func urlSafeAndWhitespaceAtEveryPositionOfAGroup() {
        let bytes: [UInt8] = [0xFB, 0xEF, 0xBE, 0xFB, 0xEF, 0xBE, 0x01, 0x02, 0x03]  // "++++++++AQID"
        let text = Self.encoded(bytes)
        #expect(text == Array("++++++++AQID".utf8))
        for position in 0..<8 {
            var url = text
            url[position] = UInt8(ascii: "-")
            guard case .success(let decoded) = Base64Text.decode(url) else { Issue.record("\(position)"); continue }
            #expect(decoded.bytes == bytes && decoded.urlSafe, "'-' at \(position)")
        }
        for position in 0...text.count {
            let spaced = Array(text[..<position]) + Array(" \n".utf8) + Array(text[position...])
            guard case .success(let decoded) = Base64Text.decode(spaced) else { Issue.record("\(position)"); continue }
            #expect(decoded.bytes == bytes && decoded.characters == 12 && !decoded.urlSafe, "space at \(position)")
        }
    }
}
