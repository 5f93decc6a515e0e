import ASN1Lenient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JWSKit
import ReceiptKit
import ReasonCodes
import X509Trust
import DocumentCore

// What each JWS step is about: the bytes (header `alg`, x5c entries, signature segment, the
// payload field compared, nested tokens) and the certificates.

extension JWSStepStatus {
    var reasonCode: ReasonCode? {
        switch self {
        case .passed: nil
        case .failed(let f): f.code
        case .notChecked(let s): s.code
        }
    }

    var reason: String? {
        switch self {
        case .passed: nil
        case .failed(let f): f.sentence
        case .notChecked(let s): s.sentence
        }
    }
}

extension VerificationStatus {
    init(_ status: JWSStepStatus) {
        switch status {
        case .passed: self = .passed
        case .failed: self = .failed
        case .notChecked: self = .notChecked
        }
    }
}

extension VerificationReport {
    /// The x5c certificates with their roles (leaf, intermediate, root for Apple's three; "self-signed"
    /// for Xcode's one), and which one the chain ended at.
    static func x5c(_ token: JWSToken, _ report: JWSVerificationReport?) -> [VerificationCertificate] {
        let entries = token.document.header.certificates
        let infos: [CertificateInfo?] = report?.certificates ?? entries.map { CertificateInfo(der: $0.der) }
        return infos.enumerated().compactMap { i, info in
            guard let info else { return nil }
            let role: String
            switch (infos.count, i) {
            case (1, _): role = info.isSelfSigned ? "self-signed" : "leaf"
            case (3, 0): role = "leaf"
            case (3, 1): role = "intermediate"
            case (3, 2): role = "root"
            default: role = "certificate"
            }
            var markers: [String] = []
            if info.hasReceiptSignerOID { markers.append(CertificateInfo.receiptSignerOID) }
            if info.hasWWDRIntermediateOID { markers.append(CertificateInfo.wwdrIntermediateOID) }
            var anchor: String?
            if i == infos.count - 1, let a = report?.anchor {
                switch a {
                case .appleRootCAG3: anchor = "Apple Root CA - G3"
                case .userSupplied(let sha): anchor = sha == info.sha256Fingerprint ? "user-supplied root" : nil
                }
            }
            return VerificationCertificate(role: role, index: i, subject: info.subject, issuer: info.issuer,
                                           sha256: info.sha256Fingerprint, notBefore: info.notBefore, notAfter: info.notAfter,
                                           markers: markers, selfSigned: info.isSelfSigned, anchor: anchor)
        }
    }

    /// What a token step judges: one x5c certificate, the chain, or the token (its header, signature, claims).
    static func subject(_ step: JWSStep, path: String?, certificates count: Int) -> VerificationStepSubject {
        switch step {
        case .chain, .validityAtSignedDate, .validityToday, .revocation: VerificationStepSubject(.chain, envelope: .jws, path: path)
        case .root: VerificationStepSubject(.certificate, envelope: .jws, path: path, index: count == 0 ? nil : count - 1)
        case .leafMarker: VerificationStepSubject(.certificate, envelope: .jws, path: path, index: 0)
        case .intermediateMarker: VerificationStepSubject(.certificate, envelope: .jws, path: path, index: 1)
        default: VerificationStepSubject(.token, envelope: .jws, path: path)
        }
    }

    static func certificates(for step: JWSStep, _ all: [VerificationCertificate]) -> [VerificationCertificate] {
        switch step {
        case .chain, .validityAtSignedDate, .validityToday, .revocation: all
        case .root: all.last.map { [$0] } ?? []
        case .leafMarker: all.filter { $0.index == 0 }
        case .intermediateMarker: all.count == 3 ? all.filter { $0.index == 1 } : []
        default: []
        }
    }

    /// The input bytes a step is about, with the same range in the token's characters.
    static func ranges(_ step: JWSStep, _ token: JWSToken, model: JWSModel, index: Int, in document: Document) -> [VerificationRange] {
        let jws = token.document
        func range(_ what: String, _ r: Range<Int>, in layer: LayerID?) -> [VerificationRange] {
            guard let layer else { return [] }
            return [VerificationRange(what: what, document.fileRange(r, in: layer),
                                      inToken: document.range(r, in: layer, upTo: token.layers.token))]
        }
        func certificate(_ i: Int) -> [VerificationRange] {
            guard i < token.layers.certificates.count else { return [] }
            let layer = token.layers.certificates[i]
            return range("x5c[\(i)]", 0..<document.byteCount(of: layer), in: layer)
        }
        func field(_ paths: [String]) -> [VerificationRange] {
            guard let json = jws.payloadJSON,
                  let f = paths.lazy.compactMap({ jws.payload.field($0) }).first, let node = f.valueNode else { return [] }
            return range("payload \(f.path)", json.nodes[node.index].range, in: token.layers.payload)
        }
        let count = token.layers.certificates.count
        switch step {
        case .algorithm:
            guard let node = jws.header.algNode, let json = jws.headerJSON else { return [] }
            return range("header alg", json.nodes[node.index].range, in: token.layers.header)
        case .chain, .validityAtSignedDate, .validityToday: return (0..<count).flatMap(certificate)
        case .root: return count == 0 ? [] : certificate(count - 1)
        case .leafMarker: return certificate(0)
        case .intermediateMarker: return count == 3 ? certificate(1) : []
        case .signature:
            guard let layer = token.layers.signature else { return [] }
            return range("signature segment", 0..<document.byteCount(of: layer), in: layer)
        case .keyID:
            guard let json = jws.headerJSON, let root = json.root, let kid = json.value("kid", in: root) else { return [] }
            return range("header kid", json.nodes[kid].range, in: token.layers.header)
        case .audience: return field(["aud"])
        case .issuedAt: return field(["iat"])
        case .expiry, .lifetime: return field(["exp"])
        case .nonce: return field(["nonce"])
        case .bundleID: return field(["bundleId", "data.bundleId", "summary.bundleId", "bid"])
        case .environment: return field(["environment", "receiptType", "data.environment", "summary.environment"])
        case .appAppleID: return field(["appAppleId", "data.appAppleId", "summary.appAppleId"])
        case .nestedConsistency:
            return model.nested(in: index).flatMap { child in
                range(child.path ?? "nested token", 0..<child.document.text.count, in: child.layers.token)
            }
        case .revocation: return []
        }
    }
}
