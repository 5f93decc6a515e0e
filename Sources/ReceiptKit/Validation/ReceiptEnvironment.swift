import ASN1Lenient
import ByteText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The environment a receipt's type (attribute 0) names, in the words of Apple's `Environment`
/// (what `--environment` takes for receipts and StoreKit 2 tokens alike). Apple's server library
/// reads the same table: Production and ProductionVPP are Production; ProductionSandbox and
/// ProductionVPPSandbox are Sandbox; Xcode; LocalTesting. Any other type names no environment.
public enum ReceiptEnvironment: String, Sendable, Equatable, CaseIterable {
    case production = "Production"
    case sandbox = "Sandbox"
    case xcode = "Xcode"
    case localTesting = "LocalTesting"

    public init?(receiptType: String) {
        switch receiptType {
        case "Production", "ProductionVPP": self = .production
        case "ProductionSandbox", "ProductionVPPSandbox": self = .sandbox
        case "Xcode": self = .xcode
        case "LocalTesting": self = .localTesting
        default: return nil
        }
    }

    /// The environment a user named, in any case ("sandbox"); nil for anything else.
    public init?(userText: String) {
        guard let match = Self.allCases.first(where: { PlainText.equalsIgnoringCase($0.rawValue, userText) }) else { return nil }
        self = match
    }

    /// What the verdict calls a receipt of this environment ("sandbox receipt"); nil for production,
    /// the receipts the verdict describes without a qualifier.
    public var receiptLabel: String? {
        switch self {
        case .production: nil
        case .sandbox: "sandbox receipt"
        case .xcode: "Xcode receipt"
        case .localTesting: "local testing receipt"
        }
    }

    /// Whether the receipt's attribute 1 (app item id) is 0 by design: only production receipts
    /// carry the app's Apple ID.
    public var appItemIDIsZero: Bool { self != .production }
}
