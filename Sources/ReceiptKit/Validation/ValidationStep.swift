/// One line of a validation report: what was checked, how it came out, and why.
public enum StepStatus: Sendable, Equatable {
    case passed
    /// The check ran and the receipt did not meet it; the string says why, in words.
    case failed(String)
    /// The check could not run (missing input, an earlier step failed, not applicable); the string says why.
    case notChecked(String)

    public var isPassed: Bool { self == .passed }
    public var isFailed: Bool { if case .failed = self { return true } else { return false } }

    /// The reason carried by `.failed` or `.notChecked`; `nil` for `.passed`.
    public var reason: String? {
        switch self {
        case .passed: return nil
        case .failed(let r), .notChecked(let r): return r
        }
    }

    /// "passed", "failed — <reason>", "not checked — <reason>".
    public var summary: String {
        switch self {
        case .passed: return "passed"
        case .failed(let r): return "failed — \(r)"
        case .notChecked(let r): return "not checked — \(r)"
        }
    }
}

/// A validation step, identified by a stable `id` (see `StepID`) that commands, JSON output and the
/// UI can key on; `title` is for people; `details` are supporting lines in display order.
public struct ValidationStep: Sendable, Equatable {
    public var id: String
    public var title: String
    public var status: StepStatus
    public var details: [String]

    public init(id: String, title: String, status: StepStatus, details: [String] = []) {
        self.id = id
        self.title = title
        self.status = status
        self.details = details
    }
}

/// The stable step identifiers. Signature, chain, time and receipt-signer come from
/// `SignatureValidation`; device-hash from `DeviceHash`; the others belong to the receipt checks.
public enum StepID {
    public static let signature = "signature"
    public static let chain = "chain"
    public static let time = "time"
    public static let receiptSigner = "receipt-signer"
    public static let deviceHash = "device-hash"
    public static let bundleID = "bundle-id"
    public static let appVersion = "app-version"
    public static let expiration = "expiration"

    /// Display titles for the identifiers above.
    public static func title(for id: String) -> String {
        switch id {
        case signature: return "PKCS#7 signature"
        case chain: return "Certificate chain"
        case time: return "Validity at creation date"
        case receiptSigner: return "Receipt signing certificate"
        case deviceHash: return "Device hash"
        case bundleID: return "Bundle identifier"
        case appVersion: return "App version"
        case expiration: return "Expiration"
        default: return id
        }
    }
}
