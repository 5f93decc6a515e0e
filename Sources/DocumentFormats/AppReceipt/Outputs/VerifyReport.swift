import ASN1Lenient
import ByteText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit
import X509Trust
import DocumentCore

/// The `verify` command's readable report: the receipt in brief, every validation step (✓ passed,
/// ✗ failed, – not checked) with its reason and detail lines, the signer chain with subjects and
/// fingerprints, the subscriptions active at the `--at` moment, and the verdict. Every string that
/// comes from the input goes through `TerminalSafe.escape`.
public enum VerifyReport {
    public typealias Style = VerifyStyle

    /// - Parameter inputNote: how the input was read (`LoadedInput.note`: "raw DER/BER, 7,686 bytes",
    ///   "decoded from base64: …"); nil prints the byte count.
    /// - Parameter words: how reasons are worded (the CLI names its flags).
    /// - Parameter report: the receipt's settled report (`VerificationReport(verifying:)`), whose verdict
    ///   every view shows; nil: the analysis's own.
    public static func text(_ a: ReceiptAnalysis, inputName: String, inputNote: String? = nil,
                            style: Style = Style(), words: StepText = .plain, report: VerificationReport? = nil) -> String {
        var lines: [String] = []
        let safe = TerminalSafe.escape
        lines.append("receipt-explorer verify: \(safe(inputName)): \(inputNote ?? "\(a.tree.bytes.count) bytes")")
        lines.append("")

        // Receipt in brief.
        lines.append("Receipt")
        if let r = a.receipt {
            var rows: [(String, String)] = []
            rows.append(("receipt type", r.receiptType.map(safe) ?? "(absent)"))
            rows.append(("bundle id", r.bundleID.map(safe) ?? "(absent)"))
            rows.append(("app version", r.appVersion.map(safe) ?? "(absent)"))
            rows.append(("original app version", r.originalAppVersion.map(safe) ?? "(absent)"))
            rows.append(("created", dateText(r, 12)))
            if r.field(21) != nil { rows.append(("expires", dateText(r, 21))) }
            let complete = r.inApp.reduce(0) { $0 + ($1.isComplete ? 1 : 0) }  // no copy of 20,000 purchases
            rows.append(("in-app purchases", complete == r.inApp.count ? "\(r.inApp.count)" : "\(r.inApp.count) (\(r.inApp.count - complete) incomplete)"))
            if let report = a.signature, let anchor = report.anchor {
                let signedBy: String
                switch anchor {
                case .xcodeStoreKitTesting: signedBy = TrustAnchors.xcodeTestingNote
                case .userSupplied: signedBy = "a chain ending at a root you supplied (\(safe(report.anchorCertificate?.label ?? "?"))), not Apple"
                default: signedBy = "Apple (chain ends at \(anchor.displayName))"
                }
                rows.append(("signed by", signedBy))
            }
            if let c = a.container {
                var container = c.isBER ? "BER (indefinite lengths; Xcode writes receipts this way)" : "DER"
                if c.payloadIsReassembled { container += ", payload reassembled from \(c.payloadChunks.count) chunks" }
                rows.append(("container", container))
            }
            let unlisted = r.unlistedCount
            if unlisted > 0 { rows.append(("unlisted attributes", "\(unlisted) (Apple-private, kept as raw values)")) }
            let width = rows.map(\.0.count).max() ?? 0
            for (k, v) in rows { lines.append("  " + PlainText.padded(k, toLength: width + 2) + v) }
        } else {
            lines.append("  not a receipt")
        }
        // Counted, and the first ten kept: a list of every error was one more copy of the findings.
        var errorCount = 0
        var firstErrors: [Diagnostic] = []
        for d in a.allDiagnostics where d.severity == .error {
            errorCount += 1
            if firstErrors.count < 10 { firstErrors.append(d) }
        }
        if errorCount > 0 {
            lines.append("")
            lines.append("Errors (\(errorCount))")
            for d in firstErrors {
                lines.append("  \(d.code) at offset \(d.offset) (\(d.length) byte\(d.length == 1 ? "" : "s")): \(safe(d.message))")
            }
            if errorCount > 10 { lines.append("  \(style.unicode ? "…" : "...") and \(errorCount - 10) more (see `receipt-explorer dump`)") }
        }
        lines.append("")

        // Steps.
        lines.append("Validation")
        for step in a.validationSteps {
            let mark: String
            var line: String
            let title = StepText.title(step.id)
            switch step.status {
            case .passed:
                mark = style.unicode ? "✓" : "+"
                line = title
            case .failed(let why):
                mark = style.unicode ? "✗" : "x"
                line = "\(title): \(safe(words.reason(why)))"
            case .notChecked(let why):
                mark = style.unicode ? "–" : "-"
                line = "\(title): not checked — \(safe(words.reason(why)))"
            }
            lines.append("  \(mark) \(line)")
            if case .failed(let why) = step.status, let status = AppleVerifierStatus.forFailure(step: step.id.rawValue, reason: why.code.rawValue) {
                lines.append("      " + status.sentence(receipt: true))
            }
            for d in step.details { lines.append("      \(safe(d))") }
        }
        lines.append("")

        // Signer chain.
        if let report = a.signature, !report.certificates.isEmpty {
            let verified = !report.chain.isEmpty
            let chain = verified ? report.chain : report.certificates
            lines.append(verified ? "Signer chain (verified)" : "Certificates embedded in the receipt (no chain verified)")
            for (i, cert) in chain.enumerated() {
                var role = ""
                if verified {
                    role = chain.count == 1 ? "signer, trust anchor"
                        : (i == 0 ? "signer" : (i == chain.count - 1 ? "trust anchor" : "intermediate"))
                } else if cert == report.signer {
                    role = "signer"
                }
                var first = "  \(i)  \(role.isEmpty ? "" : role + ": ")\(safe(cert.subject))"
                if verified && i == chain.count - 1, let anchor = report.anchor {
                    first += " [\(anchor.displayName)\(anchor == .userSupplied ? "" : ", pinned")]"
                }
                lines.append(first)
                lines.append("     SHA-256 \(cert.sha256Fingerprint)")
                var facts = ["valid \(cert.validityText)", cert.signatureAlgorithm]
                if cert.hasReceiptSignerOID { facts.append("receipt signing \(CertificateInfo.receiptSignerOID)") }
                if cert.hasWWDRIntermediateOID { facts.append("WWDR intermediate \(CertificateInfo.wwdrIntermediateOID)") }
                if cert.isSelfSigned { facts.append("self-signed") }
                lines.append("     " + facts.joined(separator: ", "))
            }
            lines.append("")
        }

        // Subscriptions.
        if let r = a.receipt {
            let moment = ReceiptDate(a.options.moment)
            let active = r.activeSubscriptions(at: moment)
            let renewable = r.inApp.lazy.filter(\.isAutoRenewable)  // no copy of the purchases
            lines.append("Subscriptions active at \(moment.utcString): \(active.isEmpty ? "none" : String(active.count))")
            for p in active { lines.append("  " + purchaseLine(p, style)) }
            if active.isEmpty, !renewable.isEmpty {
                let latest = renewable.max { ($0.expiresDate?.epochMilliseconds ?? .min) < ($1.expiresDate?.epochMilliseconds ?? .min) }!
                lines.append("  \(renewable.count) auto-renewable purchase(s) in the receipt; the latest period:")
                lines.append("  " + purchaseLine(latest, style))
            }
            lines.append("")
        }

        // Verdict.
        let report = report ?? VerificationReport(receipt: a, kind: "receipt", label: "", note: "", words: words, withReceiptFacts: false)
        lines.append(VerificationText.verdictLine(report))
        for reason in report.verdict.reasons { lines.append("  \(style.unicode ? "•" : "*") \(safe(reason.message))") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func dateText(_ r: Receipt, _ type: Int) -> String {
        guard let f = r.field(type) else { return "(absent)" }
        switch f.value {
        case .date(let d):
            let written = d.text
            return d.utcOffsetMinutes == 0 ? d.utcString : "\(d.utcString) (written \(TerminalSafe.escape(written)))"
        case .absentDate: return "(empty)"
        default: return "(unreadable: \(TerminalSafe.escape(String(decoding: r.raw(f), as: UTF8.self))))"
        }
    }

    static func purchaseLine(_ p: InAppPurchase, _ style: Style) -> String {
        let product = p.productID.map(TerminalSafe.escape) ?? "(no product id)"
        let transaction = p.transactionID.map { "transaction \(TerminalSafe.escape($0))" } ?? "no transaction id"
        let from = p.purchaseDate?.utcString ?? "?"
        let to = p.expiresDate?.utcString ?? "?"
        var flags: [String] = []
        if p.isTrialPeriod == true { flags.append("trial") }
        if p.isInIntroOfferPeriod == true { flags.append("intro offer") }
        if p.cancellationDate != nil { flags.append("cancelled") }
        return "\(product), \(transaction): \(from) \(style.unicode ? "→" : "->") \(to)\(flags.isEmpty ? "" : " (" + flags.joined(separator: ", ") + ")")"
    }
}
