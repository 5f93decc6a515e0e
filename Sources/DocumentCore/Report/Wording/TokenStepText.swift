#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ByteText
import JWSKit
import ReceiptKit
import X509Trust

// The words of token steps (StoreKit 2, developer-signed, and the claim steps of external purchase
// tokens): JWSKit's typed steps, failures and skips become text here, in the one wording layer of
// verification (this folder; receipts' words are in StepText.swift). JWSKit itself produces typed
// results only; tests of the verifier compare those, and WordingTests the words.

extension JWSStep {
    public var title: String {
        switch self {
        case .algorithm: return "Header algorithm (ES256)"
        case .chain: return "x5c certificate chain"
        case .root: return "Trust anchor (root)"
        case .leafMarker: return "Leaf marker extension"
        case .intermediateMarker: return "Intermediate marker extension"
        case .validityAtSignedDate: return "Validity at signedDate"
        case .validityToday: return "Validity today"
        case .keyID: return "Key id (kid)"
        case .signature: return "ES256 signature"
        case .audience: return "Audience (aud)"
        case .issuedAt: return "Issued at (iat)"
        case .expiry: return "Expiry (exp)"
        case .lifetime: return "Token lifetime (exp - iat)"
        case .nonce: return "Nonce"
        case .bundleID: return "Bundle identifier"
        case .environment: return "Environment"
        case .appAppleID: return "App Apple ID"
        case .nestedConsistency: return "Nested tokens agree"
        case .revocation: return "Revocation (OCSP)"
        }
    }
}

extension JWSStepStatus {
    /// "passed", "failed — <why>", "not checked — <why>".
    public var summary: String {
        switch self {
        case .passed: return "passed"
        case .failed(let f): return "failed — \(f.sentence)"
        case .notChecked(let s): return "not checked — \(s.sentence)"
        }
    }
}

extension JWSAnchor {
    public var sentence: String {
        switch self {
        case .appleRootCAG3: return "Apple Root CA - G3 (pinned SHA-256 \(JWSPins.appleRootCAG3))"
        case .userSupplied(let sha): return "a user-supplied root, not Apple (SHA-256 \(sha))"
        }
    }
}

extension JWSFailure {
    public var sentence: String {
        switch self {
        case .algorithmMissing:
            return "the header has no \"alg\"; StoreKit tokens are signed with ES256"
        case .algorithmNone:
            return "\"alg\" is \"none\": an unsigned token; accepting it would let anyone forge data (algorithm confusion)"
        case .algorithmSymmetric(let alg):
            return "\"alg\" is \"\(alg)\", a shared-secret MAC; a verifier that accepted it would check it against the public certificate, which anyone can do (algorithm confusion). Apple signs with ES256"
        case .algorithmNotES256(let alg):
            return "\"alg\" is \"\(alg)\"; Apple signs StoreKit data with ES256 only, and any other value is refused rather than trusted"
        case .x5cMissing:
            return "the header has no x5c certificates, so there is no key to verify with and no chain to Apple"
        case .certificateUnreadable(let i):
            return "x5c[\(i)] is not a readable DER certificate"
        case .certificateCount(let n):
            return "x5c holds \(n) certificate\(n == 1 ? "" : "s"); Apple's tokens carry exactly three (leaf, intermediate, root)"
        case .wrongOrder(let expected):
            let order = expected.map { "x5c[\($0)]" }.joined(separator: " ← ")
            return "the certificates are in the wrong order: they link only as \(order); x5c must list leaf, intermediate, root (RFC 7515 §4.1.6)"
        case .issuerMismatch(let child, let issuer, let next):
            return "x5c[\(child)] was issued by \(issuer), but x5c[\(child + 1)] is \(next)"
        case .linkSignatureInvalid(let child):
            return "x5c[\(child)]'s certificate signature does not verify with x5c[\(child + 1)]'s key"
        case .rootNotSelfSigned(let i):
            return "x5c[\(i)], the last certificate, is not a self-signed root"
        case .rootNotPinned(let sha, let subject):
            return "the chain ends at \(subject.isEmpty ? "a root" : subject) (SHA-256 \(sha)), which is neither Apple Root CA - G3 (SHA-256 \(JWSPins.appleRootCAG3)) nor a supplied root"
        case .xcodeTestingNotTrusted:
            return "signed by Xcode's \"StoreKit Testing in Xcode\" certificate for local testing, not by Apple; it verifies only when that certificate is supplied as the root"
        case .userRootUnreadable(let i):
            return "supplied root #\(i + 1) is neither a DER nor a PEM certificate"
        case .pathVerification(let error, let depth):
            return "OpenSSL rejected the path: \(error) (depth \(depth))"
        case .leafMarkerMissing(let oid):
            return "the leaf certificate lacks Apple's StoreKit signing extension \(oid), so it is not an App Store signing certificate"
        case .intermediateMarkerMissing(let oid):
            return "the intermediate certificate lacks Apple's WWDR intermediate extension \(oid)"
        case .certificatesNotValid(let date, let problems):
            let when = ValidationDate.iso(date)
            return "at \(when): " + problems.map { p in
                let name = p.x5cIndex.map { "x5c[\($0)] \(p.label)" } ?? "the supplied root \(p.label)"
                let from = p.notBefore.map(ValidationDate.iso) ?? "?"
                let to = p.notAfter.map(ValidationDate.iso) ?? "?"
                switch p.kind {
                case .expired: return "\(name) expired \(to)"
                case .notYetValid: return "\(name) is not valid before \(from)"
                case .unreadableDates: return "\(name) has unreadable validity dates"
                }
            }.joined(separator: "; ")
        case .signatureEmpty:
            return "the signature segment is empty"
        case .signatureIsDER(let n):
            return "the signature is a \(n)-byte DER ECDSA-Sig-Value (the X.509/CMS form); JWS ES256 signatures are the raw 64 bytes r‖s (RFC 7518 §3.4)"
        case .signatureTruncated(let n):
            return "the signature is truncated: \(n) bytes, where ES256 has exactly 64 (r and s, 32 bytes each)"
        case .signatureTooLong(let n):
            return "the signature is \(n) bytes, where ES256 has exactly 64 (r and s, 32 bytes each)"
        case .leafKeyNotP256(let curve):
            return "x5c[0]'s key is \(curve ?? "unreadable"), not P-256 (prime256v1), so it cannot verify ES256"
        case .signatureMismatch:
            return "the signature does not match header.payload under x5c[0]'s key: the token was altered or signed by another key"
        case .developerSignatureMismatch:
            return "the signature does not match header.payload under the key you gave: the token was altered or signed by another key"
        case .keyIDMissing:
            return "the header has no \"kid\": Apple cannot tell which of your keys signed it"
        case .keyIDMismatch(let expected, let found):
            return "the header's kid is \(found), but the key is \(expected): Apple verifies with the key the kid names"
        case .issuedInFuture(let issued, let at):
            return "iat is \(ValidationDate.iso(issued)), after \(ValidationDate.iso(at)): a token is not issued in the future"
        case .expiredAt(let expires, let at):
            return "exp is \(ValidationDate.iso(expires)): the token had expired at \(ValidationDate.iso(at))"
        case .expiresBeforeIssued(let issued, let expires):
            return "exp (\(ValidationDate.iso(expires))) is not after iat (\(ValidationDate.iso(issued)))"
        case .lifetimeTooLong(let seconds):
            return "exp is \(seconds) seconds (\(seconds / 60) minutes\(seconds % 60 == 0 ? "" : " \(seconds % 60) s")) after iat; Apple rejects App Store Server API tokens valid for more than 60 minutes (401)"
        case .nonceNotLowercaseUUID(let nonce):
            return "the nonce \(nonce) is not a UUID in lowercase, which Apple requires"
        case .claimUnreadable(let found):
            return "the claim is \(found), not of its type"
        case .claimMissing:
            return "the payload does not carry this field"
        case .claimMismatch(let expected, let found):
            return "expected \(expected), the payload says \(found)"
        case .nestedDisagrees(let mismatches):
            return mismatches.map {
                "\($0.token).\($0.field.rawValue) is \($0.nested) but the notification's data says \($0.notification)"
            }.joined(separator: "; ")
        }
    }
}

extension JWSSkip {
    public var sentence: String {
        switch self {
        case .noExpectation: return "no expected value was given"
        case .claimNotInKind(let kind, let field):
            return "a \(kind.label) has no \(field) field (Apple's verifier does not check it either)"
        case .algorithmRejected: return "the header algorithm is not ES256, so no ES256 signature check was made"
        case .noCertificates: return "the header carries no certificates"
        case .leafUnreadable: return "x5c[0] is not a readable certificate, so there is no key"
        case .chainStructureFailed: return "the chain's structure failed, so the certificates' roles are unknown"
        case .xcodeSingleCertificate:
            return "an Xcode StoreKit-testing token: one self-signed certificate with no Apple extensions"
        case .noSignedDate: return "the payload has no signedDate to judge the certificates at"
        case .nothingNested: return "no nested token carries bundleId or environment"
        case .revocationOffline:
            return "asking Apple's OCSP responder needs the network, and this tool works offline; a revoked certificate would pass here"
        case .developerKeyNeeded:
            return "signed by a developer's In-App Purchase key, which the token does not carry: the key is needed to check the signature"
        case .noKeyID:
            return "no key id was given, and the key file's name (SubscriptionKey_<KID>.p8, AuthKey_<KID>.p8) gives none"
        case .claimNotInDeveloperKind(let kind, let claim):
            return "\(kind.phrase) has no \(claim) claim"
        case .lifetimeUnknown:
            return "iat or exp is absent or unreadable (its own step says which), so the lifetime is unknown"
        case .comparedOnlyInProduction(let claim, let environment):
            return "not compared: the environment is \(TerminalSafe.escape(environment)), and Apple's verifier checks \(claim) only in Production"
        }
    }
}
