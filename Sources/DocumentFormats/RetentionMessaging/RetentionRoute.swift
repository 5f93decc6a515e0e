import ByteText
import DocumentCore
import DocumentTour

/// The tour of a Retention Messaging reply or a V1 offer signature without tokens: one stop on the
/// JSON, what it is and what in it is signed (a reply's tokens take the token route instead).
enum RetentionRoute {
    static func steps(_ document: Document) -> [TourStep]? {
        if document.jws?.tokens.isEmpty == false { return StoreKitOutputs.tourSteps(document) }
        let bytes = document.fileLayer.bytes.count
        let v1 = document.kind == .offerSignatureV1 || RetentionReplyFormat.signatureV1(document) != nil
        let check = v1
            ? SelfCheck("What else must you give `verify` to check this V1 signature, beside --key?",
                        right: ("--bundle-id", "the bundle id is the first signed part and nothing here carries it"),
                        wrong: [("--root", "a V1 signature is checked with your key, not a certificate chain"),
                                ("nothing", "without the bundle id the signed string cannot be rebuilt")], seed: bytes)
            : SelfCheck("Who signed this reply?",
                        right: ("nobody", "a message or switch-plan reply is plain JSON; Apple checks its messageIdentifier against your uploaded messages"),
                        wrong: [("Apple", "Apple signs the request it sends, not your reply"),
                                ("your In-App Purchase key", "only a promotional offer or Advanced Commerce reply carries something you signed")], seed: bytes)
        return [TourStep(node: NodeID(.file, 0), focus: .whole, range: 0..<bytes,
                         title: document.kind.title,
                         lesson: ["text: \(NumberText.grouped(bytes)) bytes of JSON",
                                  "meaning: \(document.kind.summary)"],
                         check: check)]
    }
}

extension RetentionReplyFormat: TourRoute {
    public func tourSteps(_ document: Document) -> [TourStep]? { RetentionRoute.steps(document) }
}

extension OfferSignatureV1Format: TourRoute {
    public func tourSteps(_ document: Document) -> [TourStep]? { RetentionRoute.steps(document) }
}
