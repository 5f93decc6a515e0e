import ASN1Lenient
import ByteText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JWSKit
import ReceiptKit
import DocumentCore

// The verification report of StoreKit 2 input: each token's JWSVerifier steps with
// the Wording layer's words (TokenStepText), the bytes each step is about, the x5c certificates, and the
// nested tokens' reports. A JSON body of several tokens (a transaction history) is a report
// without steps of its own whose nested reports are the tokens.

extension VerificationReport {
    /// The report of a document opened from StoreKit input with validation; nil when it has no JWS model.
    /// - Parameter now: the "today" the document was verified at (`AnalysisOptions.now`).
    /// - Parameter detail: `.verdict` leaves out the steps (each token's verdict is read from its
    ///   JWS report, which every step still went into), the notes, the x5c list and the headline; the
    ///   subjects, findings, nested reports and verdicts are the full report's.
    public init?(storeKitOf document: Document, now: Date, words: StepText = .plain, detail: VerificationDetail = .full) {
        guard let model = document.jws else { return nil }
        let top = model.tokens.indices.filter { model.tokens[$0].parent == nil }
        var fileFindings: [VerificationFinding] = []
        if top.first.map({ model.tokens[$0].layers.token != .file }) ?? true {
            fileFindings = document.fileLayer.content.diagnostics.map(VerificationFinding.init)
        }
        // A body without tokens (no shape) has no token to report as the document either.
        if model.shape?.isCollection != true, top.count == 1 {
            self.init(token: top[0], of: document, now: now, words: words, note: detail == .full ? document.note : "", detail: detail)
            findings = fileFindings + findings
            return
        }
        // The verdict reads each token's verdict-only report; the full ones are made as a writer
        // reads them, one at a time (`NestedReports`).
        let nested = top.map { VerificationReport(token: $0, of: document, now: now, words: words, detail: .verdict) }
        var reasons = nested.filter { !$0.verdict.valid }.map { Self.nestedReason($0, words: words) }
        if nested.isEmpty {
            reasons.append(.init(code: .noTokens, step: nil, message: words.noTokensToVerify))
        }
        let valid = reasons.isEmpty
        // Opened with --no-validate: not validated, rather than invalid.
        let validated = nested.isEmpty || nested.contains { $0.verdict.validated }
        self.init(subject: VerificationSubject(kind: document.kind.id, label: document.kind.summary, note: detail == .full ? document.note : ""),
                  steps: [], certificates: [], dates: VerificationDates(signed: nil, now: now, at: document.openedWith.analysis.at),
                  findings: fileFindings,
                  nestedReports: detail == .verdict ? NestedReports(nested) : NestedReports(count: top.count) { i in
                      VerificationReport(token: top[i], of: document, now: now, words: words, detail: detail)
                  },
                  verdict: VerificationVerdict(valid: valid, outcome: valid ? Self.commonOutcome(nested) : validated ? "invalid" : "not-validated",
                                               summary: valid ? words.everyTokenVerified : words.summary(validated ? .invalid : .notValidated),
                                               reasons: validated ? reasons : [.init(code: .validationNotRequested, step: nil,
                                                                                      message: words.reason(StepReason.validationNotRequested))]))
    }

    /// The report of `document.jws.tokens[index]` and, recursively, its nested tokens.
    init(token index: Int, of document: Document, now: Date, words: StepText, note: String? = nil,
         detail: VerificationDetail = .full) {
        let model = document.jws!
        let token = model.tokens[index]
        let jws = token.document
        let report = token.report
        let full = detail == .full
        let certificates = full ? Self.x5c(token, report) : []
        let signed = jws.payload.validityDate.map { Date(timeIntervalSince1970: $0 / 1000) }
        let at = document.openedWith.analysis.at  // --at replaces today (JWSLayerBuilder.verify)
        var steps: [VerificationStep] = []
        // The verdict comes from the JWS report itself (`verdict` below): a failed deciding step is a
        // reason there, so the steps' words are built only for a reader that prints them.
        if let report, full {
            steps.reserveCapacity(report.steps.count)
            for result in report.steps {
                var s = VerificationStep(id: result.step.rawValue,
                                         subject: Self.subject(result.step, path: token.path, certificates: jws.header.certificates.count),
                                         title: words.title(result.step, at: at), status: .init(result.status),
                                         reasonCode: result.status.reasonCode, reason: result.status.reason,
                                         message: result.status.summary)
                s.decides = report.decides(result.step)
                s.mapAppleStatus()
                s.ranges = Self.ranges(result.step, token, model: model, index: index, in: document)
                s.certificates = Self.certificates(for: result.step, certificates)
                if result.step == .validityAtSignedDate { s.judgedAt = signed }
                if result.step == .validityToday { s.judgedAt = at ?? now }
                // A developer-signed token's iat and exp are judged at --at (or now).
                if result.step == .issuedAt || result.step == .expiry { s.judgedAt = at ?? now }
                steps.append(s)
            }
        }
        let nested = model.nestedIndices(of: index)
            .map { VerificationReport(token: $0, of: document, now: now, words: words, detail: detail) }
        let kind = Self.kindCode(token.kind)
        let label = words.tokenLabel(token.label, signedByXcode: report?.chainKind == .xcodeStoreKitTesting)
        let whole = 0..<jws.text.count
        let fileRange = document.fileRange(whole, in: token.layers.token)
        // The layers are read in place (`layer(_:)` copies one).
        let findings = Self.tokenLayers(token).flatMap { layer in
            document.layers[layer.index].content.diagnostics.map { d in
                var f = VerificationFinding(d)
                let r = document.fileRange(d.range, in: layer)
                f.offset = r.lowerBound
                f.length = r.count
                return f
            }
        }
        self.init(
            subject: VerificationSubject(kind: kind, label: label,
                                         note: !full ? "" : note ?? words.tokenNote(path: token.path, kindLabel: token.label, headerSummary: token.headerSummary),
                                         path: token.path, range: VerificationRange(what: "token", fileRange, inToken: whole),
                                         headline: full ? jws.payload.headline : []),
            steps: steps, certificates: certificates, dates: VerificationDates(signed: signed, now: now, at: at),
            findings: findings, nested: nested,
            verdict: Self.verdict(report, nested: nested, words: words))
    }

    static func verdict(_ report: JWSVerificationReport?, nested: [VerificationReport], words: StepText) -> VerificationVerdict {
        guard let report else {
            return VerificationVerdict(valid: false, outcome: "not-validated", summary: words.summary(.notValidated),
                                       reasons: [.init(code: .validationNotRequested, step: nil, message: words.reason(StepReason.validationNotRequested))])
        }
        var reasons: [VerificationVerdict.Reason] = report.steps.compactMap { result in
            guard case .failed(let f) = result.status, report.decides(result.step) else { return nil }
            return .init(code: f.code, step: result.step.rawValue, message: words.reason(result.step, f))
        }
        reasons += nested.filter { !$0.verdict.valid }.map { nestedReason($0, words: words) }
        if report.chainKind == .missing, report.status(.keyID) != nil {
            return developerVerdict(report, reasons: reasons, words: words)
        }
        let valid = reasons.isEmpty
        let xcode = report.chainKind == .xcodeStoreKitTesting
        if xcode && report.status(.root) == .failed(.xcodeTestingNotTrusted) {
            reasons.append(.init(code: .xcodeTestingNotSupplied, step: JWSStep.root.rawValue, message: words.reason(.xcodeTestingNotSupplied)))
        }
        var outcome = "invalid"
        var summary = words.summary(.invalid)
        if valid {
            switch report.anchor {
            case .appleRootCAG3?:
                outcome = report.isAppleSigned ? "apple-signed" : "user-root"
                summary = words.anchoredAtAppleRoot(appleSigned: report.isAppleSigned)
            case .userSupplied?, nil:
                outcome = xcode ? "local-testing" : "user-root"
                summary = words.summary(xcode ? .validForLocalTesting : .validAtUserRoot(anchor: ""))  // the summary names no anchor
                if xcode {
                    reasons.append(.init(code: .acceptedForLocalTesting, step: nil, message: words.reason(.acceptedForLocalTesting)))
                } else if let anchor = report.anchor {
                    reasons.append(.init(code: .anchoredAtUserRoot, step: nil, message: words.notSignedByApple(anchor: anchor)))
                }
            }
        }
        if case .notChecked(let skip)? = report.status(.revocation) {
            reasons.append(.init(code: skip.code, step: JWSStep.revocation.rawValue, message: words.reason(.revocation, skip)))
        }
        return VerificationVerdict(valid: valid, outcome: outcome, summary: summary, reasons: reasons)
    }

    /// A developer-signed token's verdict: valid under the key given, or what is needed (the key).
    static func developerVerdict(_ report: JWSVerificationReport, reasons: [VerificationVerdict.Reason],
                                 words: StepText) -> VerificationVerdict {
        var reasons = reasons
        if report.needsDeveloperKey {
            reasons.append(.init(code: JWSSkip.developerKeyNeeded.code, step: JWSStep.signature.rawValue,
                                 message: words.developerKeyNeeded))
        }
        guard reasons.isEmpty, let key = report.developerKey else {
            let needsKey = reasons.allSatisfy { $0.code == JWSSkip.developerKeyNeeded.code }
            return VerificationVerdict(valid: false, outcome: needsKey ? "key-needed" : "invalid",
                                       summary: needsKey ? words.developerKeyNeededSummary : words.summary(.invalid), reasons: reasons)
        }
        return VerificationVerdict(valid: true, outcome: "developer-key",
                                   summary: words.signedByDeveloperKey(key),
                                   reasons: [.init(code: .signedByDeveloperKey, step: nil,
                                                   message: words.signedByYourKey)])
    }

    static func nestedReason(_ r: VerificationReport, words: StepText) -> VerificationVerdict.Reason {
        .init(code: .nestedInvalid, step: nil, message: words.nestedInvalid(path: r.subject.path, firstReason: r.verdict.reasons.first?.message))
    }

    /// The nested tokens' shared outcome ("apple-signed" when every one is), else "user-root".
    static func commonOutcome(_ nested: [VerificationReport]) -> String {
        let outcomes = Set(nested.map(\.verdict.outcome))
        return outcomes.count == 1 ? outcomes.first! : "user-root"
    }

    static func kindCode(_ kind: StoreKitTokenKind) -> String {
        switch kind {
        case .transaction: "transaction"
        case .renewalInfo: "renewal-info"
        case .appTransaction: "app-transaction"
        case .notification: "notification"
        case .developer(let kind): kind.code
        case .unknown: "unknown-token"
        }
    }

    static func tokenLayers(_ token: JWSToken) -> [LayerID] {
        [token.layers.token] + [token.layers.header, token.layers.payload, token.layers.signature].compactMap { $0 }
            + token.layers.certificates
    }
}

extension Document {
    /// The settled report of token `index` of a StoreKit document (with its nested tokens), as
    /// every view words it: the explorer's summary and token rows read it.
    func tokenReport(_ index: Int, words: StepText = .plain) -> VerificationReport {
        var report = VerificationReport(token: index, of: self, now: openedWith.analysis.now, words: words)
        report.settleVerdict(words: words)
        return report
    }
}
