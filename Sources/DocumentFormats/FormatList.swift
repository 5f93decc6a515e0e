import DocumentCore

/// The registry's list (`FormatRegistry.formats`, read once): every kind's format, in recognition order.
extension FormatRegistry: FormatListing {
    /// Order matters where two formats could claim the same bytes: the StoreKit readers look only at
    /// text the loader marked as StoreKit, text is never read as ASN.1, and generic ASN.1 takes the rest.
    package static var formatsInOrder: [any DocumentFormat] { [
        // Before StoreKitTokenFormat, which reads any compact JWS: these are signed by the developer, not Apple.
        DeveloperTokenFormat(),
        // Before the StoreKit formats, which read its payload as an unrecognised token.
        RetentionRequestFormat(),
        StoreKitTokenFormat(),
        // Before StoreKitJSONFormat, which reads any JSON body of tokens: these are named by their shape.
        ServerAPIResponseFormat(),
        // JSON without token keys, named by its members (StoreKitJSONFormat would claim their signed keys).
        RetentionReplyFormat(),
        OfferSignatureV1Format(),
        StoreKitJSONFormat(),
        LegacyTransactionReceiptFormat(),
        ExternalPurchaseTokenFormat(),
        TextFormat(),
        AppReceiptFormat(),
        CertificateFormat(),
        ASN1Format(),
    ] }
}
