import JWSKit

/// The values the API's filters take, spelled as Apple spells them and matched without case
/// (`--product-type auto_renewable` sends `AUTO_RENEWABLE`). Where the same values are also read in
/// signed data, the StoreKit schema's enumeration is the one list.
public struct APIValues: Sendable {
    public let option: String
    public let values: [String]

    /// Apple's spelling of `text`, or a complaint naming every value.
    public func match(_ text: String) -> Result<String, APIUsageError> {
        if let value = values.first(where: { $0.lowercased() == text.lowercased() }) { return .success(value) }
        return .failure(APIUsageError("\(option): '\(text)' is not one of \(values.joined(separator: ", "))"))
    }

    /// `productType` of Get Transaction History (not the `type` the transaction itself carries).
    public static let productType = APIValues(option: "--product-type", values: ["AUTO_RENEWABLE", "NON_RENEWABLE", "CONSUMABLE", "NON_CONSUMABLE"])
    public static let ownership = APIValues(option: "--ownership", values: StoreKitEnumeration.inAppOwnershipType.cases.map(\.raw))
    public static let sort = APIValues(option: "--sort", values: ["ASCENDING", "DESCENDING"])
    public static let notificationType = APIValues(option: "--type", values: StoreKitEnumeration.notificationType.cases.map(\.raw))
    public static let subtype = APIValues(option: "--subtype", values: StoreKitEnumeration.subtype.cases.map(\.raw))
    /// Subscription statuses by number: 1 active … 5 revoked.
    public static let status = APIValues(option: "--status", values: StoreKitEnumeration.status.cases.map(\.raw))
}

/// A value the user gave that the API cannot take: the command prints it and exits 2.
public struct APIUsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
