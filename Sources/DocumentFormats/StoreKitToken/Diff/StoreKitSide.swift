import ASN1Lenient
import JSONLenient
import JWSKit
import ReceiptKit
import X509Trust
import ByteText
import DocumentCore
import DocumentDiff

/// A StoreKit 2 document as the diff reads it (one whose format's `diffBasis` is `.storeKitTokens`):
/// its tokens, each with its layers, so that every field refers to its JSON node in the payload
/// layer and its bytes in the file.
struct StoreKitSide {
    let document: Document
    let model: JWSModel

    /// Nil when the document carries no token model.
    init?(_ document: Document) {
        guard let model = document.jws, !model.tokens.isEmpty else { return nil }
        self.document = document
        self.model = model
    }

    /// A JSON body whose signed parts are not tokens (a V1 offer signature, a Retention Messaging
    /// reply without one): compared by its fields, as a body's own fields are.
    init?(body document: Document) {
        guard let model = document.jws, model.body != nil else { return nil }
        self.document = document
        self.model = model
    }

    /// Indices of the tokens not nested in another one, in document order.
    var topLevel: [Int] { model.tokens.indices.filter { model.tokens[$0].parent == nil } }

    /// Every transaction, nested ones (a notification's signedTransactionInfo) included: a payload
    /// with a transactionId, or a token where only transactions go (whose id may be missing).
    var transactions: [Int] { model.tokens.indices.filter(isTransaction) }

    func token(_ index: Int) -> JWSToken { model.tokens[index] }

    func isTransaction(_ index: Int) -> Bool {
        let t = model.tokens[index]
        if t.document.payload.kind == .transaction { return true }
        guard t.document.payload.kind == .unknown, let path = t.path else { return false }
        return path.hasPrefix("signedTransactions[") || path.hasSuffix("signedTransactionInfo")
    }

    /// The JSON string nodes of `layer` that hold a token (compared as tokens, not as strings).
    func tokenStrings(in layer: LayerID) -> Set<Int> {
        guard let json = document.layer(layer).json else { return [] }
        var starts = Set<Int>()
        for t in model.tokens {
            let holder = t.parent.flatMap { model.tokens[$0].layers.payload } ?? .file
            if holder == layer, document.layer(t.layers.token).parent != nil { starts.insert(t.rangeInParent.lowerBound) }
        }
        return Set(json.nodes.indices.filter { json[$0].kind == .string && starts.contains(json[$0].start + 1) })
    }

    /// The full path of a token: its body path, then the nested paths of the tokens carrying it.
    func path(_ index: Int) -> String {
        let t = model.tokens[index]
        let own = t.path ?? ""
        guard let parent = t.parent else { return own }
        return Self.join(path(parent), own)
    }

    static func join(_ a: String, _ b: String) -> String { JSONStructure.join(a, b) }

    /// A payload field's value: its JSON node in the payload layer and the file bytes that encode it.
    func side(_ index: Int, _ field: StoreKitField) -> DiffSide {
        let t = model.tokens[index]
        guard let layer = t.layers.payload, let json = t.document.payloadJSON,
              let node = field.valueNode, node.index < json.count else {
            return DiffSide(value: field.value.display)
        }
        let range = json[node.index].range
        return DiffSide(node: NodeID(layer, node.index), range: range, fileRange: document.fileRange(range, in: layer),
                        value: field.value.display)
    }

    /// The whole token: its characters' layer and where they sit in the file.
    func tokenSide(_ index: Int) -> DiffSide {
        let t = model.tokens[index]
        let range = 0..<t.document.text.count
        let path = path(index)
        return DiffSide(layer: t.layers.token, range: range, fileRange: document.fileRange(range, in: t.layers.token),
                        value: path.isEmpty ? nil : path)
    }

    /// How a transaction is matched across documents (`PurchasePairing`).
    func identity(_ index: Int) -> PurchaseIdentity {
        let payload = model.tokens[index].document.payload
        var date: Int64?
        // A payload the schema could not type (no transactionId) keeps its date as a plain number.
        switch payload.value("purchaseDate") {
        case .date(let ms, _)?, .number(let ms)?: if ms.isFinite, abs(ms) < 9e18 { date = Int64(ms) }
        case .integer(let ms)?: date = ms
        default: break
        }
        return PurchaseIdentity(transactionID: payload.string("transactionId"),
                                originalTransactionID: payload.string("originalTransactionId"), purchaseDate: date)
    }

    /// A transaction as a whole: its payload JSON's root object (a node, so the explorer can show
    /// it), with the token's path as the value.
    func transactionSide(_ index: Int) -> DiffSide {
        let t = model.tokens[index]
        guard let layer = t.layers.payload, let json = t.document.payloadJSON, let root = json.root else { return tokenSide(index) }
        let range = json[root].range
        let path = path(index)
        return DiffSide(node: NodeID(layer, root), range: range, fileRange: document.fileRange(range, in: layer),
                        value: path.isEmpty ? nil : path)
    }

    /// The x5c certificates of a token, leaf first, each the root node of its DER layer.
    func certificates(_ index: Int) -> [DiffCertificate] {
        let t = model.tokens[index]
        return t.document.header.certificates.enumerated().map { position, cert in
            let names = RFC2253Name.certificateNames(der: cert.der)
            let layer = position < t.layers.certificates.count ? t.layers.certificates[position] : nil
            let root = layer.flatMap { document.layer($0).tree?.roots.first }
            return DiffCertificate(sha256: names == nil ? "" : Digest.hex(Digest.sha256(cert.der)), subject: names?.subject ?? "(unreadable certificate)",
                                   node: layer.flatMap { l in root.map { NodeID(l, $0) } },
                                   range: layer == nil ? nil : 0..<cert.der.count, fileRange: layer.map { document.fileRange(0..<cert.der.count, in: $0) })
        }
    }

    func signature(_ index: Int) -> DiffSide? {
        let t = model.tokens[index]
        guard let layer = t.layers.signature else { return nil }
        let bytes = t.document.signatureBytes
        let range = 0..<bytes.count
        return DiffSide(layer: layer, range: range, fileRange: document.fileRange(range, in: layer),
                        value: "\(bytes.count) bytes \(Hex.string(bytes.prefix(8), .lower))…")
    }
}
