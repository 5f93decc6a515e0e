import ASN1Lenient
import ReceiptKit
import ByteText

/// What an edit changed, computed from the documents before and after it: validation steps whose
/// status moved, and the diagnostics that appeared or went away.
public enum LabChange {
    /// One line per change, steps first: "signature: passed → FAILED (…)", "new error:
    /// length-exceeds-parent at 3,803", "gone: …"; "no change in diagnostics or validation" when none.
    public static func describe(before: Document, after: Document) -> [String] {
        var lines: [String] = []
        let old = Dictionary((before.receipt?.validationSteps ?? []).map { ($0.id, $0.status) }, uniquingKeysWith: { a, _ in a })
        for step in after.receipt?.validationSteps ?? [] {
            guard let was = old[step.id], was != step.status else { continue }
            lines.append("\(step.id): \(word(was)) → \(word(step.status))")
        }
        let beforeKeys = Set(before.diagnostics.map { Key($0.diagnostic) })
        let afterKeys = Set(after.diagnostics.map { Key($0.diagnostic) })
        // Worst first, then in file order: the status line shows the first two.
        let appeared = after.diagnostics.map(\.diagnostic).filter { !beforeKeys.contains(Key($0)) }
            .sorted { ($0.severity, $0.offset) < ($1.severity, $1.offset) }
        for d in appeared {
            lines.append("new \(d.severity): \(d.code.rawValue) at \(NumberText.grouped(d.offset))")
        }
        for d in before.diagnostics.map(\.diagnostic) where !afterKeys.contains(Key(d)) {
            lines.append("gone: \(d.code.rawValue) at \(NumberText.grouped(d.offset))")
        }
        return lines.isEmpty ? ["no change in diagnostics or validation"] : lines
    }

    /// The status line: the first two changes and how many more.
    public static func summary(_ lines: [String]) -> String {
        let shown = lines.prefix(2).joined(separator: "; ")
        return lines.count > 2 ? "\(shown) (+\(lines.count - 2) more)" : shown
    }

    /// "passed", "FAILED (why)", "not checked".
    static func word(_ status: StepStatus) -> String {
        switch status {
        case .passed: "passed"
        case .failed(let reason): "FAILED (\(short(reason)))"
        case .notChecked: "not checked"
        }
    }

    /// A few words for a failure reason; the detail pane has the whole sentence.
    static func short(_ reason: StepReason) -> String {
        switch reason {
        case .signatureMismatch: "signature mismatch"
        case .payloadDiffersFromSignature, .payloadDiffersFromSignedContent: "payload differs from signed content"
        case .receiptErrors(let count, let code, _, _): "\(count) error\(count == 1 ? "" : "s"), first \(code.rawValue)"
        case .notAReceipt: "not a receipt"
        case .notPKCS7, .emptyInput: "not PKCS#7"
        case .chainUnverified, .invalidAtCreation, .chainNotVerified: "chain"
        case .deviceHashMismatch: "device hash mismatch"
        case .valueMismatch(let type, _, _): "attribute \(type) differs"
        default: String(StepText.plain.reason(reason).prefix(60))
        }
    }

    /// A diagnostic's identity across an edit: severity, code and where.
    struct Key: Hashable {
        let severity: String
        let code: String
        let offset: Int
        init(_ d: Diagnostic) {
            severity = "\(d.severity)"
            code = d.code.rawValue
            offset = d.offset
        }
    }
}
