import ReceiptKit
import DocumentCore
import DocumentTour

/// What a tamper-lab edit changed in a receipt's validation, one line per step whose status moved:
/// "signature: passed → FAILED (signature mismatch)".
enum ReceiptLabChange {
    static func describe(before: Document, after: Document) -> [LabChangeLine] {
        var lines: [LabChangeLine] = []
        let old = Dictionary((before.receipt?.validationSteps ?? []).map { ($0.id, $0.status) }, uniquingKeysWith: { a, _ in a })
        for step in after.receipt?.validationSteps ?? [] {
            guard let was = old[step.id], was != step.status else { continue }
            lines.append(LabChangeLine("\(step.id): \(LabChange.word(was)) → \(LabChange.word(step.status))", nowFails: step.status.isFailed))
        }
        return lines
    }
}
