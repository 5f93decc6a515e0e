import DocumentCore

/// What a `DocumentDiff` compared: the pair's shapes decide which semantic rules apply.
public enum DiffComparison: String, Sendable, Equatable {
    /// Two PKCS#7 receipts: attributes, purchases, certificates, signature, then the ASN.1 structure.
    case receipts
    /// Two StoreKit 2 inputs (tokens or bodies): fields by JSON path, transactions by transaction id,
    /// signing, then each matched token's layers (characters, header and payload JSON, x5c DER, signature).
    case jws
    /// A receipt against StoreKit 2 transactions (a token, a history response, a notification).
    case receiptAndTransactions = "receipt-and-transactions"
    /// Anything else: the ASN.1 structure only.
    case asn1
}

/// What one entry says.
public enum DiffKind: String, Sendable, Equatable, CaseIterable {
    // Receipts: app-level attributes, by type.
    case attributeAdded = "attribute-added", attributeRemoved = "attribute-removed", attributeChanged = "attribute-changed"
    // Receipts: in-app purchases, matched by transaction id.
    case purchaseAdded = "purchase-added", purchaseRemoved = "purchase-removed", purchaseChanged = "purchase-changed"
    /// A purchase whose cancellation date appeared, or a transaction whose revocationDate did.
    case refund
    /// An added purchase that continues a subscription chain of the other side (same original
    /// transaction id, later purchase date).
    case renewal
    /// Same payload (fields), different signature or certificates; for a StoreKit 2 transaction
    /// also a new signedDate.
    case resigned
    case certificateAdded = "certificate-added", certificateRemoved = "certificate-removed"
    case signatureChanged = "signature-changed"
    // StoreKit 2: JSON fields by path (payload, header) and transactions.
    case fieldAdded = "field-added", fieldRemoved = "field-removed", fieldChanged = "field-changed"
    case transactionAdded = "transaction-added", transactionRemoved = "transaction-removed"
    case transactionChanged = "transaction-changed"
    // Structure: node by node.
    /// Equal decoded values, different bytes (DER vs BER, chunked strings, indefinite lengths).
    case reencoded
    case contentChanged = "content-changed"
    case nodeAdded = "node-added", nodeRemoved = "node-removed"

    /// Entries that say nothing about content: a re-encoding alone leaves two inputs equivalent.
    public var isEncodingOnly: Bool { self == .reencoded }
}

/// One side's part of an entry: the node (typed, layer + index) when the side has one, its byte
/// range in that node's layer, the same bytes in the file layer, and the value shown.
public struct DiffSide: Sendable, Equatable {
    public var node: NodeID?
    /// The layer of `range` when it has no node (a token's characters, a signature); nil with a
    /// node (its layer) or for the file layer.
    public var layer: LayerID?
    /// Range in `node`'s layer (else in `layer`, else in the file layer).
    public var range: Range<Int>?
    /// The same bytes in the file as loaded (decoded DER, or the token / body text).
    public var fileRange: Range<Int>?
    /// The value as text, unescaped (renderers escape it).
    public var value: String?
    /// The ASN.1 node path ("SEQUENCE > [0] > …") for structural entries.
    public var path: String?

    public init(node: NodeID? = nil, layer: LayerID? = nil, range: Range<Int>? = nil, fileRange: Range<Int>? = nil,
                value: String? = nil, path: String? = nil) {
        self.node = node
        self.layer = layer
        self.range = range
        self.fileRange = fileRange
        self.value = value
        self.path = path
    }
}

extension DiffSide {
    /// The layer `range` is in.
    public var rangeLayer: LayerID { node?.layer ?? layer ?? .file }
}

/// One difference. Purchase and transaction entries list their changed fields in `fields`.
public struct DiffEntry: Sendable, Equatable {
    public var kind: DiffKind
    /// What differs: "bundle id (attribute 2)", "purchaseDate", a transaction id, a node path.
    public var subject: String
    /// The transaction id (or fallback key) of a purchase / transaction entry.
    public var key: String?
    public var a: DiffSide?
    public var b: DiffSide?
    public var fields: [DiffEntry]
    /// A short explanation: "cancellation date appeared", "indefinite length vs definite".
    public var note: String?

    public init(kind: DiffKind, subject: String, key: String? = nil, a: DiffSide? = nil, b: DiffSide? = nil,
                fields: [DiffEntry] = [], note: String? = nil) {
        self.kind = kind
        self.subject = subject
        self.key = key
        self.a = a
        self.b = b
        self.fields = fields
        self.note = note
    }
}

/// One certificate a side carries, by SHA-256 fingerprint.
public struct DiffCertificate: Sendable, Equatable {
    public var sha256: String
    public var subject: String
    public var node: NodeID?
    /// The certificate's DER in `node`'s layer (its own layer for an x5c entry).
    public var range: Range<Int>?
    public var fileRange: Range<Int>?

    public init(sha256: String, subject: String, node: NodeID? = nil, range: Range<Int>? = nil, fileRange: Range<Int>? = nil) {
        self.sha256 = sha256
        self.subject = subject
        self.node = node
        self.range = range
        self.fileRange = fileRange
    }
}

/// The certificates and signatures of both sides, for "same or not, and which".
public struct DiffSignatures: Sendable, Equatable {
    public var certificatesA: [DiffCertificate]
    public var certificatesB: [DiffCertificate]
    public var signatureA: DiffSide?
    public var signatureB: DiffSide?
    public var sameSignature: Bool

    public var sameCertificates: Bool { certificatesA.map(\.sha256) == certificatesB.map(\.sha256) }
    package init(certificatesA: [DiffCertificate], certificatesB: [DiffCertificate], signatureA: DiffSide? = nil, signatureB: DiffSide? = nil, sameSignature: Bool) {
        self.certificatesA = certificatesA
        self.certificatesB = certificatesB
        self.signatureA = signatureA
        self.signatureB = signatureB
        self.sameSignature = sameSignature
    }
}

/// The result of comparing two documents: semantic entries first, then the structural ones, for the
/// text / JSON outputs and the explorer's diff list. A value; entries made when read keep what they
/// are made from (`DiffEntries`).
public struct DocumentDiff: Sendable, Equatable {
    public var comparison: DiffComparison
    /// Made when read where a kind's engine says so (`DiffEntries`): read them while written.
    public var semantic: DiffEntries
    /// Structural entries in byte order of side A, at most `structuralLimit` of them.
    public var structural: [DiffEntry]
    /// How many structural entries were left out beyond the limit.
    public var structuralOmitted: Int
    /// Structural entries that are not re-encodings, the omitted ones included.
    public var structuralContentChanges: Int
    /// Nil when neither side is signed (plain ASN.1) or for a receipt against transactions.
    public var signatures: DiffSignatures?

    public init(comparison: DiffComparison, semantic: DiffEntries = [], structural: [DiffEntry] = [],
                structuralOmitted: Int = 0, structuralContentChanges: Int = 0, signatures: DiffSignatures? = nil) {
        self.comparison = comparison
        self.semantic = semantic
        self.structural = structural
        self.structuralOmitted = structuralOmitted
        self.structuralContentChanges = structuralContentChanges
        self.signatures = signatures
    }

    /// Equivalent: the same decoded content. No semantic entry and no structural entry other than
    /// a re-encoding (DER vs BER, chunked strings, indefinite lengths): a receipt re-encoded is
    /// still the same receipt, with the same signature. A re-signed receipt is not equivalent.
    public var isEquivalent: Bool {
        semantic.isEmpty && structuralContentChanges == 0
    }

    /// Every entry, semantic then structural.
    public var entries: [DiffEntry] { Array(semantic) + structural }
}
