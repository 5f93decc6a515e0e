import DocumentCore

/// The diff's hook: a format whose kinds are compared by more than their structure conforms in its
/// folder and gives the document's basis; nil (or no conformance): the structure only.
public protocol DiffBasisSource {
    func diffBasis(_ document: Document) -> (any DiffBasis)?
}

extension Document {
    /// What `diff` compares this document by beside its structure (its format's `DiffBasisSource`).
    public var diffBasis: (any DiffBasis)? { (format as? any DiffBasisSource)?.diffBasis(self) }
}

/// What a document is compared by beside its structure: the kind's side of `diff`, made by its
/// format (`DiffBasisSource.diffBasis`) in the kind's folder, with the kind's own engine. Two
/// documents whose bases know each other are compared by that engine; a pair whose bases both
/// give purchase records, one of them leading, by `CrossDiff`; any other pair by structure only.
public protocol DiffBasis {
    /// This side (A) against `other` (B) when this basis knows `other`'s kind (two receipts, two
    /// StoreKit 2 inputs); nil when it does not. `structuralLimit` caps the structural entries kept.
    func compare(with other: any DiffBasis, structuralLimit: Int) -> DocumentDiff?
    /// The document's purchases as a comparison across kinds reads them; nil: it has none to offer.
    func purchaseRecords() -> PurchaseRecords?
}

extension DiffBasis {
    public func purchaseRecords() -> PurchaseRecords? { nil }
}

/// One side's purchases for `CrossDiff`: a receipt's in-app purchases (the leading side: it names
/// the fields compared, as Apple's migration table maps them) or StoreKit 2 transactions.
public struct PurchaseRecords {
    /// True for the side whose fields are compared (a receipt); the other side is looked up by name.
    public var leads: Bool
    public var records: [PurchaseRecord]

    public init(leads: Bool, records: [PurchaseRecord]) {
        self.leads = leads
        self.records = records
    }
}

/// One purchase: how it is matched, what it is called, where it is, and its fields by shared name.
public struct PurchaseRecord {
    var identity: PurchaseIdentity
    /// The product id (the entries' subject).
    public var subject: String
    /// The purchase as a whole.
    public var side: DiffSide
    /// A leading side's fields in order (only those it has); for the other side, looked up by name.
    public var fields: [PurchaseRecordField]
    /// The other side's field of a shared name (nil: it has none).
    public var field: (String) -> PurchaseRecordField?

    package init(identity: PurchaseIdentity, subject: String, side: DiffSide, fields: [PurchaseRecordField] = [],
         field: @escaping (String) -> PurchaseRecordField? = { _ in nil }) {
        self.identity = identity
        self.subject = subject
        self.side = side
        self.fields = fields
        self.field = field
    }
}

/// A field as a cross-kind comparison reads it: `comparable` is the value compared (nil: absent),
/// `label` the leading side's name for it ("product_id").
public struct PurchaseRecordField {
    public var name: String
    public var label: String
    public var comparable: String?
    public var side: DiffSide?

    public init(name: String, label: String, comparable: String?, side: DiffSide?) {
        self.name = name
        self.label = label
        self.comparable = comparable
        self.side = side
    }
}
