#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DocumentCore
import DocumentTour

/// What an external purchase token adds to the commands and the explorer: its layers (the
/// characters, the decoded JSON), `json` like a token's, a report that says there is nothing to
/// verify, its own tour route and the layer outline of its fields.
extension ExternalPurchaseTokenFormat: WritesTokenJSON, TourRoute {
    public func verification(_ document: Document, now: Date, words: StepText) -> VerificationReport {
        VerificationReport(unverifiable: document, why: "an external purchase token is unsigned base64url JSON; "
                               + "Apple checks it when you report the purchase with the External Purchase Server API", now: now)
    }
    /// The token is unsigned: `--bundle-id`, `--environment` and `--app-apple-id` are compared with its fields.
    public func checkExpectations(_ report: inout VerificationReport, of document: Document, bundleID: String?, jws: JWSOptions) {
        if let model = document.externalPurchase { report.checkExternalPurchase(model, bundleID: bundleID, jws: jws) }
    }
    public func tourSteps(_ document: Document) -> [TourStep]? {
        document.externalPurchase.map { ExternalPurchaseRoute(document: document, model: $0).steps() }
    }
}

/// The outline of an external purchase token: its decoded JSON (the base64url characters show no
/// row of their own), every field with its meaning.
struct ExternalPurchaseOutlineWording: OutlineWording {
    func heading(of layer: LayerID, in document: Document) -> LayerHeading? {
        document.externalPurchase?.jsonLayer == layer ? LayerHeading("external purchase token") : nil
    }

    func fields(of layer: LayerID, in document: Document) -> [Int: FieldWording] {
        guard let external = document.externalPurchase, external.jsonLayer == layer else { return [:] }
        return JWSOutlineWording.wording(external.token.payload.fields)
    }
}

extension ExternalPurchaseTokenFormat {
    public func outlineWording(of document: Document) -> any OutlineWording { ExternalPurchaseOutlineWording() }
}
