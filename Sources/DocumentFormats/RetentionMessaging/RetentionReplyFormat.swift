#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ASN1Lenient
import JSONLenient
import JWSKit
import Platform
import TextLoader
import DocumentCore
import DocumentDiff
import DocumentTour
import DocumentRedact

/// A reply to a Retention Messaging real-time request (RealtimeResponseBody): JSON with one of
/// `message`, `alternateProduct`, `promotionalOffer` or `advancedCommerceInfo`. Its signed parts
/// are opened as layers and verified with the developer's key: a V2 offer signature (a developer
/// JWS), a V1 offer signature (`OfferSignatureV1`, with `--bundle-id`), and the JWS inside
/// `advancedCommerceData` (base64 JSON, decoded as a layer of its own; any JWS it holds, wherever
/// it sits, is a token layer under it).
public struct RetentionReplyFormat: DocumentFormat {
    public static let id = FormatID(rawValue: "retention-reply")
    public var id: FormatID { Self.id }

    public func recognize(_ probe: FormatProbe) -> Recognition? {
        guard let (tree, reply) = Self.reply(probe), let key = reply.key else { return nil }
        _ = tree
        return Recognition(.certain, "JSON whose one top-level member is \(key): a Retention Messaging reply (RealtimeResponseBody)")
    }

    /// The input's JSON and the reply it is, when its text is a JSON object naming one of the four members.
    static func reply(_ probe: FormatProbe) -> (JSONTree, RetentionDocument)? {
        let bytes = probe.input.bytes
        guard let first = bytes.firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), bytes[first] == UInt8(ascii: "{"),
              RetentionDocument.allCases.contains(where: { $0.key.map { ByteSearch.contains(bytes, "\"\($0)\"") } ?? false }) else { return nil }
        let tree = probe.storeKit.json ?? JSONParser.parse(bytes)
        return RetentionDocument.reply(tree).map { (tree, $0) }
    }

    public func open(_ probe: FormatProbe) -> Document {
        let input = probe.input
        let (tree, reply) = Self.reply(probe) ?? (JSONParser.parse(input.bytes), .message)
        var builder = JWSLayerBuilder()
        // The loader's "JSON without purchase data" is answered: this format read the JSON as a reply.
        let loader = input.diagnostics.filter { $0.code != InputCode.unrecognizedText.code }
        builder.layers = [ByteLayer(id: .file, role: .file, name: "file", bytes: input.bytes,
                                    content: .json(tree, diagnostics: tree.diagnostics + loader))]
        if let v2 = tree.lookup(["promotionalOffer", "promotionalOfferSignatureV2"]), tree[v2].kind == .string {
            RetentionTokens.add(&builder, string: v2, in: tree, layer: .file, path: "promotionalOffer.promotionalOfferSignatureV2")
        }
        if let data = tree.lookup(["advancedCommerceInfo", "advancedCommerceData"]), tree[data].kind == .string {
            RetentionTokens.addAdvancedCommerceData(&builder, string: data, in: tree)
        }
        if probe.options.validate { RetentionTokens.verify(&builder, probe: probe) }
        return Document(source: probe.source, kind: .retentionMessaging(reply), layers: builder.layers,
                        jws: JWSModel(tokens: builder.tokens, body: tree))
    }

    public func describe(_ kind: DocumentKind) -> KindDescription? {
        guard case .retentionMessaging(let reply) = kind, reply != .request else { return nil }
        return KindDescription(summary: reply.summary, title: reply.title)
    }

    public func outlineWording(of document: Document) -> any OutlineWording { RetentionWording(document) }

    /// The V1 signature of a promotional-offer reply, when it carries one.
    static func signatureV1(_ document: Document) -> OfferSignatureV1? {
        guard let tree = document.jws?.body, let object = tree.lookup(["promotionalOffer", "promotionalOfferSignatureV1"]) else { return nil }
        return OfferSignatureV1.read(tree, object: object)
    }

    public func optionUse(_ option: ReadingOption, kind: DocumentKind) -> OptionUse {
        switch option {
        case .key: .applies("checks the offer signatures (V1 and V2) and the Advanced Commerce JWS it carries")
        case .keyID: .applies("compared with the signatures' key id")
        case .bundleID: .applies("the first signed part of a V1 offer signature; compared with a V2 token's bid")
        case .at: .applies("the moment a developer token's iat is judged at")
        case .noValidate: .applies("skips the signature checks")
        case .expect: .applies(OptionWhy.expect)
        case .root: .refused("nothing in it is signed by Apple: its signatures are checked with --key")
        case .environment: .refused("it carries no environment")
        case .appAppleID: .refused("it carries no appAppleId")
        case .appVersion: .refused("it carries no app version")
        case .deviceID: .refused(OptionWhy.noDeviceHash)
        }
    }
}

extension RetentionReplyFormat: WritesTokenJSON, DiffBasisSource, RedactionSource, LabChangeSource {
    public func verification(_ document: Document, now: Date, words: StepText) -> VerificationReport {
        if let v1 = Self.signatureV1(document) {
            return OfferSignatureV1Check.report(document, signature: v1, path: "promotionalOffer.promotionalOfferSignatureV1", now: now)
        }
        if document.jws?.tokens.isEmpty == false {
            var report = StoreKitOutputs.verification(document, now: now, words: words)
            report.name(by: document)
            return report
        }
        return VerificationReport(unverifiable: document, why: "a \(document.kind.id) reply is not signed", now: now)
    }
    /// Field by field (a V1 signature's fields included), its tokens as tokens.
    public func diffBasis(_ document: Document) -> (any DiffBasis)? { StoreKitSide(body: document) }
    /// Its tokens as any token's (advancedCommerceData's JWS is written back through the decoded
    /// JSON's base64 by the layers' maps), and a V1 signature's note when its fields change.
    public func redactionParts(_ document: Document, fields: Set<RedactField>) -> RedactionParts {
        var parts = TokenRedaction.parts(document)
        if Self.signatureV1(document) != nil {
            parts.signatures.append(OfferSignatureV1.redactedSignature(path: "promotionalOffer.promotionalOfferSignatureV1"))
        }
        return parts
    }
    public func labChanges(before: Document, after: Document) -> [LabChangeLine] { TokenLabChange.describe(before: before, after: after) }
}
