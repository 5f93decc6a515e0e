import ASN1Lenient

/// The text pieces every kind of verification report shares.
public enum VerificationText {
    /// "Verdict: VALID — valid App Store receipt" / "Verdict: INVALID": the last report line's head,
    /// and all that `verify --quiet` prints.
    public static func verdictLine(_ r: VerificationReport) -> String {
        "Verdict: \(r.verdict.valid ? "VALID — " + TerminalSafe.escape(r.verdict.summary) : "INVALID")"
    }
}
