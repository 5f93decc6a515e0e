import JWSKit
import DocumentCore
import DocumentDiff

/// Two StoreKit 2 documents. Two lone transactions (or a token against the like token another
/// one carries: a notification against its transaction) compare field by field. Anything else
/// (history responses, a history against one transaction, two notifications) compares the JSON bodies' own fields, the tokens
/// that are not transactions by path, and the transactions by transaction id as receipts'
/// purchases are: added, removed, changed, refunded (revocationDate appeared), renewed.
enum JWSDiff {
    struct Result {
        var entries: [DiffEntry] = []
        var signatures: DiffSignatures?
        /// The token pairs compared (indices into each side's tokens), for the structural walk.
        var tokenPairs: [(Int, Int)] = []
    }

    static func compare(_ a: StoreKitSide, _ b: StoreKitSide) -> Result {
        let ta = a.topLevel, tb = b.topLevel
        var result = Result()
        if a.model.body == nil, b.model.body == nil, ta.count == 1, tb.count == 1 {
            let (x, y) = counterparts(a, ta[0], b, tb[0])
            let sameKind = a.token(ta[0]).document.payload.kind == b.token(tb[0]).document.payload.kind
            guard sameKind && !a.isTransaction(x) && !b.isTransaction(y) else {
                // Two transactions, or one token against the like token another one carries (a
                // notification against its transaction or renewal info): the fields as they are.
                var pair = tokenEntries(a, x, b, y, nestedTransactions: true)
                if !pair.entries.isEmpty, pair.entries.allSatisfy({ Self.signingKinds.contains($0.kind) }) {
                    pair.entries.insert(DiffEntry(kind: .resigned, subject: "token", a: pair.signatures.signatureA,
                                                  b: pair.signatures.signatureB,
                                                  note: "same payload fields, different signature or certificates"), at: 0)
                }
                result.add(pair, pair: (x, y))
                return result
            }
            result.add(tokenEntries(a, x, b, y, nestedTransactions: false), pair: (x, y))
        } else {
            // Bodies: their own fields, and a token that is not a transaction missing on one side.
            let bodies = a.model.body != nil && b.model.body != nil
            if bodies { result.entries += BodyFields.entries(a, b) }
            // Top-level tokens that are not transactions (a notification's signedPayload, renewal
            // infos of a status response) pair by path.
            let others = tb.filter { !b.isTransaction($0) }
            for x in ta where !a.isTransaction(x) {
                guard let y = others.first(where: { b.token($0).path == a.token(x).path }) else {
                    if bodies { result.entries.append(DiffEntry(kind: .fieldRemoved, subject: a.path(x), a: a.tokenSide(x))) }
                    continue
                }
                result.add(tokenEntries(a, x, b, y, nestedTransactions: false), pair: (x, y))
            }
            for y in others where bodies && !ta.contains(where: { !a.isTransaction($0) && a.token($0).path == b.token(y).path }) {
                result.entries.append(DiffEntry(kind: .fieldAdded, subject: b.path(y), b: b.tokenSide(y)))
            }
        }
        transactionEntries(a, b, into: &result)
        return result
    }

    /// The transactions of both sides (nested ones included) paired by `PurchasePairing`.
    static func transactionEntries(_ a: StoreKitSide, _ b: StoreKitSide, into result: inout Result) {
        let xs = a.transactions, ys = b.transactions
        let idsA = xs.map(a.identity), idsB = ys.map(b.identity)
        let pairing = PurchasePairing(idsA, idsB)
        for (i, x) in xs.enumerated() {
            let fallback = idsA[i].isFallback ? PurchaseIdentity.fallbackNote : nil
            let product = a.token(x).document.payload.string("productId") ?? ""
            guard let j = pairing.counterpartOfA[i] else {
                result.entries.append(DiffEntry(kind: .transactionRemoved, subject: product, key: idsA[i].key,
                                                a: a.transactionSide(x), note: fallback))
                continue
            }
            let y = ys[j]
            result.tokenPairs.append((x, y))
            guard a.token(x).document.text != b.token(y).document.text else { continue }
            let pair = tokenEntries(a, x, b, y, nestedTransactions: false, prefix: "")
            result.signatures = result.signatures ?? pair.signatures
            let (kind, note) = classify(pair.entries, b.token(y).document.payload)
            result.entries.append(DiffEntry(kind: kind, subject: product, key: idsA[i].key, a: a.transactionSide(x),
                                            b: b.transactionSide(y), fields: pair.entries,
                                            note: PurchasePairing.note(note, fallback)))
        }
        for (j, chain) in pairing.unmatchedB {
            let y = ys[j]
            result.entries.append(DiffEntry(kind: chain == nil ? .transactionAdded : .renewal,
                                            subject: b.token(y).document.payload.string("productId") ?? "",
                                            key: idsB[j].key, b: b.transactionSide(y),
                                            note: PurchasePairing.note(chain.map(PurchasePairing.renewalNote),
                                                                       idsB[j].isFallback ? PurchaseIdentity.fallbackNote : nil)))
        }
    }

    static let signingKinds: Set<DiffKind> = [.certificateAdded, .certificateRemoved, .signatureChanged]

    /// A changed transaction: a refund when its revocationDate appeared, re-signed when nothing but
    /// its signedDate and signing changed, else changed.
    static func classify(_ fields: [DiffEntry], _ payloadB: StoreKitPayload) -> (DiffKind, String?) {
        if fields.contains(where: { $0.kind == .fieldAdded && $0.subject == "revocationDate" }) {
            return (.refund, "revocationDate appeared: \(payloadB.value("revocationDate")?.display ?? "")")
        }
        if fields.allSatisfy({ signingKinds.contains($0.kind) || $0.subject == "signedDate" }) {
            return (.resigned, "same transaction signed again")
        }
        return (.transactionChanged, nil)
    }

    /// A notification against a transaction (or renewal info) compares the token it nests of that
    /// kind; tokens of the same kind compare as they are.
    static func counterparts(_ a: StoreKitSide, _ x: Int, _ b: StoreKitSide, _ y: Int) -> (Int, Int) {
        let kx = a.token(x).document.payload.kind, ky = b.token(y).document.payload.kind
        guard kx != ky else { return (x, y) }
        if let nx = a.model.tokens.indices.first(where: { a.token($0).parent == x && a.token($0).document.payload.kind == ky }) {
            return (nx, y)
        }
        if let ny = b.model.tokens.indices.first(where: { b.token($0).parent == y && b.token($0).document.payload.kind == kx }) {
            return (x, ny)
        }
        return (x, y)
    }

    /// One token against another: payload fields, nested tokens by path (nested transactions only
    /// when `nestedTransactions`; otherwise they pair by id), then signing. A token whose fields
    /// are all the same but whose signing differs is re-signed.
    static func tokenEntries(_ a: StoreKitSide, _ x: Int, _ b: StoreKitSide, _ y: Int, nestedTransactions: Bool,
                             prefix explicitPrefix: String? = nil) -> (entries: [DiffEntry], signatures: DiffSignatures,
                                                                      pairs: [(Int, Int)]) {
        let prefix = explicitPrefix ?? a.path(x)
        var out = fields(a, x, b, y, prefix: prefix)
        var pairs: [(Int, Int)] = []
        for nx in a.model.tokens.indices where a.token(nx).parent == x && (nestedTransactions || !a.isTransaction(nx)) {
            guard let ny = b.model.tokens.indices.first(where: { b.token($0).parent == y && b.token($0).path == a.token(nx).path })
            else { continue }
            pairs.append((nx, ny))
            guard a.token(nx).document.text != b.token(ny).document.text else { continue }
            let nested = tokenEntries(a, nx, b, ny, nestedTransactions: nestedTransactions)
            out += nested.entries
            pairs += nested.pairs
        }
        let pair = DiffSignatures(certificatesA: a.certificates(x), certificatesB: b.certificates(y),
                                  signatureA: a.signature(x), signatureB: b.signature(y),
                                  sameSignature: a.token(x).document.signatureBytes == b.token(y).document.signatureBytes)
        out += SignatureDiff.entries(pair).map { entry in
            var e = entry
            if !prefix.isEmpty { e.subject = "\(prefix): \(e.subject)" }
            return e
        }
        return (out, pair, pairs)
    }

    /// Payload fields by path; objects are walked through their members, nested tokens compared as
    /// tokens of their own (by `tokenEntries`).
    static func fields(_ a: StoreKitSide, _ x: Int, _ b: StoreKitSide, _ y: Int, prefix: String) -> [DiffEntry] {
        var out: [DiffEntry] = []
        let fa = a.token(x).document.payload.fields, fb = b.token(y).document.payload.fields
        var indexB: [String: Int] = [:]
        for (j, f) in fb.enumerated() where indexB[f.path] == nil { indexB[f.path] = j }
        var seen = Set<String>()
        for f in fa where !seen.contains(f.path) {
            seen.insert(f.path)
            let path = StoreKitSide.join(prefix, f.path)
            guard let j = indexB[f.path] else {
                out.append(DiffEntry(kind: .fieldRemoved, subject: path, a: a.side(x, f)))
                continue
            }
            let g = fb[j]
            if case .nestedToken = f.value, case .nestedToken = g.value { continue }
            if case .object = f.value, case .object = g.value { continue }
            if f.value != g.value {
                out.append(DiffEntry(kind: .fieldChanged, subject: path, a: a.side(x, f), b: b.side(y, g)))
            }
        }
        for g in fb where !seen.contains(g.path) {
            seen.insert(g.path)
            out.append(DiffEntry(kind: .fieldAdded, subject: StoreKitSide.join(prefix, g.path), b: b.side(y, g)))
        }
        return out
    }
}

extension JWSDiff.Result {
    mutating func add(_ pair: (entries: [DiffEntry], signatures: DiffSignatures, pairs: [(Int, Int)]), pair tokens: (Int, Int)) {
        entries += pair.entries
        signatures = signatures ?? pair.signatures
        tokenPairs.append(tokens)
        tokenPairs += pair.pairs
    }
}
