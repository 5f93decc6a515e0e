import ASN1Lenient
import ByteText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit
import X509Trust

/// The readable form of a verification report for StoreKit 2 input, in the style of the receipt
/// report (`VerifyReport`, which receipts keep): what the token is, every step (✓ ✗ –) with its
/// reason and the bytes it is about, the x5c certificates with SHA-256 fingerprints, each nested
/// token's own report, and the verdict. Every string from the input is escaped.
public enum VerificationText {
    /// "Verdict: VALID — valid App Store receipt" / "Verdict: INVALID": the last report line's head.
    public static func verdictLine(_ r: VerificationReport) -> String {
        StepText.plain.verdictLine(valid: r.verdict.valid, validated: r.verdict.validated, summary: r.verdict.summary,
                                   environment: r.subject.environment)
    }

    /// What `verify --quiet` prints, and each batch line after its source: "VALID — valid App Store
    /// receipt", "VALID (sandbox receipt) — …" / "INVALID: PKCS#7 signature: the signature does not
    /// verify" (the first reason; a receipt that is not a production one is named as in `verdictLine`).
    public static func quietLine(_ r: VerificationReport, ascii: Bool = false) -> String {
        StepText.plain.quietLine(valid: r.verdict.valid, validated: r.verdict.validated, summary: r.verdict.summary,
                                 firstReason: r.verdict.reasons.first?.message, environment: r.subject.environment, ascii: ascii)
    }

    public static func text(_ r: VerificationReport, inputName: String, style: VerifyStyle = .init()) -> String {
        var text = ""
        write(r, inputName: inputName, style: style) { text += $0 }
        return text
    }

    /// `text` handed to `emit` in pieces of whole lines, one after each nested token's report: a
    /// history's report (10,000 tokens) is never one string.
    public static func write(_ r: VerificationReport, inputName: String, style: VerifyStyle = .init(), to emit: (String) -> Void) {
        withoutActuallyEscaping(emit) { emit in
            var lines = ["receipt-explorer verify: \(TerminalSafe.escape(inputName)): \(r.subject.note)", ""]
            let spill: (inout [String]) -> Void = { lines in
                guard !lines.isEmpty else { return }
                emit(lines.joined(separator: "\n") + "\n")
                lines.removeAll(keepingCapacity: true)
            }
            body(r, indent: "", style: style, into: &lines, spill: spill)
            lines.append(verdictLine(r))
            for reason in r.verdict.reasons { lines.append("  \(style.unicode ? "•" : "*") \(TerminalSafe.escape(reason.message))") }
            spill(&lines)
        }
    }

    /// "<title>", "<title>: <reason>", "<title>: not checked — <reason>", "<title>: <reason> (for
    /// information: …)": one step, after its mark, in every text view (verify, the explorer's summary).
    public static func stepLine(_ step: VerificationStep) -> String {
        let reason = TerminalSafe.escape(step.reason ?? "")
        switch step.status {
        case .passed: return step.title
        case .failed: return step.title + ": " + reason
        case .notChecked: return step.title + ": not checked — " + reason
        case .info:
            // A step with a moment that does not decide is today's validity, beside the token's signedDate.
            return step.title + ": " + reason + " (\(StepText.plain.whyInformation(judgedAtSignedDate: step.judgedAt != nil)))"
        }
    }

    /// `spill` runs after each nested report of this one (not of the nested ones).
    static func body(_ r: VerificationReport, indent: String, style: VerifyStyle, into lines: inout [String],
                     spill: ((inout [String]) -> Void)? = nil) {
        let safe = TerminalSafe.escape
        if !r.steps.isEmpty || r.subject.path != nil {
            var rows: [(String, String)] = [("kind", r.subject.label)]
            if let signed = r.dates.signed { rows.append(("signed", ReceiptDate(signed).utcString)) }
            if let root = r.certificates.last, let anchor = root.anchor {
                rows.append(("anchored at", "\(anchor) (\(safe(root.subject)))"))
            }
            rows += r.subject.headline.map { (safe($0.path), safe($0.value)) }
            let width = rows.map(\.0.count).max() ?? 0
            for (k, v) in rows { lines.append(indent + "  " + PlainText.padded(k, toLength: width + 2) + v) }
            lines.append("")
        }
        let problems = r.findings.filter { $0.severity == "error" || $0.severity == "warning" }
        if !problems.isEmpty {
            lines.append(indent + "Findings (\(problems.count))")
            for f in problems.prefix(10) {
                lines.append(indent + "  \(f.severity) \(f.code) at offset \(f.offset) (\(f.length) byte\(f.length == 1 ? "" : "s")): \(safe(f.message))")
            }
            if problems.count > 10 { lines.append(indent + "  \(style.unicode ? "…" : "...") and \(problems.count - 10) more (see `receipt-explorer dump`)") }
            lines.append("")
        }
        if !r.steps.isEmpty {
            lines.append(indent + "Verification")
            for step in r.steps {
                lines.append(indent + "  \(style.mark(step.status)) \(stepLine(step))")
                if let status = step.appleStatus { lines.append(indent + "      " + status.sentence(receipt: step.subject.envelope == .pkcs7)) }
                if step.status == .failed {
                    for range in step.ranges {
                        lines.append(indent + "      \(safe(range.what)): offset \(range.offset), \(range.length) byte\(range.length == 1 ? "" : "s")")
                    }
                }
            }
            lines.append("")
        }
        if !r.certificates.isEmpty {
            lines.append(indent + "Certificates (x5c)")
            for c in r.certificates {
                var first = indent + "  \(c.index ?? 0)  \(c.role): \(safe(c.subject))"
                if let anchor = c.anchor { first += " [\(anchor)\(anchor == "Apple Root CA - G3" ? ", pinned" : "")]" }
                lines.append(first)
                lines.append(indent + "     SHA-256 \(c.sha256)")
                let from = c.notBefore.map { String(ReceiptDate($0).utcString.prefix(10)) } ?? "?"
                let to = c.notAfter.map { String(ReceiptDate($0).utcString.prefix(10)) } ?? "?"
                var facts = ["valid \(from) … \(to)"]
                if c.markers.contains(CertificateInfo.receiptSignerOID) { facts.append("StoreKit signing \(CertificateInfo.receiptSignerOID)") }
                if c.markers.contains(CertificateInfo.wwdrIntermediateOID) { facts.append("WWDR intermediate \(CertificateInfo.wwdrIntermediateOID)") }
                if c.selfSigned { facts.append("self-signed") }
                lines.append(indent + "     " + facts.joined(separator: ", "))
            }
            lines.append("")
        }
        for n in r.nested {
            lines.append(indent + "Nested \(safe(n.subject.path ?? "token")): \(n.verdict.valid ? "VALID" : "INVALID")")
            body(n, indent: indent + "  ", style: style, into: &lines)
            spill?(&lines)
        }
    }
}

extension VerificationReport {
    /// The report of an input `verify` cannot check (neither a receipt nor StoreKit 2 tokens, such
    /// as an iOS 6 transaction receipt): no steps, invalid, and what the input is.
    /// `why`: the format's sentence after "nothing to verify: " (default: what the input is); `now`: the
    /// "today" the document was verified at (`AnalysisOptions.now`).
    public init(unverifiable document: Document, why: String? = nil, now: Date) {
        self.init(subject: VerificationSubject(kind: document.kind.id, label: document.kind.summary, note: document.note),
                  steps: [], certificates: [], dates: VerificationDates(signed: nil, now: now, at: nil),
                  findings: document.diagnostics.map { VerificationFinding($0.diagnostic) }, nested: [],
                  verdict: VerificationVerdict(valid: false, outcome: "invalid", summary: "INVALID",
                                               reasons: [.init(code: .notVerifiable, step: nil,
                                                               message: StepText.plain.nothingToVerify(why ?? document.kind.summary))]))
    }
}

/// How `verify`'s text marks a step: Unicode or ASCII.
public struct VerifyStyle: Sendable {
    /// ✓ ✗ – and … (false: + x - and ...).
    public var unicode: Bool
    public init(unicode: Bool = true) { self.unicode = unicode }

    /// ✓ passed, ✗ failed, – not checked, i for information (+ x - i in ASCII).
    public func mark(_ status: VerificationStatus) -> String {
        switch status {
        case .passed: unicode ? "✓" : "+"
        case .failed: unicode ? "✗" : "x"
        case .notChecked: unicode ? "–" : "-"
        case .info: "i"
        }
    }
}
