#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONLenient
import JWSKit
import Platform
import DocumentCore
import DocumentRedact
import DocumentDiff

/// A legacy (V1) promotional offer signature with its fields, as a JSON object with Apple's names
/// (`encodedSignature`, `productId`, `offerIdentifier`, `keyId`, `nonce`, `timestamp`,
/// `appAccountToken`): `verify FILE --key KEY --bundle-id B` checks it (`OfferSignatureV1Check`).
public struct OfferSignatureV1Format: DocumentFormat, RedactionSource, DiffBasisSource {
    public static let id = FormatID(rawValue: "offer-signature-v1")
    public var id: FormatID { Self.id }

    public func recognize(_ probe: FormatProbe) -> Recognition? {
        guard Self.signature(probe) != nil else { return nil }
        return Recognition(.certain, "a JSON object with encodedSignature, productId, offerIdentifier, keyId, nonce and timestamp: a promotional offer signature (V1)")
    }

    /// The JSON and its fields, when the input is such an object.
    static func signature(_ probe: FormatProbe) -> (JSONTree, OfferSignatureV1)? {
        let bytes = probe.input.bytes
        guard let first = bytes.firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), bytes[first] == UInt8(ascii: "{"),
              ByteSearch.contains(bytes, "\"encodedSignature\"") else { return nil }
        let tree = JSONParser.parse(bytes)
        guard let root = tree.root, tree[root].kind == .object,
              OfferSignatureV1.required.allSatisfy({ tree.member($0, in: root) != nil }),
              let signature = OfferSignatureV1.read(tree, object: root) else { return nil }
        return (tree, signature)
    }

    public func open(_ probe: FormatProbe) -> Document {
        let input = probe.input
        let tree = Self.signature(probe)?.0 ?? JSONParser.parse(input.bytes)
        let layer = ByteLayer(id: .file, role: .file, name: "file", bytes: input.bytes,
                              content: .json(tree, diagnostics: tree.diagnostics + input.diagnostics))
        return Document(source: probe.source, kind: .offerSignatureV1, layers: [layer], jws: JWSModel(tokens: [], body: tree))
    }

    public func describe(_ kind: DocumentKind) -> KindDescription? {
        guard case .offerSignatureV1 = kind else { return nil }
        return KindDescription(summary: "a promotional offer signature (V1: ECDSA over fields joined by U+2063)", title: "Offer signature (V1)")
    }

    public func outlineWording(of document: Document) -> any OutlineWording { RetentionWording(document) }

    public func optionUse(_ option: ReadingOption, kind: DocumentKind) -> OptionUse {
        switch option {
        case .key: .applies("the key the signature is checked with")
        case .keyID: .applies("compared with keyId")
        case .bundleID: .applies("the first signed part (the signature covers it; the fields do not carry it)")
        case .expect: .applies(OptionWhy.expect)
        case .noValidate: .refused("json does not check its signature (only verify does, with --key), so there is nothing to skip")
        case .at: .refused("its timestamp is signed, not judged: nothing is compared with a moment")
        case .root: .refused("it carries no certificate chain: its signature is checked with --key")
        case .environment: .refused("it carries no environment")
        case .appAppleID: .refused("it carries no appAppleId")
        case .appVersion: .refused("it carries no app version")
        case .deviceID: .refused(OptionWhy.noDeviceHash)
        }
    }
}

extension OfferSignatureV1Format: WritesTokenJSON {
    public func verification(_ document: Document, now: Date, words: StepText) -> VerificationReport {
        guard let tree = document.jws?.body, let root = tree.root, let signature = OfferSignatureV1.read(tree, object: root) else {
            return VerificationReport(unverifiable: document, now: now)
        }
        return OfferSignatureV1Check.report(document, signature: signature, path: nil, now: now)
    }

    /// Field by field: which signed part (or the signature) differs.
    public func diffBasis(_ document: Document) -> (any DiffBasis)? { StoreKitSide(body: document) }

    /// Its values are JSON members the shared code finds (appAccountToken); the signature over them
    /// breaks when one changes, and the copy says so.
    public func redactionParts(_ document: Document, fields: Set<RedactField>) -> RedactionParts {
        var parts = RedactionParts()
        parts.signatures = [OfferSignatureV1.redactedSignature(path: nil)]
        return parts
    }
}
