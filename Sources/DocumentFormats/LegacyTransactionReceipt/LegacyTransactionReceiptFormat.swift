import ASN1Lenient
import JWSKit
import DocumentCore

/// An iOS 6 style transaction receipt (SKPaymentTransaction.transactionReceipt, an old-style plist
/// with "signature" and "purchase-info"): recognised so that it gets a sentence, not read.
public struct LegacyTransactionReceiptFormat: DocumentFormat {
    public static let id = FormatID(rawValue: "legacy-transaction-receipt")
    public var id: FormatID { Self.id }

    public func recognize(_ probe: FormatProbe) -> Recognition? {
        guard probe.mayBeStoreKit, case .legacyTransactionReceipt = probe.storeKit.kind else { return nil }
        return Recognition(.certain, "an old-style property list with \"signature\" and \"purchase-info\"")
    }

    public func open(_ probe: FormatProbe) -> Document {
        let finding = JWSCode.legacyTransactionReceipt.diagnostic(DocumentKind.legacyTransactionReceipt.summary, 0..<probe.input.bytes.count)
        let layer = ByteLayer(id: .file, role: .file, name: "file", bytes: probe.input.bytes,
                              content: .raw(diagnostics: [finding] + probe.input.diagnostics))
        return Document(source: probe.source, kind: .legacyTransactionReceipt, layers: [layer])
    }

    public func describe(_ kind: DocumentKind) -> KindDescription? {
        guard kind == .legacyTransactionReceipt else { return nil }
        return KindDescription(
            summary: "an iOS 6 style transaction receipt (SKPaymentTransaction.transactionReceipt, deprecated since iOS 7): "
                + "not readable here; use the app receipt, or StoreKit 2's Transaction.jwsRepresentation / the App Store Server API",
            title: "Transaction receipt")
    }
}
