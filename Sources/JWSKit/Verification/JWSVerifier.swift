import ASN1Lenient
import ByteText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import X509Trust

/// Verifies one compact JWS as Apple signs StoreKit 2 data, step by step (see docs/storekit2.md, "What each verification step means").
/// Never throws: every outcome is a step in the report. Trust comes only from the pinned SHA-256 of
/// Apple Root CA - G3 or from roots the caller supplies, never from the token carrying a certificate.
public enum JWSVerifier {
    /// `session`: shared by the tokens of one document so that a chain they have in common is
    /// checked once (see `JWSVerificationSession`); the report is the same without one.
    public static func verify(_ input: JWSVerificationInput, session: JWSVerificationSession? = nil) -> JWSVerificationReport {
        let session = session ?? JWSVerificationSession()
        let chain = session.chain(input.x5c, anchors: input.options.anchors)
        let (rootStatus, anchor, anchorCertificate) = chain.root
        let userAnchor = anchor == .appleRootCAG3 ? nil : anchorCertificate
        let (signatureStatus, signatureDER) = signature(input, chain: chain)
        let options = input.options
        let steps = [
            JWSStepResult(.algorithm, algorithm(input.alg)),
            JWSStepResult(.chain, chain.structure),
            JWSStepResult(.root, rootStatus),
            JWSStepResult(.leafMarker, chain.leafMarker),
            JWSStepResult(.intermediateMarker, chain.intermediateMarker),
            JWSStepResult(.validityAtSignedDate, chain.validity(at: input.signedDate, anchor: userAnchor)),
            JWSStepResult(.validityToday, chain.validity(at: options.now, anchor: userAnchor)),
            JWSStepResult(.signature, signatureStatus),
            claim(.bundleID, input.claims, expected: options.expectedBundleID, found: input.claims.bundleID, ==),
            claim(.environment, input.claims, expected: options.expectedEnvironment, found: input.claims.environment) {
                PlainText.equalsIgnoringCase($0, $1)  // "sandbox" means "Sandbox"
            },
            claim(.appAppleID, input.claims, expected: options.expectedAppAppleID.map(String.init),
                  found: input.claims.appAppleID.map(String.init), ==),
            JWSStepResult(.revocation, .notChecked(.revocationOffline)),
        ]
        return JWSVerificationReport(steps: steps, certificates: chain.certificates, chainKind: chain.kind,
                                     anchor: rootStatus == .passed ? anchor : nil, signatureDER: signatureDER)
    }

    /// Only ES256 is acceptable: `none` and the HMAC algorithms are the classic algorithm-confusion attacks.
    static func algorithm(_ alg: String?) -> JWSStepStatus {
        guard let alg else { return .failed(.algorithmMissing) }
        if alg == "ES256" { return .passed }
        if alg.lowercased() == "none" { return .failed(.algorithmNone) }
        if alg.uppercased().hasPrefix("HS") { return .failed(.algorithmSymmetric(alg)) }
        return .failed(.algorithmNotES256(alg))
    }

    static func signature(_ input: JWSVerificationInput, chain: JWSChainCheck) -> (JWSStepStatus, [UInt8]?) {
        guard input.alg == "ES256" else { return (.notChecked(.algorithmRejected), nil) }
        guard let first = chain.decoded.first else { return (.notChecked(.noCertificates), nil) }
        guard let leaf = first else { return (.notChecked(.leafUnreadable), nil) }
        if let problem = ES256Signature.shapeProblem(input.signature) { return (.failed(problem), nil) }
        guard let der = ES256Signature.der(fromRaw: input.signature) else { return (.failed(.signatureEmpty), nil) }
        // RFC 7515 §4.1.6: the key is in the first x5c certificate, whatever the rest of the chain says.
        if let failure = ES256Signature.verify(message: input.signingInput, derSignature: der, signer: leaf) {
            return (.failed(failure), der)
        }
        return (.passed, der)
    }

    static func claim(_ step: JWSStep, _ claims: JWSClaims, expected: String?, found: String?,
                      _ same: (String, String) -> Bool) -> JWSStepResult {
        if expected != nil, found == nil, !claims.carries(step), let kind = claims.kind,
           let field = JWSClaims.field(step, kind: kind) {
            return JWSStepResult(step, .notChecked(.claimNotInKind(kind: kind, field: field)))
        }
        return JWSStepResult(step, claim(expected: expected, found: found, same))
    }

    public static func claim(expected: String?, found: String?, _ same: (String, String) -> Bool) -> JWSStepStatus {
        guard let expected else { return .notChecked(.noExpectation) }
        guard let found else { return .failed(.claimMissing) }
        return same(expected, found) ? .passed : .failed(.claimMismatch(expected: expected, found: found))
    }
}

/// A notification's `data.bundleId` and `data.environment` must agree with every nested token's.
public enum JWSNotificationConsistency {
    public struct Nested: Sendable, Equatable {
        /// The field that carried the token, e.g. "signedTransactionInfo".
        public var token: String
        public var bundleID: String?
        public var environment: String?
        public init(token: String, bundleID: String?, environment: String?) {
            self.token = token
            self.bundleID = bundleID
            self.environment = environment
        }
    }

    public static func check(bundleID: String?, environment: String?, nested: [Nested]) -> JWSStepResult {
        var compared = 0
        var mismatches: [JWSNestedMismatch] = []
        for token in nested {
            let pairs: [(JWSNestedMismatch.Field, String?, String?)] = [
                (.bundleID, bundleID, token.bundleID), (.environment, environment, token.environment)]
            for (field, parent, child) in pairs {
                guard let parent, let child else { continue }
                compared += 1
                if parent != child {
                    mismatches.append(JWSNestedMismatch(token: token.token, field: field, notification: parent, nested: child))
                }
            }
        }
        if !mismatches.isEmpty { return JWSStepResult(.nestedConsistency, .failed(.nestedDisagrees(mismatches))) }
        return JWSStepResult(.nestedConsistency, compared == 0 ? .notChecked(.nothingNested) : .passed)
    }
}


/// What the tokens of one document share when they are verified one after another: their x5c
/// certificates and chains. A transaction history's tokens, and a notification with the tokens
/// nested in it, carry the same three certificates, so each distinct certificate is decoded once
/// (`certificates`: its `X509` and public key serve the chain, the path check and the ES256 step),
/// and each distinct chain and set of roots is checked once (the link signatures and the path to the
/// anchor: several P-384 verifications); only the ES256 signature is verified per token. Both are
/// pure functions of their keys (the path is built without a date), so a report is the same with
/// or without a session.
///
/// One session per document (`Document.open` makes one): nothing outlives it, and every certificate
/// it decoded is freed when it goes, unless a batch run shares chains between documents
/// (`JWSChainPool`). The user's roots are not decoded here: they come prepared
/// (`TrustAnchorSet`, once per run), and the cache starts from them.
public final class JWSVerificationSession {
    /// The certificates' bytes (`DERKey`: hashed in bulk, compared with `memcmp`). Hashed once when
    /// made: a token looks its key up in its session and in the pool and stores it, and hashing its
    /// four certificates each time was 13 K instructions a token.
    struct ChainKey: Hashable, Sendable {
        let x5c: [DERKey]
        let roots: [DERKey]
        private let hash: Int

        init(x5c: [[UInt8]], roots: [[UInt8]]) {
            self.x5c = x5c.map(DERKey.init)
            self.roots = roots.map(DERKey.init)
            var hasher = Hasher()
            hasher.combine(self.x5c)
            hasher.combine(self.roots)
            hash = hasher.finalize()
        }

        static func == (a: ChainKey, b: ChainKey) -> Bool { a.hash == b.hash && a.x5c == b.x5c && a.roots == b.roots }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// Every certificate the session's tokens and root files carry, decoded once.
    public let certificates = CertificateCache()
    private var chains: [ChainKey: JWSChainCheck] = [:]
    private let pool: JWSChainPool

    public init() { pool = .shared }

    /// A session whose chains come from `pool` (tests: a pool of their own).
    init(pool: JWSChainPool) { self.pool = pool }

    func chain(_ x5c: [[UInt8]], anchors: TrustAnchorSet) -> JWSChainCheck {
        let key = ChainKey(x5c: x5c, roots: anchors.files)
        if let known = chains[key] { return known }
        let chain = pool.chain(key) {
            JWSChainCheck(x5c: x5c, roots: anchors.prepared(), certificates: certificates)
        }
        chains[key] = chain
        return chain
    }

    /// The chain for root files not prepared before (tests).
    func chain(_ x5c: [[UInt8]], userRootFiles: [[UInt8]]) -> JWSChainCheck {
        chain(x5c, anchors: TrustAnchorSet(files: userRootFiles))
    }
}
