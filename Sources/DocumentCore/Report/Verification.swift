#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ASN1Lenient
import JWSKit
import ReceiptKit
import ReasonCodes

// One verification report for every kind of input `verify` reads: a PKCS#7 receipt (from a
// `ReceiptAnalysis`) or a StoreKit 2 token (from a `JWSVerificationReport`). The text and JSON
// outputs read this model; every word comes from the one wording layer, Report/Wording (StepText for
// receipt steps, TokenStepText for token steps).
// docs/verify-schema.json describes the JSON form; bump `schemaVersion` when it changes shape.

/// What was verified.
public struct VerificationSubject: Sendable, Equatable {
    /// Stable id: "receipt", "xcode-testing-receipt", "signed-data", "transaction", "renewal-info",
    /// "app-transaction", "notification", "unknown-token", "transaction-history", … (see the schema).
    public var kind: String
    /// "a PKCS#7 App Store receipt", "a StoreKit 2 transaction", … Terminal-safe as built (`DocumentKind.summary`,
    /// `StoreKitTokenKind.label`), so never escaped again.
    public var label: String
    /// How the input was read and what it is: "raw DER/BER, 7,686 bytes; a PKCS#7 App Store receipt".
    /// Terminal-safe as built (`Document.note`, or a token's escaped path and header summary).
    public var note: String
    /// Where a token was found: "data.signedTransactionInfo", "signedTransactions[1]"; nil for the input itself.
    public var path: String?
    /// Receipts: the environment the receipt type (attribute 0) names; nil when it names none (and for tokens,
    /// whose environment is a headline field).
    public var environment: ReceiptEnvironment?
    /// The token's characters in the input file (nil for a receipt: it is the whole file).
    public var range: VerificationRange?
    /// A token's headline fields (`StoreKitHeadline`): what was bought, when, for which app. Shown
    /// by the text report under the kind; empty for a receipt, whose report has its own block.
    public var headline: [StoreKitHeadlineField]

    public init(kind: String, label: String, note: String, path: String? = nil, range: VerificationRange? = nil,
                headline: [StoreKitHeadlineField] = []) {
        self.kind = kind
        self.label = label
        self.note = note
        self.path = path
        self.range = range
        self.headline = headline
    }
}

/// Bytes a step is about, in the input file's offsets (for a nested token: the parent's characters
/// that encode them). `tokenOffset` is the same range in the token's own text, for JWS.
public struct VerificationRange: Sendable, Equatable {
    /// "signature segment", "x5c[0]", "attribute 2 value", …
    public var what: String
    public var offset: Int
    public var length: Int
    public var tokenOffset: Int?
    public var tokenLength: Int?

    public init(what: String, _ range: Range<Int>, inToken: Range<Int>? = nil) {
        self.what = what
        offset = range.lowerBound
        length = range.count
        tokenOffset = inToken?.lowerBound
        tokenLength = inToken?.count
    }
}

/// A certificate a step or the chain summary is about.
public struct VerificationCertificate: Sendable, Equatable {
    /// "leaf", "intermediate", "root", "signer", "trust anchor", "embedded", "self-signed".
    public var role: String
    /// Position in the token's x5c or the receipt's certificate set; nil for a root the user supplied.
    public var index: Int?
    public var subject: String
    public var issuer: String
    /// SHA-256 of the DER, uppercase hex.
    public var sha256: String
    public var notBefore: Date?
    public var notAfter: Date?
    /// Apple marker extensions it carries (1.2.840.113635.100.6.11.1, 1.2.840.113635.100.6.2.1).
    public var markers: [String]
    public var selfSigned: Bool
    /// "Apple Root CA - G3", "user-supplied root", … when it is the anchor the chain ended at.
    public var anchor: String?
    package init(role: String, index: Int? = nil, subject: String, issuer: String, sha256: String, notBefore: Date? = nil, notAfter: Date? = nil, markers: [String], selfSigned: Bool, anchor: String? = nil) {
        self.role = role
        self.index = index
        self.subject = subject
        self.issuer = issuer
        self.sha256 = sha256
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.markers = markers
        self.selfSigned = selfSigned
        self.anchor = anchor
    }
}

public enum VerificationStatus: String, Sendable, Equatable {
    case passed
    case failed
    case notChecked = "not-checked"
    /// Shown for information, not deciding the verdict (a token's validity today when it has a
    /// signedDate; revocation, never checked offline): never a failure (`settleVerdict`).
    case info
}

/// What one step judges: the PKCS#7 SignedData and its receipt, a token, an unsigned document's
/// fields, or one certificate or the chain of either. Each kind's format sets it; the outputs read it
/// (which of Apple's verifiers the text names, the JSON's `subject`), never the report's kind.
public struct VerificationStepSubject: Sendable, Equatable {
    public enum Part: String, Sendable, Equatable {
        /// A PKCS#7 SignedData and the receipt it carries.
        case signedData = "signed-data"
        /// A JWS token: its header, signature or payload claims.
        case token
        /// An unsigned document's fields (an external purchase token).
        case document
        /// One certificate (`index`) of the SignedData or the token.
        case certificate
        /// The certificate chain of the SignedData or the token.
        case chain
    }

    /// What signs the part: the PKCS#7 envelope (Apple's AppReceiptVerifier), a JWS (SignedDataVerifier), or nothing.
    public enum Envelope: String, Sendable, Equatable {
        case pkcs7
        case jws
        case none
    }

    public var part: Part
    public var envelope: Envelope
    /// Where the token the step is about (or whose certificates) sits in the input: "data.signedTransactionInfo",
    /// "signedTransactions[1]"; nil for the input itself.
    public var path: String?
    /// For `.certificate`: its position in the token's x5c or the SignedData's certificate set (nil: not embedded).
    public var index: Int?

    public init(_ part: Part, envelope: Envelope, path: String? = nil, index: Int? = nil) {
        self.part = part
        self.envelope = envelope
        self.path = path
        self.index = index
    }
}

public struct VerificationStep: Sendable, Equatable {
    /// The step's stable id ("signature", "time-signed-date", …).
    public var id: String
    /// Which document, token or certificate the step judges.
    public var subject: VerificationStepSubject
    public var title: String
    public var status: VerificationStatus
    /// Why a failed or unchecked step is so, in the one vocabulary of every kind (nil when passed).
    public var reasonCode: ReasonCode?
    /// The reason in words (nil when passed).
    public var reason: String?
    /// "passed", "failed — <reason>", "not checked — <reason>", "for information — <reason>".
    public var message: String
    /// Supporting facts in display order (receipt steps' detail lines).
    public var details: [String] = []
    public var ranges: [VerificationRange] = []
    public var certificates: [VerificationCertificate] = []
    /// The moment the step judged certificates or dates at.
    public var judgedAt: Date?
    /// False for steps shown for information that do not decide the verdict (JWS "today" when
    /// there is a signedDate; revocation, never checked offline): their status is `.info` unless passed.
    public var decides: Bool = true
    /// For a failed step: the status Apple's verifier would return for it (`AppleVerifierStatus`),
    /// nil when Apple's verifiers do not check this.
    public var appleStatus: AppleVerifierStatus?

    /// Sets `appleStatus` from the table when the step failed.
    package mutating func mapAppleStatus() {
        appleStatus = status == .failed ? AppleVerifierStatus.forFailure(step: id, reason: reasonCode?.rawValue) : nil
    }
    package init(id: String, subject: VerificationStepSubject, title: String, status: VerificationStatus, reasonCode: ReasonCode? = nil, reason: String? = nil, message: String, details: [String] = [], ranges: [VerificationRange] = [], certificates: [VerificationCertificate] = [], judgedAt: Date? = nil, decides: Bool = true, appleStatus: AppleVerifierStatus? = nil) {
        self.id = id
        self.subject = subject
        self.title = title
        self.status = status
        self.reasonCode = reasonCode
        self.reason = reason
        self.message = message
        self.details = details
        self.ranges = ranges
        self.certificates = certificates
        self.judgedAt = judgedAt
        self.decides = decides
        self.appleStatus = appleStatus
    }
}

public struct VerificationVerdict: Sendable, Equatable {
    public struct Reason: Sendable, Equatable {
        /// A step's reason code, or a verdict-level one (`.xcodeTestingNotSupplied`, …).
        public var code: ReasonCode
        /// The step it is about, when there is one.
        public var step: String?
        public var message: String
        package init(code: ReasonCode, step: String? = nil, message: String) {
            self.code = code
            self.step = step
            self.message = message
        }
    }

    public var valid: Bool
    /// False when validation was not requested (`--no-validate`): "NOT VALIDATED", not "INVALID".
    public var validated: Bool { outcome != "not-validated" }
    /// "app-store", "apple-signed", "local-testing", "user-root", "invalid", "not-validated".
    public var outcome: String
    /// "valid App Store receipt", "signed by Apple", "INVALID", …
    public var summary: String
    public var reasons: [Reason]
    package init(valid: Bool, outcome: String, summary: String, reasons: [Reason]) {
        self.valid = valid
        self.outcome = outcome
        self.summary = summary
        self.reasons = reasons
    }
}

/// The dates a report used.
public struct VerificationDates: Sendable, Equatable {
    /// The token's signedDate or the receipt's creation date (attribute 12): what the chain is judged at.
    public var signed: Date?
    /// "Today", for the second validity line.
    public var now: Date
    /// The receipt's `--at` moment (expiration, active subscriptions); nil for tokens.
    public var at: Date?
    package init(signed: Date? = nil, now: Date, at: Date? = nil) {
        self.signed = signed
        self.now = now
        self.at = at
    }
}

/// A finding of the input (parser, receipt, JSON or JWS diagnostic) in input offsets.
public struct VerificationFinding: Sendable, Equatable {
    public var severity: String
    public var code: String
    public var message: String
    public var offset: Int
    public var length: Int
}

public struct VerificationReport: Sendable, Equatable {
    /// The version of docs/verify-schema.json this report's JSON follows.
    public static let schemaVersion = 4

    public var subject: VerificationSubject
    public var steps: [VerificationStep]
    /// The certificates in brief: a receipt's signer chain (or embedded certificates), a token's x5c.
    public var certificates: [VerificationCertificate]
    public var dates: VerificationDates
    public var findings: [VerificationFinding]
    /// A notification's nested tokens, a history's transactions: each verified on its own.
    public var nested: NestedReports
    public var verdict: VerificationVerdict
    /// A receipt's fields, purchases and subscriptions (nil for tokens: their headline is in `subject`).
    public var receipt: VerificationReceiptFacts? = nil

    public func step(_ id: String) -> VerificationStep? { steps.first { $0.id == id } }
    /// The first failed step that decides the verdict, in report order.
    public var firstFailure: VerificationStep? { steps.first { $0.status == .failed && $0.decides } }
    package init(subject: VerificationSubject, steps: [VerificationStep], certificates: [VerificationCertificate], dates: VerificationDates, findings: [VerificationFinding], nested: [VerificationReport], verdict: VerificationVerdict, receipt: VerificationReceiptFacts? = nil) {
        self.init(subject: subject, steps: steps, certificates: certificates, dates: dates, findings: findings,
                  nestedReports: NestedReports(nested), verdict: verdict, receipt: receipt)
    }

    package init(subject: VerificationSubject, steps: [VerificationStep], certificates: [VerificationCertificate], dates: VerificationDates, findings: [VerificationFinding], nestedReports nested: NestedReports, verdict: VerificationVerdict, receipt: VerificationReceiptFacts? = nil) {
        self.subject = subject
        self.steps = steps
        self.certificates = certificates
        self.dates = dates
        self.findings = findings
        self.nested = nested
        self.verdict = verdict
        self.receipt = receipt
    }
}

/// How much of a report its reader uses. Every step is checked either way; `.verdict` leaves out
/// what only the full report shows (a token's steps in words with the bytes and certificates each
/// is about, the notes, a token's headline), for outputs that print the verdict alone (`verify
/// --lines`, text and `--quiet`). The verdict, subjects, findings and nested reports are the same.
public enum VerificationDetail: Sendable, Equatable {
    case full
    case verdict
}

extension VerificationReport {
    /// The report `verify` prints for any opened document: its format's verification, with the
    /// expectations its format compares beyond that (an external purchase token's fields against
    /// `bundleID` and `jws`'s expectations). An option the kind cannot use is refused before this
    /// (`OptionTable`), so every option given here is applied.
    public init(verifying document: Document, now: Date, words: StepText = .plain, jws: JWSOptions, bundleID: String? = nil,
                detail: VerificationDetail = .full) {
        let format = document.format  // looked up in the registry: once
        self = format.verification(document, now: now, words: words, detail: detail)
        format.checkExpectations(&self, of: document, bundleID: bundleID, jws: jws)
        settleVerdict(words: words)
    }

    public init(verifying document: Document, now: Date, words: StepText = .plain) {
        self = document.format.verification(document, now: now, words: words)
        settleVerdict(words: words)
    }
}

extension Document {
    /// The report every view of this document shows (the explorer's summary and status bar, the
    /// tour, the lab): verified as `verify` would with the options the document was opened with.
    public func verificationReport(words: StepText = .plain) -> VerificationReport {
        VerificationReport(verifying: self, now: openedWith.analysis.now, words: words, jws: openedWith.jws,
                           bundleID: openedWith.analysis.bundleID)
    }
}

extension VerificationFinding {
    /// A diagnostic as the report lists it (every kind's findings, and the report of what cannot be verified).
    package init(_ d: Diagnostic) {
        self.init(severity: d.severity.description, code: d.code.rawValue, message: d.message, offset: d.offset, length: d.length)
    }
}
