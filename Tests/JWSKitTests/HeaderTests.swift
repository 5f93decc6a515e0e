import ASN1Lenient
import JWSKit
import Testing

@Suite("JWS header: x5c and nesting")
struct HeaderTests {
    @Test func x5cWithEscapedSlashesMapsToHeaderOffsets() throws {
        // `{"alg":"ES256","x5c":["` is 23 bytes; "MAUEA////w==" is 30 05 04 03 FF FF FF.
        let header = #"{"alg":"ES256","x5c":["MAUEA\/\/\/\/w=="]}"#
        let d = JWSDocument.decode(text: token(header: header, payload: #"{"transactionId":"1"}"#))
        #expect(d.diagnostics.isEmpty)
        let certificate = try #require(d.header.certificates.first)
        #expect(certificate.der == [0x30, 0x05, 0x04, 0x03, 0xFF, 0xFF, 0xFF])
        #expect(certificate.base64 == Array("MAUEA////w==".utf8))
        #expect(certificate.headerOffsets == [23, 24, 25, 26, 27, 28, 30, 32, 34, 36, 37, 38])
        #expect(certificate.headerRange(ofBytes: 3..<6) == 27..<33)
        #expect(certificate.tree.nodes.count == 2)
        #expect(certificate.tree[1].isUniversal(4))
    }

    @Test func x5cBadCharacterIsPinnedInTheHeader() {
        let d = JWSDocument.decode(text: token(header: #"{"alg":"ES256","x5c":["MA!E"]}"#, payload: "{}"))
        #expect(d.codes(.header) == ["jws-base64-invalid-character"])
        #expect(d.diagnostics[0].diagnostic.range == 25..<26)
    }

    @Test func x5cEntryThatIsNotAString() {
        let d = JWSDocument.decode(text: token(header: #"{"alg":"ES256","x5c":[42]}"#, payload: "{}"))
        #expect(d.codes(.header) == ["jws-x5c-entry-not-string"])
        #expect(d.diagnostics[0].diagnostic.range == 22..<24)
    }

    @Test func nestedTokensStopAtTheLimit() {
        let inner = String(decoding: token(payload: #"{"transactionId":"2"}"#), as: UTF8.self)
        let middle = String(decoding: token(payload: #"{"notificationType":"TEST","data":{"signedTransactionInfo":"\#(inner)"}}"#), as: UTF8.self)
        let outer = JWSDocument.decode(text: token(payload: #"{"notificationType":"TEST","data":{"signedTransactionInfo":"\#(middle)"}}"#))
        #expect(outer.nested.count == 1)
        let second = outer.nested[0].document
        #expect(second.nested.isEmpty)
        #expect(second.codes(.payload) == ["jws-nested-too-deep"])
        #expect(outer.worstSeverity == .error)
    }

    @Test func brokenTokensAreStillClassifiedAsTokens() {
        #expect(StoreKitInput.classify(Array("e30.e3+.AA".utf8)) == .token(.unknown))
    }
}
