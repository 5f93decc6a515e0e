import JWSKit
import ReceiptKit

/// Everything `Document.open` was told besides the input: the checks, trust roots and dates
/// (`AnalysisOptions`, which every kind's verification reads), how ASN.1 input is read as a
/// receipt, and the expectations only tokens have. Kept on the document, so that re-opening
/// edited bytes needs no kind's model to know how.
public struct OpenOptions: Sendable {
    public var analysis: AnalysisOptions
    public var reading: ReceiptReading
    public var jws: JWSOptions

    public init(analysis: AnalysisOptions = AnalysisOptions(), reading: ReceiptReading = .ifSignedData, jws: JWSOptions = JWSOptions()) {
        self.analysis = analysis
        self.reading = reading
        self.jws = jws
    }
}

/// The expectations and keys given for signed tokens (StoreKit 2, developer-signed, external
/// purchase tokens: the options table says which kind uses which), beside ReceiptKit's
/// `AnalysisOptions` (which carries `validate`, `roots`, `bundleID` and `now` for every kind).
public struct JWSOptions: Sendable, Equatable {
    /// "Production", "Sandbox", "Xcode" (compared case-insensitively); nil leaves the step unchecked.
    public var expectedEnvironment: String?
    /// The app's Apple ID; nil leaves the step unchecked.
    public var expectedAppAppleID: Int64?
    /// The developer's In-App Purchase key, for developer-signed tokens (`verify --key`); only its public half.
    public var developerKey: DeveloperKey?
    /// The `kid` a developer-signed token must carry (`--key-id`); else the key file's name gives it.
    public var keyID: String?

    public init(expectedEnvironment: String? = nil, expectedAppAppleID: Int64? = nil, developerKey: DeveloperKey? = nil,
                keyID: String? = nil) {
        self.expectedEnvironment = expectedEnvironment
        self.expectedAppAppleID = expectedAppAppleID
        self.developerKey = developerKey
        self.keyID = keyID
    }

    /// Reads the developer key file's bytes (overwritten with zeros; an error never quotes them).
    public mutating func loadDeveloperKey(_ bytes: inout [UInt8], fileName: String) throws {
        developerKey = try DeveloperKey.load(&bytes, fileName: fileName)
    }

    /// The key id a developer-signed token is held to.
    public var expectedKeyID: String? { keyID ?? developerKey?.keyIDFromName }
}
