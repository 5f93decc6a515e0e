import Testing
@testable import DocumentCore

/// `ReceiptJSON.writeString`, which every JSON report writes its strings with (the streamed and the
/// dictionary writers alike, so the stream tests cannot catch a change in it): exact bytes.
@Suite struct JSONStringEscapeTests {
    static func written(_ s: String) -> String {
        var out: [UInt8] = []
        ReceiptJSON.writeString(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func plainASCIIIsCopied() {
        #expect(Self.written("") == "\"\"")
        #expect(Self.written("receipt-signer 1.2.840.113635.100.6.11.1") == "\"receipt-signer 1.2.840.113635.100.6.11.1\"")
    }

    @Test func asciiSpecialsAndControls() {
        #expect(Self.written("a\"b\\c\nd\re\tf") == #""a\"b\\c\nd\re\tf""#)
        #expect(Self.written("\u{01}x\u{1F}\u{7F}") == #""\u0001x\u001f\u007f""#)
    }

    @Test func nonASCIIIsCopiedUnlessInvisibleOrControl() {
        // 2-, 3- and 4-byte scalars kept as UTF-8.
        #expect(Self.written("é … → 😀") == "\"é … → 😀\"")
        // C1 control (2 bytes), bidi override and zero-width space (format, 3 bytes), a tag
        // character (format, 4 bytes: a UTF-16 surrogate pair).
        #expect(Self.written("a\u{85}b") == #""a\u0085b""#)
        #expect(Self.written("\u{202E}x\u{200B}") == #""\u202ex\u200b""#)
        #expect(Self.written("\u{E0001}é") == #""\udb40\udc01é""#)
    }
}

/// The eight-bytes-at-a-time test agrees with the byte test for every byte in every position.
@Suite struct JSONPlainWordTests {
    @Test func plainWordIsTheByteTest() {
        for b in UInt8.min...UInt8.max {
            let plain = b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C
            for position in 0..<8 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                bytes[position] = b
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                #expect(ReceiptJSON.plainWord(word) == plain, "byte \(b) at \(position)")
            }
        }
        #expect(ReceiptJSON.plainWord(0x7E7E_7E7E_2020_2020))
        #expect(!ReceiptJSON.plainWord(0x1F7E_7E7E_2020_2020))
    }
}
