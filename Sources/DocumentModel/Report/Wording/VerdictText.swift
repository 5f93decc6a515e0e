import ByteText
import ReceiptKit

// The words of a report's verdict line, its `--quiet` form, an input with nothing to verify, and a
// token report's subject: what every kind's report says around its steps.

extension StepText {
    /// "Verdict: VALID (sandbox receipt) — valid App Store receipt", "Verdict: INVALID (Xcode receipt)":
    /// a receipt that is not a production one is named as such, valid or not.
    public func verdictLine(valid: Bool, summary: String, environment: ReceiptEnvironment?) -> String {
        "Verdict: \(valid ? "VALID" : "INVALID")\(qualifier(environment))\(valid ? " — " + TerminalSafe.escape(summary) : "")"
    }

    /// "VALID — valid App Store receipt", "VALID (sandbox receipt) — …" / "INVALID: <first reason>".
    public func quietLine(valid: Bool, summary: String, firstReason: String?, environment: ReceiptEnvironment?, ascii: Bool) -> String {
        if valid { return "VALID\(qualifier(environment)) \(ascii ? "-" : "—") " + TerminalSafe.escape(summary) }
        guard let firstReason else { return "INVALID\(qualifier(environment))" }
        return "INVALID\(qualifier(environment)): " + TerminalSafe.escape(firstReason)
    }

    private func qualifier(_ environment: ReceiptEnvironment?) -> String {
        environment?.receiptLabel.map { " (\($0))" } ?? ""
    }

    /// The one reason of an input `verify` cannot check; `why`: what the input is, or the format's sentence.
    func nothingToVerify(_ why: String) -> String { "nothing to verify: " + why }

    /// A token report's kind: "StoreKit 2 transaction", with Xcode's signer named when it signed.
    func tokenLabel(_ kindLabel: String, signedByXcode: Bool) -> String {
        signedByXcode ? kindLabel + " signed by Xcode StoreKit Testing (local testing only)" : kindLabel
    }

    /// A token report's note: "signedTransactions[0]: StoreKit 2 transaction (JWS, ES256, x5c 3 certificates)".
    func tokenNote(path: String?, kindLabel: String, headerSummary: String) -> String {
        "\(path.map(TerminalSafe.escape) ?? "token"): \(kindLabel) (JWS, \(headerSummary))"
    }
}
