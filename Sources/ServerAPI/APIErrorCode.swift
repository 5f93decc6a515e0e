/// Apple's error codes for the App Store Server API, with the names Apple's documentation gives them
/// (developer.apple.com/documentation/appstoreserverapi/<name>). Generated from the `APIError` enum
/// of app-store-server-library-python 3.1.2 (each case documents its code and page); the name is
/// the page's, checked against its address. The one table every message and the docs read.
public enum APIErrorCode {
    public static let names: [Int64: (name: String, meaning: String)] = [
        4000000: ("GeneralBadRequestError", "an invalid request"),
        4000002: ("InvalidAppIdentifierError", "an invalid app identifier"),
        4000005: ("InvalidRequestRevisionError", "an invalid request revision"),
        4000006: ("InvalidTransactionIdError", "an invalid transaction identifier"),
        4000008: ("InvalidOriginalTransactionIdError", "an invalid original transaction identifier"),
        4000009: ("InvalidExtendByDaysError", "an invalid extend-by-days value"),
        4000010: ("InvalidExtendReasonCodeError", "an invalid reason code"),
        4000011: ("InvalidRequestIdentifierError", "an invalid request identifier"),
        4000012: ("StartDateTooFarInPastError", "that the start date is earlier than the earliest allowed date"),
        4000013: ("StartDateAfterEndDateError", "that the end date precedes the start date, or the two dates are equal"),
        4000014: ("InvalidPaginationTokenError", "the pagination token is invalid"),
        4000015: ("InvalidStartDateError", "the start date is invalid"),
        4000016: ("InvalidEndDateError", "the end date is invalid"),
        4000017: ("PaginationTokenExpiredError", "the pagination token expired"),
        4000018: ("InvalidNotificationTypeError", "the notification type or subtype is invalid"),
        4000019: ("MultipleFiltersSuppliedError", "the request is invalid because it has too many constraints applied"),
        4000020: ("InvalidTestNotificationTokenError", "the test notification token is invalid"),
        4000021: ("InvalidSortError", "an invalid sort parameter"),
        4000022: ("InvalidProductTypeError", "an invalid product type parameter"),
        4000023: ("InvalidProductIdError", "the product ID parameter is invalid"),
        4000024: ("InvalidSubscriptionGroupIdentifierError", "an invalid subscription group identifier"),
        4000025: ("InvalidExcludeRevokedError", "the query parameter exclude-revoked is invalid"),
        4000026: ("InvalidInAppOwnershipTypeError", "an invalid in-app ownership type parameter"),
        4000027: ("InvalidEmptyStorefrontCountryCodeListError", "a required storefront country code is empty"),
        4000028: ("InvalidStorefrontCountryCodeError", "a storefront code is invalid"),
        4000030: ("InvalidRevokedError", "the revoked parameter contains an invalid value"),
        4000031: ("InvalidStatusError", "the status parameter is invalid"),
        4000032: ("InvalidAccountTenureError", "the value of the account tenure field is invalid"),
        4000033: ("InvalidAppAccountTokenError", "the value of the app account token field is invalid"),
        4000034: ("InvalidConsumptionStatusError", "the value of the consumption status field is invalid"),
        4000035: ("InvalidCustomerConsentedError", "the customer consented field is invalid or doesn't indicate that the customer consented"),
        4000036: ("InvalidDeliveryStatusError", "the value in the delivery status field is invalid"),
        4000037: ("InvalidLifetimeDollarsPurchasedError", "the value in the lifetime dollars purchased field is invalid"),
        4000038: ("InvalidLifetimeDollarsRefundedError", "the value in the lifetime dollars refunded field is invalid"),
        4000039: ("InvalidPlatformError", "the value in the platform field is invalid"),
        4000040: ("InvalidPlayTimeError", "the value in the playtime field is invalid"),
        4000041: ("InvalidSampleContentProvidedError", "the value in the sample content provided field is invalid"),
        4000042: ("InvalidUserStatusError", "the value in the user status field is invalid"),
        4000043: ("InvalidTransactionNotConsumableError", "the transaction identifier doesn't represent a consumable in-app purchase"),
        4000047: ("InvalidTransactionTypeNotSupportedError", "the transaction identifier represents an unsupported in-app purchase type"),
        4000048: ("AppTransactionIdNotSupportedError", "the endpoint doesn't support an app transaction ID"),
        4000183: ("InvalidAppAccountTokenUuidError", "the app account token value is not a valid UUID"),
        4000185: ("FamilyTransactionNotSupportedError", "the transaction is for a product the customer obtains through Family Sharing, which the endpoint doesn't support"),
        4000187: ("TransactionIdIsNotOriginalTransactionIdError", "the endpoint expects an original transaction identifier"),
        4030004: ("SubscriptionExtensionIneligibleError", "the subscription doesn't qualify for a renewal-date extension due to its subscription state"),
        4030005: ("SubscriptionMaxExtensionError", "the subscription doesn't qualify for a renewal-date extension because it has already received the maximum extensions"),
        4030007: ("FamilySharedSubscriptionExtensionIneligibleError", "a subscription isn't directly eligible for a renewal date extension because the user obtained it through Family Sharing"),
        4040001: ("AccountNotFoundError", "the App Store account wasn't found"),
        4040002: ("AccountNotFoundRetryableError", "the App Store account wasn't found, but you can try again"),
        4040003: ("AppNotFoundError", "the app wasn't found"),
        4040004: ("AppNotFoundRetryableError", "the app wasn't found, but you can try again"),
        4040005: ("OriginalTransactionIdNotFoundError", "an original transaction identifier wasn't found"),
        4040006: ("OriginalTransactionIdNotFoundRetryableError", "the original transaction identifier wasn't found, but you can try again"),
        4040007: ("ServerNotificationUrlNotFoundError", "that the App Store server couldn't find a notifications URL for your app in this environment"),
        4040008: ("TestNotificationNotFoundError", "that the test notification token is expired or the test notification status isn't available"),
        4040009: ("StatusRequestNotFoundError", "the server didn't find a subscription-renewal-date extension request for the request identifier and product identifier you provided"),
        4040010: ("TransactionIdNotFoundError", "a transaction identifier wasn't found"),
        4040019: ("AppTransactionDoesNotExistError", "an app transaction doesn't exist for the specified customer"),
        4290000: ("RateLimitExceededError", "that the request exceeded the rate limit"),
        5000000: ("GeneralInternalError", "a general internal error"),
        5000001: ("GeneralInternalRetryableError", "an unknown error occurred, but you can try again"),
    ]

    /// "4040010 TransactionIdNotFoundError (a transaction identifier wasn't found)"; an unknown
    /// code is said to be unknown rather than guessed at.
    public static func describe(_ code: Int64) -> String {
        guard let known = names[code] else { return "\(code) (a code this tool does not know)" }
        return "\(code) \(known.name) (\(known.meaning))"
    }
}
