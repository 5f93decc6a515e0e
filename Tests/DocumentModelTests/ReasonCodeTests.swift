import DocumentCore
import Foundation
import JWSKit
import ReceiptKit
import Testing
import TestSupport
import ReasonCodes

/// One reason vocabulary for every kind: receipts and tokens name the same situation with the same
/// code, and docs/verify-schema.json lists exactly the codes the tool can write.
@Suite struct ReasonCodeTests {
    @Test func schemaListsEveryReasonCodeAndNoOther() throws {
        let data = try Data(contentsOf: Paths.packageRoot.appendingPathComponent("docs/verify-schema.json"))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let defs = try #require(schema["$defs"] as? [String: Any])
        let reasonCode = try #require(defs["reasonCode"] as? [String: Any])
        let listed = try #require(reasonCode["enum"] as? [String])
        #expect(listed == ReasonCode.allCases.map(\.rawValue))
        #expect(Set(listed).count == listed.count)
    }

    @Test func aStepWithoutAnExpectedValueIsNotGivenForEveryKind() {
        #expect(StepReason.notGiven(.deviceID).code == .notGiven)
        #expect(JWSSkip.noExpectation.code == .notGiven)
        #expect(ReasonCode.notGiven.rawValue == "not-given")
    }

    @Test func sameSituationsShareACode() {
        #expect(StepReason.signatureMismatch(openSSL: []).code == JWSFailure.signatureMismatch.code)
        #expect(StepReason.validationNotRequested.code == .validationNotRequested)
        #expect(Verdict.Reason.xcodeTestingNotSupplied.code == .xcodeTestingNotSupplied)
    }
}
