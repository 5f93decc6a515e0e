import ASN1Lenient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit
import X509Trust
import DocumentCore

// The verification report of a PKCS#7 receipt: ReceiptKit's steps and verdict with StepText's
// words, the bytes each step is about (input offsets) and the certificates it judged.

extension VerificationReport {
    /// - Parameters:
    ///   - kind: the document's kind ("receipt", "xcode-testing-receipt", "signed-data", …).
    ///   - withReceiptFacts: also sum up the purchases (active subscriptions, latest expiries), which
    ///     the JSON reports carry; the explorer, which shows its own purchase table, leaves them out
    ///     (O(purchases) at open).
    public init(receipt a: ReceiptAnalysis, kind: String, label: String, note: String, words: StepText = .plain,
                withReceiptFacts: Bool = true) {
        let embedded = Self.embeddedCertificates(a)
        let creation = a.receipt?.creationDate?.date
        var steps: [VerificationStep] = []
        for step in a.validationSteps {
            var s = VerificationStep(id: step.id.rawValue, subject: Self.subject(step.id, a, embedded: embedded),
                                     title: StepText.title(step.id), status: .init(step.status),
                                     reasonCode: step.status.reason?.code, reason: words.reason(step.status),
                                     message: words.summary(step.status), details: step.details)
            s.ranges = Self.ranges(step.id, a, embedded: embedded)
            s.mapAppleStatus()
            switch step.id {
            case .chain, .time:
                s.certificates = Self.chainCertificates(a, embedded: embedded)
                if step.id == .time { s.judgedAt = creation ?? a.options.moment }
            case .receiptSigner:
                s.certificates = a.signature?.signer.map { [Self.certificate($0, role: "signer", embedded: embedded)] } ?? []
            case .expiration:
                s.judgedAt = a.options.moment
            default: break
            }
            steps.append(s)
        }
        let verdict = a.verdict
        var subject = VerificationSubject(kind: kind, label: label, note: note)
        subject.environment = a.receipt?.environment
        self.init(
            subject: subject,
            steps: steps,
            certificates: Self.chainCertificates(a, embedded: embedded),
            dates: VerificationDates(signed: creation, now: a.options.now, at: a.options.moment),
            findings: a.allDiagnostics.map(VerificationFinding.init),
            nested: [],
            verdict: VerificationVerdict(
                valid: verdict.isValid, outcome: verdict.outcome.code, summary: words.summary(verdict),
                reasons: verdict.reasons.map { .init(code: $0.code, step: $0.step?.rawValue, message: words.reason($0)) }))
        if withReceiptFacts { receipt = a.receipt.map { VerificationReceiptFacts($0, at: a.options.moment) } }
    }

    /// The report of a document opened as a receipt (nil when it was not read as one).
    public init?(receiptOf document: Document, words: StepText = .plain) {
        guard let a = document.receipt else { return nil }
        self.init(receipt: a, kind: document.kind.id, label: document.kind.summary, note: document.note, words: words)
    }

    /// The certificates of the SignedData: (node, info) in file order.
    static func embeddedCertificates(_ a: ReceiptAnalysis) -> [(node: Int, info: CertificateInfo)] {
        guard let c = a.container else { return [] }
        return c.certificates.compactMap { node in
            guard node < a.tree.count else { return nil }
            return DecodedCertificatePool.shared.info(der: Array(a.tree.bytes[a.tree.nodes[node].byteRange])).map { (node, $0) }
        }
    }

    /// The verified path (signer first), or the embedded certificates when no path verified.
    static func chainCertificates(_ a: ReceiptAnalysis, embedded: [(node: Int, info: CertificateInfo)]) -> [VerificationCertificate] {
        guard let report = a.signature else { return embedded.map { certificate($0.info, role: "embedded", embedded: embedded) } }
        let verified = !report.chain.isEmpty
        let chain = verified ? report.chain : report.certificates
        return chain.enumerated().map { i, cert in
            var role = "embedded"
            if verified {
                role = chain.count == 1 ? "trust anchor" : (i == 0 ? "signer" : (i == chain.count - 1 ? "trust anchor" : "intermediate"))
            } else if cert == report.signer {
                role = "signer"
            }
            var out = certificate(cert, role: role, embedded: embedded)
            if verified && i == chain.count - 1 { out.anchor = report.anchor?.displayName }
            return out
        }
    }

    static func certificate(_ c: CertificateInfo, role: String, embedded: [(node: Int, info: CertificateInfo)]) -> VerificationCertificate {
        var markers: [String] = []
        if c.hasReceiptSignerOID { markers.append(CertificateInfo.receiptSignerOID) }
        if c.hasWWDRIntermediateOID { markers.append(CertificateInfo.wwdrIntermediateOID) }
        return VerificationCertificate(role: role, index: embedded.firstIndex { $0.info.sha256Fingerprint == c.sha256Fingerprint },
                                       subject: c.subject, issuer: c.issuer, sha256: c.sha256Fingerprint,
                                       notBefore: c.notBefore, notAfter: c.notAfter, markers: markers,
                                       selfSigned: c.isSelfSigned, anchor: nil)
    }

    /// What a receipt step judges: the chain, the signer certificate, or the SignedData and its receipt.
    static func subject(_ id: StepID, _ a: ReceiptAnalysis, embedded: [(node: Int, info: CertificateInfo)]) -> VerificationStepSubject {
        switch id {
        case .chain, .time: return VerificationStepSubject(.chain, envelope: .pkcs7)
        case .receiptSigner:
            let signer = a.signature?.signer?.sha256Fingerprint
            return VerificationStepSubject(.certificate, envelope: .pkcs7,
                                           index: signer.flatMap { sha in embedded.firstIndex { $0.info.sha256Fingerprint == sha } })
        default: return VerificationStepSubject(.signedData, envelope: .pkcs7)
        }
    }

    /// The input bytes a receipt step is about.
    static func ranges(_ id: StepID, _ a: ReceiptAnalysis, embedded: [(node: Int, info: CertificateInfo)]) -> [VerificationRange] {
        let tree = a.tree
        let container = a.container
        func attribute(_ type: Int) -> [VerificationRange] {
            guard let f = a.receipt?.field(type) else { return [] }
            return [VerificationRange(what: "attribute \(type) value", a.fileRange(f.valueRange))]
        }
        switch id {
        case .contents:
            guard let chunks = container?.payloadChunks else { return [] }
            return chunks.enumerated().map { i, node in
                VerificationRange(what: chunks.count == 1 ? "receipt payload" : "receipt payload chunk \(i)", tree.nodes[node].contentRange)
            }
        case .signature:
            guard let info = container?.signerInfos.first else { return [] }
            let signature = tree.children(of: info).filter { tree.nodes[$0].isUniversal(4) }.last
            return [VerificationRange(what: "SignerInfo", tree.nodes[info].byteRange)]
                + (signature.map { [VerificationRange(what: "SignerInfo signature", tree.nodes[$0].contentRange)] } ?? [])
        case .chain, .time:
            return embedded.enumerated().map { i, c in VerificationRange(what: "certificate \(i)", tree.nodes[c.node].byteRange) }
        case .receiptSigner:
            guard let signer = a.signature?.signer,
                  let i = embedded.firstIndex(where: { $0.info.sha256Fingerprint == signer.sha256Fingerprint }) else { return [] }
            return [VerificationRange(what: "certificate \(i) (signer)", tree.nodes[embedded[i].node].byteRange)]
        case .deviceHash: return attribute(4) + attribute(2) + attribute(5)
        case .bundleID: return attribute(2)
        case .appVersion: return attribute(3)
        case .environment: return attribute(0)
        case .appAppleID: return attribute(1)
        case .expiration: return attribute(21)
        }
    }
}

extension VerificationStatus {
    init(_ status: StepStatus) {
        switch status {
        case .passed: self = .passed
        case .failed: self = .failed
        case .notChecked: self = .notChecked
        }
    }
}
