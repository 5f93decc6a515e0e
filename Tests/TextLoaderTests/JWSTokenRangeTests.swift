import Testing
@testable import TextLoader

/// `JWSText.tokenRange`: the loader's "is the whole input one compact JWS?" test, which reads every
/// byte of every input through a bit table.
@Suite struct JWSTokenRangeTests {
    @Test func bitTableIsTheCharacterTest() {
        let (low, high) = CompactJWSShape.tokenCharacterBits
        for c in UInt8.min...UInt8.max {
            let bit = c < 64 ? (low >> UInt64(c)) & 1 == 1 : c < 128 ? (high >> UInt64(c - 64)) & 1 == 1 : false
            #expect(bit == JWSText.isTokenCharacter(c), "byte \(c)")
        }
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
}
