import TextLoader

// The one rule a report's verdict follows, whatever the kind and whichever view shows it (verify's
// text, JSON and --quiet line, batch lines, the explorer's summary and status bar, the tamper lab,
// the tour): each kind's verification proposes its steps and verdict, and this settles them.

extension VerificationReport {
    /// Settles the report by the one rule, nested reports first:
    /// - a step that does not decide the verdict (a token's validity today when it has a signedDate;
    ///   revocation, never checked offline) and did not pass is information (`.info`), never a failure;
    /// - a failed step or an invalid nested report makes the verdict INVALID: a failure never stands
    ///   beside VALID;
    /// - a cut-off input says so first, before what the cut breaks (the chain, an empty signature).
    package mutating func settleVerdict(words: StepText = .plain) {
        nested = nested.changed { $0.settleVerdict(words: words) }
        for i in steps.indices where !steps[i].decides && steps[i].status != .passed && steps[i].status != .info {
            steps[i].status = .info
            steps[i].message = words.forInformation(steps[i].reason ?? "")
            steps[i].appleStatus = nil
        }
        let failed = steps.filter { $0.status == .failed }
        if verdict.valid, !failed.isEmpty || nested.contains(where: { !$0.verdict.valid }) {
            let stepReasons = failed.map { VerificationVerdict.Reason(code: $0.reasonCode ?? .notVerifiable, step: $0.id,
                                                                       message: "\($0.title): \($0.reason ?? "")") }
            verdict = VerificationVerdict(valid: false, outcome: "invalid", summary: words.summary(.invalid),
                                          reasons: stepReasons + verdict.reasons.filter { $0.code != .anchoredAtUserRoot && $0.code != .acceptedForLocalTesting })
        }
        if let cut = findings.first(where: { $0.code == InputCode.cutOff.rawValue }),
           verdict.reasons.first?.code != .inputCutOff {
            verdict = VerificationVerdict(valid: false, outcome: "invalid", summary: words.summary(.invalid),
                                          reasons: [.init(code: .inputCutOff, step: nil, message: cut.message)] + verdict.reasons)
        }
    }
}
