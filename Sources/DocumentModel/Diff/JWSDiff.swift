import JWSKit

/// Two StoreKit 2 inputs: tokens paired in order; payload fields by JSON path (nested tokens by
/// their own paths), then the header's certificates and the signature of each pair.
enum JWSDiff {
    static func compare(_ a: StoreKitSide, _ b: StoreKitSide) -> (entries: [DiffEntry], signatures: DiffSignatures?) {
        var out: [DiffEntry] = []
        var signatures: DiffSignatures?
        for k in 0..<max(a.tokens.count, b.tokens.count) {
            guard k < a.tokens.count, k < b.tokens.count else {
                let token = k < a.tokens.count ? a.tokens[k] : b.tokens[k]
                let side = DiffSide(fileRange: token.document.enclosingRange(0..<token.document.text.count))
                out.append(DiffEntry(kind: k < a.tokens.count ? .fieldRemoved : .fieldAdded, subject: token.path,
                                     a: k < a.tokens.count ? side : nil, b: k < a.tokens.count ? nil : side))
                continue
            }
            let (x, y) = (a.tokens[k], b.tokens[k])
            out += fields(a, x, b, y, prefix: x.path)
            let pair = DiffSignatures(certificatesA: StoreKitSide.certificates(x), certificatesB: StoreKitSide.certificates(y),
                                      signatureA: a.signature(x), signatureB: b.signature(y),
                                      sameSignature: x.document.signatureBytes == y.document.signatureBytes)
            out += SignatureDiff.entries(pair).map { entry in
                var e = entry
                if !x.path.isEmpty { e.subject = "\(x.path): \(e.subject)" }
                return e
            }
            signatures = signatures ?? pair
        }
        return (out, signatures)
    }

    /// Payload fields by path: objects are walked through their members, nested tokens compared as
    /// tokens of their own (prefixed with their path).
    static func fields(_ a: StoreKitSide, _ x: StoreKitSide.Token, _ b: StoreKitSide, _ y: StoreKitSide.Token,
                       prefix: String) -> [DiffEntry] {
        var out: [DiffEntry] = []
        let fa = x.document.payload.fields, fb = y.document.payload.fields
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
            if case .nestedToken(let ia) = f.value, case .nestedToken(let ib) = g.value,
               ia < x.document.nested.count, ib < y.document.nested.count {
                let nx = StoreKitSide.Token(path: path, document: x.document.nested[ia].document,
                                            carriers: x.carriers + [x.document])
                let ny = StoreKitSide.Token(path: path, document: y.document.nested[ib].document,
                                            carriers: y.carriers + [y.document])
                if nx.document.text != ny.document.text { out += fields(a, nx, b, ny, prefix: path) }
                continue
            }
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
