/// What a JWS payload is, decided from its fields.
public enum StoreKitPayloadKind: String, Sendable, CaseIterable {
    case transaction = "JWSTransactionDecodedPayload"
    case renewalInfo = "JWSRenewalInfoDecodedPayload"
    case appTransaction = "AppTransaction"
    case notification = "ResponseBodyV2DecodedPayload"
    // Signed by the developer's In-App Purchase key, not by Apple (`DeveloperTokenKind`).
    case promotionalOffer = "PromotionalOfferV2"
    case introductoryOfferEligibility = "IntroductoryOfferEligibility"
    case advancedCommerceRequest = "AdvancedCommerceInAppRequest"
    case serverAPIToken = "AppStoreServerAPIToken"
    case unknown

    /// The developer-signed kind, nil for Apple's own payloads.
    public var developerKind: DeveloperTokenKind? { DeveloperTokenKind.allCases.first { $0.payloadKind == self } }

    /// "transaction", "renewal info", … (one-line descriptions).
    public var label: String {
        switch self {
        case .transaction: "transaction"
        case .renewalInfo: "renewal info"
        case .appTransaction: "app transaction"
        case .notification: "App Store Server Notification V2"
        case .promotionalOffer, .introductoryOfferEligibility, .advancedCommerceRequest, .serverAPIToken:
            developerKind?.label ?? rawValue
        case .unknown: "unrecognised payload"
        }
    }
}

/// A field's decoded value.
public enum StoreKitValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case number(Double)
    /// Milliseconds since 1970 as written, and the same instant in ISO 8601 UTC.
    case date(milliseconds: Double, iso: String)
    /// Seconds since 1970 as written (a JWT's `iat`, `exp`), and the same instant in ISO 8601 UTC.
    case seconds(Int64, iso: String)
    /// An enumeration's raw value (as text) and its meaning, nil when the value is not known.
    case enumerated(raw: String, meaning: String?)
    /// Milliunits of `currency` (1990 AUD = 1.99 AUD).
    case price(milliunits: Int64, currency: String?)
    case bool(Bool)
    /// A JWS in a string, decoded into `JWSDocument.nested[index]`.
    case nestedToken(index: Int)
    /// An object whose fields follow as their own entries (path prefix).
    case object
    case array(count: Int)
    case null
    /// The JSON value does not have the type the schema expects (a diagnostic says why).
    case invalid(String)

    /// Text for displays: `2023-03-27T06:47:22.000Z (1679899642000)`, `1 (introductory offer)`.
    public var display: String {
        switch self {
        case .string(let s): s
        case .integer(let i): String(i)
        case .number(let d): String(d)
        case .date(let ms, let iso): "\(iso) (\(StoreKitValue.trimmed(ms)))"
        case .seconds(let s, let iso): "\(iso) (\(s) s)"
        case .enumerated(let raw, let meaning): meaning.map { "\(raw) (\($0))" } ?? raw
        case .price(let milliunits, let currency): Self.priceText(milliunits, currency)
        case .bool(let b): b ? "true" : "false"
        case .nestedToken(let index): "nested token #\(index)"
        case .object: "object"
        case .array(let count): "\(count) element\(count == 1 ? "" : "s")"
        case .null: "null"
        case .invalid(let text): text
        }
    }

    static func trimmed(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e18 ? String(Int64(d)) : String(d)
    }

    static func priceText(_ milliunits: Int64, _ currency: String?) -> String {
        let sign = milliunits < 0 ? "-" : ""
        let magnitude = milliunits.magnitude
        let fraction = String(magnitude % 1000)
        let padded = String(repeating: "0", count: 3 - fraction.count) + fraction
        return "\(milliunits) milliunits = \(sign)\(magnitude / 1000).\(padded)\(currency.map { " " + $0 } ?? "")"
    }
}

/// One field of a payload, tied to its JSON nodes.
public struct StoreKitField: Sendable, Equatable {
    /// Dotted path from the payload root: "data.bundleId", "summary.storefrontCountryCodes".
    public var path: String
    /// The member node in the payload layer (key range + whole member).
    public var member: JSONNodeIndex
    /// Its value node (nil when the value could not be read).
    public var valueNode: JSONNodeIndex?
    /// Nil for a field the schema does not know (kept and listed, never dropped).
    public var spec: StoreKitFieldSpec?
    public var value: StoreKitValue

    public var name: String { String(path.split(separator: ".").last ?? "") }
}

/// A payload decoded by its schema.
public struct StoreKitPayload: Sendable, Equatable {
    public var kind: StoreKitPayloadKind
    /// Every member, in pre-order, known or not.
    public var fields: [StoreKitField]

    public init(kind: StoreKitPayloadKind = .unknown, fields: [StoreKitField] = []) {
        self.kind = kind
        self.fields = fields
    }

    /// Lengths first (constant time for a native string): a full comparison of every field's path
    /// was a tenth of a notification's report.
    public func field(_ path: String) -> StoreKitField? {
        let length = path.utf8.count
        return fields.first { $0.path.utf8.count == length && $0.path == path }
    }
    public func value(_ path: String) -> StoreKitValue? { field(path)?.value }

    /// Paths of the fields the schema does not know.
    public var unknownFields: [String] { fields.filter { $0.spec == nil }.map(\.path) }

    /// The payload's `signedDate` in milliseconds (what certificate validity is judged at).
    public var signedDate: Double? {
        if case .date(let ms, _)? = value("signedDate") { return ms }
        return nil
    }

    /// The date certificates are judged at: `signedDate`, or an AppTransaction's
    /// `receiptCreationDate` when it has no `signedDate` (Xcode app transactions).
    public var validityDate: Double? {
        if let signedDate { return signedDate }
        if case .date(let ms, _)? = value("receiptCreationDate") { return ms }
        return nil
    }

    public var bundleId: String? { string("bundleId") ?? string("data.bundleId") ?? string("summary.bundleId") }
    /// `environment`, AppTransaction's `receiptType`, or a notification's `data.environment`.
    public var environment: String? { string("environment") ?? string("receiptType") ?? string("data.environment")
        ?? string("summary.environment") }
    public var appAppleId: Int64? {
        for path in ["appAppleId", "data.appAppleId", "summary.appAppleId"] {
            if case .integer(let id)? = value(path) { return id }
        }
        return nil
    }
    public var notificationType: String? { string("notificationType") }
    public var subtype: String? { string("subtype") }

    /// The text of a string or enumerated field.
    public func string(_ path: String) -> String? {
        switch value(path) {
        case .string(let s)?: s
        case .enumerated(let raw, _)?: raw
        default: nil
        }
    }
}
