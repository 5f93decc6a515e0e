import Foundation

/// The outputs of a StoreKit document (a token, a JSON body of tokens) and of the kinds that are
/// only named (an iOS 6 transaction receipt, text): `JWSJSON` and the per-token verification.
enum StoreKitOutputs {
    static func json(_ document: Document) -> JSONReading {
        JSONReading(object: JWSJSON.object(document),
                    firstError: document.diagnostics.first { $0.diagnostic.severity == .error }?.diagnostic.code.rawValue)
    }

    static func verification(_ document: Document, now: Date, words: StepText) -> VerificationReport {
        VerificationReport(storeKitOf: document, now: now, words: words) ?? VerificationReport(unverifiable: document)
    }
}

extension StoreKitTokenFormat {
    public var layout: DocumentLayout { .layers }
    public func json(_ document: Document, words: StepText) -> JSONReading? { StoreKitOutputs.json(document) }
    public func verification(_ document: Document, now: Date, words: StepText) -> VerificationReport {
        StoreKitOutputs.verification(document, now: now, words: words)
    }
}

extension StoreKitJSONFormat {
    public var layout: DocumentLayout { .layers }
    public func json(_ document: Document, words: StepText) -> JSONReading? { StoreKitOutputs.json(document) }
    public func verification(_ document: Document, now: Date, words: StepText) -> VerificationReport {
        StoreKitOutputs.verification(document, now: now, words: words)
    }
}

extension LegacyTransactionReceiptFormat {
    public var layout: DocumentLayout { .layers }
    public func json(_ document: Document, words: StepText) -> JSONReading? { StoreKitOutputs.json(document) }
    public func verification(_ document: Document, now: Date, words: StepText) -> VerificationReport {
        VerificationReport(unverifiable: document)
    }
}

extension TextFormat {
    public var layout: DocumentLayout { .asn1File }
    /// The input, its kind and the loader's one finding: there is no receipt to describe.
    public func json(_ document: Document, words: StepText) -> JSONReading? { StoreKitOutputs.json(document) }
    public func verification(_ document: Document, now: Date, words: StepText) -> VerificationReport {
        VerificationReport(unverifiable: document)
    }
}
