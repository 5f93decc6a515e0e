import ASN1Lenient
import Foundation
import Testing
@testable import JWSKit
import TestSupport

/// The work shared between tokens (issue 12): a remembered header, the kind read from the payload
/// alone, and a verification session give exactly what a fresh decode or verification gives.
@Suite("Shared work between tokens")
struct SharedWorkTests {
    @Test func aRememberedHeaderDecodesLikeTheFirstTime() {
        // '$' is not base64: the x5c entry's third character, offset 25 of the header JSON.
        let header = #"{"alg":"ES256","x5c":["AB$C"]}"#
        let first = JWSDocument.decode(text: token(header: header, payload: #"{"transactionId":"1"}"#))
        let second = JWSDocument.decode(text: token(header: header, payload: #"{"transactionId":"2"}"#))
        let invalid = first.diagnostics.filter { $0.diagnostic.code == JWSCode.base64InvalidCharacter.code }
        #expect(invalid.map(\.layer) == [.header])
        #expect(invalid.map(\.diagnostic.offset) == [25])
        #expect(invalid.map(\.diagnostic.length) == [1])
        #expect(second.diagnostics == first.diagnostics)
        #expect(second.header.certificates.map(\.der) == first.header.certificates.map(\.der))
        #expect(second.header.certificates.map(\.headerOffsets) == [[23, 24, 25, 26]])
        #expect(second.headerJSON?.nodes.count == first.headerJSON?.nodes.count)
        #expect(second.payload.string("transactionId") == "2")
    }

    @Test
    func classifyReadsEachTokensKindFromItsPayload() throws {
        let history = try Array(Data(contentsOf: Paths.samples.appendingPathComponent("jws/transaction-history.json")))
        guard case .body(_, let tokens) = StoreKitInput.classify(history) else {
            Issue.record("transaction-history.json is not a body")
            return
        }
        #expect(tokens.map(\.path) == ["signedTransactions[0]", "signedTransactions[1]"])
        #expect(tokens.map(\.kind) == [.transaction, .transaction])
        let notification = try Array(Data(contentsOf: Paths.samples.appendingPathComponent("jws/notification.jws")))
        #expect(StoreKitInput.classify(notification) == .token(.notification(type: "DID_RENEW", subtype: nil)))
        let renewal = try Array(Data(contentsOf: Paths.samples.appendingPathComponent("jws/renewal-info.jws")))
        #expect(StoreKitInput.classify(renewal) == .token(.renewalInfo))
    }

    @Test
    func aSessionGivesTheSameReportsAsFreshVerifications() throws {
        let root = try Array(Data(contentsOf: Paths.samples.appendingPathComponent("pki/test-ec-root.cer")))
        let options = JWSVerificationOptions(roots: [root], expectedBundleID: "com.example.receiptexplorer")
        let session = JWSVerificationSession()
        for file in ["transaction.jws", "renewal-info.jws", "transaction.jws", "malformed-tampered-payload.jws"] {
            let text = try String(decoding: Data(contentsOf: Paths.samples.appendingPathComponent("jws/\(file)")), as: UTF8.self)
            let split = SplitToken(text.trimmingCharacters(in: .whitespacesAndNewlines))
            let input = split.input(signedDate: split.signedDate,
                                    claims: JWSClaims(bundleID: split.payload?["bundleId"] as? String), options: options)
            let shared = JWSVerifier.verify(input, session: session)
            let fresh = JWSVerifier.verify(input)
            #expect(shared.steps == fresh.steps, "\(file)")
            #expect(shared.anchor == fresh.anchor, "\(file)")
            #expect(shared.chainKind == fresh.chainKind, "\(file)")
            #expect(fresh.steps.first { $0.step == .chain }?.status == .passed, "\(file)")
            #expect(fresh.steps.first { $0.step == .root }?.status == .passed, "\(file)")
            let signature = fresh.steps.first { $0.step == .signature }?.status
            #expect(signature?.isFailed == (file == "malformed-tampered-payload.jws"), "\(file)")
        }
    }
}
