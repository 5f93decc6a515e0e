import ReceiptKit
import Testing

/// Attribute 0's receipt types and the environments they name, as Apple's AppReceiptVerifier reads them.
@Suite struct ReceiptEnvironmentTests {
    @Test func receiptTypesNameEnvironments() {
        #expect(ReceiptEnvironment(receiptType: "Production") == .production)
        #expect(ReceiptEnvironment(receiptType: "ProductionVPP") == .production)
        #expect(ReceiptEnvironment(receiptType: "ProductionSandbox") == .sandbox)
        #expect(ReceiptEnvironment(receiptType: "ProductionVPPSandbox") == .sandbox)
        #expect(ReceiptEnvironment(receiptType: "Xcode") == .xcode)
        #expect(ReceiptEnvironment(receiptType: "LocalTesting") == .localTesting)
        // Exact spelling: a receipt type is data, not a user's words.
        #expect(ReceiptEnvironment(receiptType: "sandbox") == nil)
        #expect(ReceiptEnvironment(receiptType: "") == nil)
    }

    @Test func userTextInAnyCase() {
        #expect(ReceiptEnvironment(userText: "sandbox") == .sandbox)
        #expect(ReceiptEnvironment(userText: "PRODUCTION") == .production)
        #expect(ReceiptEnvironment(userText: "localtesting") == .localTesting)
        #expect(ReceiptEnvironment(userText: "ProductionSandbox") == nil)  // a receipt type, not an environment
        #expect(ReceiptEnvironment(userText: "Prod") == nil)
    }

    @Test func verdictLabels() {
        #expect(ReceiptEnvironment.allCases.map(\.receiptLabel) == [nil, "sandbox receipt", "Xcode receipt", "local testing receipt"])
        #expect(ReceiptEnvironment.allCases.filter(\.appItemIDIsZero) == [.sandbox, .xcode, .localTesting])
    }
}
