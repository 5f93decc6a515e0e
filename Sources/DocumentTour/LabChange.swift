import ASN1Lenient
import ReceiptKit
import ByteText
import DocumentCore

/// One line of what a tamper-lab edit changed, typed for the views: whether a check now fails.
public struct LabChangeLine: Sendable, Equatable {
    /// Terminal-safe words: "signature: passed → FAILED (…)", "new error: … at 3,803".
    public var text: String
    /// A verification step that now fails (the status line shows the change as an error).
    public var nowFails: Bool
    /// Nothing changed (said only when no line says otherwise).
    public var isNoChange: Bool

    public init(_ text: String, nowFails: Bool = false, isNoChange: Bool = false) {
        self.text = text
        self.nowFails = nowFails
        self.isNoChange = isNoChange
    }

    public static let noChange = LabChangeLine("no change in diagnostics or validation", isNoChange: true)
}

/// The tamper lab's hook: what an edit changed that the format checks beyond the document's
/// diagnostics (a token's verification steps), one terminal-safe line per change; a format
/// without it adds nothing.
public protocol LabChangeSource {
    func labChanges(before: Document, after: Document) -> [LabChangeLine]
}

extension Document {
    /// What a tamper-lab edit from `before` to this document changed, as `before`'s format words
    /// it (an edit may leave bytes that no longer open as that kind).
    public func labChanges(since before: Document) -> [LabChangeLine] {
        (before.format as? any LabChangeSource)?.labChanges(before: before, after: self) ?? []
    }
}

/// What an edit changed, computed from the documents before and after it: validation steps whose
/// status moved (as the document's format says: a receipt's steps, a token's), and the diagnostics
/// that appeared or went away.
public enum LabChange {
    /// One line per change, steps first: "token: ES256 signature: passed → failed", "signature:
    /// passed → FAILED (…)", "new error: length-exceeds-parent at 3,803", "gone: …";
    /// `LabChangeLine.noChange` when none.
    public static func describe(before: Document, after: Document) -> [LabChangeLine] {
        var lines = after.labChanges(since: before)
        let beforeKeys = Set(before.diagnostics.map { Key($0.diagnostic) })
        let afterKeys = Set(after.diagnostics.map { Key($0.diagnostic) })
        // Worst first, then in file order: the status line shows the first two.
        let appeared = after.diagnostics.map(\.diagnostic).filter { !beforeKeys.contains(Key($0)) }
            .sorted { ($0.severity, $0.offset) < ($1.severity, $1.offset) }
        for d in appeared {
            lines.append(LabChangeLine("new \(d.severity): \(d.code.rawValue) at \(NumberText.grouped(d.offset))"))
        }
        for d in before.diagnostics.map(\.diagnostic) where !afterKeys.contains(Key(d)) {
            lines.append(LabChangeLine("gone: \(d.code.rawValue) at \(NumberText.grouped(d.offset))"))
        }
        return lines.isEmpty ? [.noChange] : lines
    }

    /// The status line: the first two changes and how many more.
    public static func summary(_ lines: [LabChangeLine]) -> String {
        let shown = lines.prefix(2).map(\.text).joined(separator: "; ")
        return lines.count > 2 ? "\(shown) (+\(lines.count - 2) more)" : shown
    }

    /// "passed", "FAILED (why)", "not checked". Terminal-safe: a reason's words may quote the
    /// input (a signer certificate's name), and the lab shows them on the status line.
    package static func word(_ status: StepStatus) -> String {
        switch status {
        case .passed: "passed"
        case .failed(let reason): "FAILED (\(TerminalSafe.escape(short(reason))))"
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
