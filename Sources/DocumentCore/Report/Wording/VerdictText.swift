import ByteText
import ReceiptKit

// The words of a report's verdict line, its `--quiet` form, an input with nothing to verify, and a
// token report's subject: what every kind's report says around its steps.

extension StepText {
    /// "VALID (sandbox receipt)", "INVALID", "INVALID (Xcode receipt)", "NOT VALIDATED": the head of
    /// every view's verdict (verify's line, --quiet and batch lines, the explorer's status bar and
    /// summary). A receipt that is not a production one is named as such, valid or not.
    public func verdictHead(valid: Bool, validated: Bool = true, environment: ReceiptEnvironment?) -> String {
        (valid ? "VALID" : validated ? "INVALID" : "NOT VALIDATED") + qualifier(environment)
    }

    /// "Verdict: VALID (sandbox receipt) — valid App Store receipt", "Verdict: INVALID (Xcode receipt)".
    public func verdictLine(valid: Bool, validated: Bool = true, summary: String, environment: ReceiptEnvironment?) -> String {
        "Verdict: " + verdictHead(valid: valid, validated: validated, environment: environment)
            + (valid ? " — " + TerminalSafe.escape(summary) : "")
    }

    /// "VALID — valid App Store receipt", "VALID (sandbox receipt) — …" / "INVALID: <first reason>".
    public func quietLine(valid: Bool, validated: Bool = true, summary: String, firstReason: String?,
                          environment: ReceiptEnvironment?, ascii: Bool) -> String {
        let head = verdictHead(valid: valid, validated: validated, environment: environment)
        if valid { return head + " \(ascii ? "-" : "—") " + TerminalSafe.escape(summary) }
        guard let firstReason else { return head }
        return head + ": " + TerminalSafe.escape(firstReason)
    }

    /// The message of a step shown for information (`VerificationStatus.info`).
    package func forInformation(_ reason: String) -> String { "for information — " + reason }

    /// Why an information step does not decide: "the verdict judges the certificates at signedDate".
    public func whyInformation(judgedAtSignedDate: Bool) -> String {
        "for information: " + (judgedAtSignedDate ? "the verdict judges the certificates at signedDate" : "it does not decide the verdict")
    }

    private func qualifier(_ environment: ReceiptEnvironment?) -> String {
        environment?.receiptLabel.map { " (\($0))" } ?? ""
    }

    /// The one reason of an input `verify` cannot check; `why`: what the input is, or the format's sentence.
    package func nothingToVerify(_ why: String) -> String { "nothing to verify: " + why }

    /// A token report's kind: "StoreKit 2 transaction", with Xcode's signer named when it signed.
    package func tokenLabel(_ kindLabel: String, signedByXcode: Bool) -> String {
        signedByXcode ? kindLabel + " signed by Xcode StoreKit Testing (local testing only)" : kindLabel
    }

    /// A token report's note: "signedTransactions[0]: StoreKit 2 transaction (JWS, ES256, x5c 3 certificates)".
    package func tokenNote(path: String?, kindLabel: String, headerSummary: String) -> String {
        "\(path.map(TerminalSafe.escape) ?? "token"): \(kindLabel) (JWS, \(headerSummary))"
    }
}
