import JSONLenient
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
        // Characters 4..<8 ("A///"); the last '/' is the escape `\/` at 32-33, covered whole.
        #expect(certificate.headerRange(ofBytes: 3..<6) == 27..<34)
        #expect(certificate.contiguousTextStart == nil)
        #expect(certificate.tree.nodes.count == 2)
        #expect(certificate.tree[1].isUniversal(4))
    }

    @Test func x5cBadCharacterIsPinnedInTheHeader() {
        let d = JWSDocument.decode(text: token(header: #"{"alg":"ES256","x5c":["MA!E"]}"#, payload: "{}"))
        #expect(d.codes(.header) == [JWSCode.base64InvalidCharacter.code])
        #expect(d.diagnostics[0].diagnostic.range == 25..<26)
    }

    /// Fuzz finding (receipt target): a base64 diagnostic inside an escaped x5c entry kept its length
    /// in unescaped characters, so its range ran past the header layer.
    @Test func x5cDiagnosticsCoverWholeEscapesAndStayInTheHeader() throws {
        // 23 bytes of `{"alg":"ES256","x5c":["`, then M A = \/ \/ and the closing quote at 30.
        let header = #"{"alg":"ES256","x5c":["MA=\/\/"]}"#
        let d = JWSDocument.decode(text: token(header: header, payload: "{}"))
        let certificate = try #require(d.header.certificates.first)
        #expect(certificate.headerOffsets == [23, 24, 25, 26, 28])
        #expect(certificate.headerEnd == 30)
        let inHeader = d.diagnostics.filter { $0.layer == .header }.map(\.diagnostic)
        #expect(inHeader.map(\.code) == [JWSCode.base64InvalidCharacter.code, JWSCode.base64InvalidCharacter.code,
                                        JWSCode.base64Padding.code])
        // Each escaped '/' after the padding is pinned to both of its characters, and the padding
        // finding runs from '=' to the closing quote, never past it.
        #expect(inHeader.map(\.range) == [26..<28, 28..<30, 25..<30])
        #expect(certificate.headerRange(ofCharacters: 0..<99) == 23..<30)
    }

    @Test func x5cEntryThatIsNotAString() {
        let d = JWSDocument.decode(text: token(header: #"{"alg":"ES256","x5c":[42]}"#, payload: "{}"))
        #expect(d.codes(.header) == [JWSCode.x5cEntryNotString.code])
        #expect(d.diagnostics[0].diagnostic.range == 22..<24)
    }

    @Test func nestedTokensStopAtTheLimit() {
        let inner = String(decoding: token(payload: #"{"transactionId":"2"}"#), as: UTF8.self)
        let middle = String(decoding: token(payload: #"{"notificationType":"TEST","data":{"signedTransactionInfo":"\#(inner)"}}"#), as: UTF8.self)
        let outer = JWSDocument.decode(text: token(payload: #"{"notificationType":"TEST","data":{"signedTransactionInfo":"\#(middle)"}}"#))
        #expect(outer.nested.count == 1)
        let second = outer.nested[0].document
        #expect(second.nested.isEmpty)
        #expect(second.codes(.payload) == [JWSCode.nestedTooDeep.code])
        #expect(outer.worstSeverity == .error)
    }

    @Test func brokenTokensAreStillClassifiedAsTokens() {
        #expect(StoreKitInput.classify(Array("e30.e3+.AA".utf8)) == .token(.unknown))
    }
}

@Suite("Notification summary and nodes")
struct NotificationSummaryTests {
    @Test func summaryFieldsAreDecodedWithTheirNodes() throws {
        let payload = #"{"notificationType":"RENEWAL_EXTENSION","subtype":"SUMMARY","summary":{"bundleId":"b","environment":"Sandbox","succeededCount":5,"storefrontCountryCodes":["USA","CAN"]}}"#
        let d = JWSDocument.decode(text: token(payload: payload))
        #expect(d.diagnostics.isEmpty)
        #expect(StoreKitTokenKind(kindOf: d) == .notification(type: "RENEWAL_EXTENSION", subtype: "SUMMARY"))
        #expect(d.payload.value("summary.succeededCount") == .integer(5))
        #expect(d.payload.value("summary.storefrontCountryCodes") == .array(count: 2))
        #expect(d.payload.bundleId == "b")
        #expect(d.payload.environment == "Sandbox")
        let field = try #require(d.payload.field("summary.succeededCount"))
        let json = try #require(d.payloadJSON)
        #expect(json.key(ofMember: field.member.index) == "succeededCount")
        #expect(json.text(of: try #require(field.valueNode).index) == "5")
    }

    @Test func schemaDiagnosticsNameTheirValueNode() throws {
        let d = JWSDocument.decode(text: token(payload: #"{"transactionId":7}"#))
        #expect(d.codes(.payload) == [JWSCode.fieldWrongType.code])
        let node = try #require(d.diagnostics[0].diagnostic.node?.index)
        #expect(d.payloadJSON?[node].kind == .number)
        #expect(d.diagnostics[0].diagnostic.message == "transactionId should be an id in a string, found number")
    }
}
