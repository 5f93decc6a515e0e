import Testing
@testable import TextLoader

/// `JWSText.tokenRange`: the loader's "is the whole input one compact JWS?" test, which reads every
/// byte of every input through a table.
@Suite struct JWSTokenRangeTests {
    @Test func tableIsTheCharacterTest() {
        for c in UInt8.min...UInt8.max {
            let accepted = !CompactJWSShape.notTokenCharacter.contains(c)
            #expect(accepted == (JWSText.isTokenCharacter(c) || c == UInt8(ascii: ".")), "byte \(c)")
        }
    }

    /// Each dot count and a bad byte at every place of a short token, against the plain reading.
    @Test func shapeMatchesTheCharacterTestAtEveryPlace() {
        let token = Array("eyJh.eyJ.c2ln".utf8)
        for place in token.indices {
            for bad: UInt8 in [0x20, 0x80, 0xFF, UInt8(ascii: "."), UInt8(ascii: "!"), 0] {
                var bytes = token
                bytes[place] = bad
                let dots = bytes.filter { $0 == UInt8(ascii: ".") }.count
                let plain = dots == 2 && bytes.allSatisfy { JWSText.isTokenCharacter($0) || $0 == UInt8(ascii: ".") }
                #expect(CompactJWSShape.holds(bytes[...]) == plain, "\(bad) at \(place)")
            }
        }
        #expect(CompactJWSShape.holds(token[...]))
        #expect(!CompactJWSShape.holds([UInt8]()[...]))
        #expect(CompactJWSShape.holds(Array("..".utf8)[...]), "the shape only: empty segments are the decoder's to pin")
    }

    @Test func findsExactlyTwoDotsOfTokenCharacters() {
        let token = Array("eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ.c2lnbmF0dXJl".utf8)
        #expect(JWSText.tokenRange(token, from: 0) == 0..<token.count)
        #expect(JWSText.tokenRange(Array("\"".utf8) + token + Array("\"\n".utf8), from: 0) == 1..<(token.count + 1))
        #expect(JWSText.tokenRange(Array("MIIT+base64/receipt==MIIT+base64/receipt==".utf8), from: 0) == nil)
        #expect(JWSText.tokenRange(token + Array(".x".utf8), from: 0) == nil)
        #expect(JWSText.tokenRange(Array("eyJhbGciOiJFUzI1NiJ9.e yJ.c2ln".utf8), from: 0) == nil)
        #expect(JWSText.tokenRange(Array("eyJhbGciOiJFUzI1NiJ9.eyJ\u{e9}.c2ln".utf8), from: 0) == nil)
        #expect(JWSText.tokenRange(Array("1.2.3".utf8), from: 0) == nil)
    }

    /// The token test runs first and once: its answer is the compact-JWS step's and settles
    /// `isTextLike`; the loaded token says so (`isCompactJWS`) until its bytes change.
    @Test func theLoadedTokenCarriesItsShape() throws {
        let token = "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ.c2lnbmF0dXJl"
        for wrapped in [token, "\u{FEFF}  \"" + token + "\"\r\n", "\n\t" + token + " \n"] {
            var loaded = try InputLoader.decode(Array(wrapped.utf8), name: "t")
            #expect(loaded.encoding == .jws)
            #expect(loaded.bytes == Array(token.utf8))
            #expect(loaded.isCompactJWS)
            loaded.bytes[0] = UInt8(ascii: "f")
            #expect(!loaded.isCompactJWS, "a change of the bytes clears it")
        }
        for (other, encoding) in [("TUlJVCByZWNlaXB0", InputEncoding.base64), ("{\"signedPayload\": \"\(token)\"}", .storeKitText),
                                  ("a.b.c, d. e.f.g", .binary)] {
            let loaded = try InputLoader.decode(Array(other.utf8), name: "o")
            #expect(loaded.encoding == encoding, "\(other)")
            #expect(!loaded.isCompactJWS, "\(other)")
        }
        // A control byte anywhere is no token: the other steps read it (or refuse it).
        let withControl = try? InputLoader.decode(Array((token + "\u{1}").utf8), name: "c")
        #expect(withControl?.encoding != .jws)
        #expect(withControl?.isCompactJWS != true)
    }
}
