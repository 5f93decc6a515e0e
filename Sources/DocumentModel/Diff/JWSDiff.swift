import JWSKit

/// Two StoreKit 2 documents: top-level tokens paired in order; payload fields by JSON path (nested
/// tokens by their own paths), then each pair's x5c certificates and signature.
enum JWSDiff {
    static func compare(_ a: StoreKitSide, _ b: StoreKitSide) -> (entries: [DiffEntry], signatures: DiffSignatures?) {
        var out: [DiffEntry] = []
        var signatures: DiffSignatures?
        let ta = a.topLevel, tb = b.topLevel
        for k in 0..<max(ta.count, tb.count) {
            guard k < ta.count, k < tb.count else {
                if k < ta.count {
                    out.append(DiffEntry(kind: .fieldRemoved, subject: a.path(ta[k]), a: a.tokenSide(ta[k])))
                } else {
                    out.append(DiffEntry(kind: .fieldAdded, subject: b.path(tb[k]), b: b.tokenSide(tb[k])))
                }
                continue
            }
            let (x, y) = counterparts(a, ta[k], b, tb[k])
            let pair = tokenEntries(a, x, b, y)
            out += pair.entries
            signatures = signatures ?? pair.signatures
        }
        return (out, signatures)
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

    /// One token against another: payload fields, nested tokens, then signing.
    static func tokenEntries(_ a: StoreKitSide, _ x: Int, _ b: StoreKitSide, _ y: Int) -> (entries: [DiffEntry], signatures: DiffSignatures) {
        let prefix = a.path(x)
        var out = fields(a, x, b, y, prefix: prefix)
        for nx in a.model.tokens.indices where a.token(nx).parent == x {
            guard let ny = b.model.tokens.indices.first(where: { b.token($0).parent == y && b.token($0).path == a.token(nx).path }),
                  a.token(nx).document.text != b.token(ny).document.text else { continue }
            out += tokenEntries(a, nx, b, ny).entries
        }
        let pair = DiffSignatures(certificatesA: a.certificates(x), certificatesB: b.certificates(y),
                                  signatureA: a.signature(x), signatureB: b.signature(y),
                                  sameSignature: a.token(x).document.signatureBytes == b.token(y).document.signatureBytes)
        out += SignatureDiff.entries(pair).map { entry in
            var e = entry
            if !prefix.isEmpty { e.subject = "\(prefix): \(e.subject)" }
            return e
        }
        return (out, pair)
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
