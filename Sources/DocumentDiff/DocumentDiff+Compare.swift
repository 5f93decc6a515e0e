import ASN1Lenient
import DocumentCore

extension DocumentDiff {
    /// How many structural entries a diff keeps by default (the rest are counted).
    public static let defaultStructuralLimit = 50

    /// Compares two opened documents: the semantic rules their kinds allow (two receipts, two
    /// StoreKit 2 inputs, a receipt against transactions: the kinds' engines), then the structure
    /// (node by node, or as the kind's engine walks its layers). Pure: reads the documents, prints nothing.
    public static func compare(_ a: Document, _ b: Document, structuralLimit: Int = defaultStructuralLimit) -> DocumentDiff {
        // What each side is compared by is its format's decision (`DiffBasisSource`), and each
        // kind's engine lives with its format.
        if let basisA = a.diffBasis, let basisB = b.diffBasis {
            if let diff = basisA.compare(with: basisB, structuralLimit: structuralLimit) { return diff }
            if let ra = basisA.purchaseRecords(), let rb = basisB.purchaseRecords(), ra.leads != rb.leads {
                let semantic = ra.leads ? CrossDiff.entries(ra, rb, leadIsA: true) : CrossDiff.entries(rb, ra, leadIsA: false)
                return DocumentDiff(comparison: .receiptAndTransactions, semantic: DiffEntries(semantic))
            }
        }
        var diff = DocumentDiff(comparison: .asn1)
        diff.addStructure(a, b, limit: structuralLimit)
        return diff
    }

    package mutating func addStructure(_ a: Document, _ b: Document, limit: Int) {
        var walk = StructuralDiff(a: a, b: b, limit: limit)
        walk.run()
        take(walk.log)
    }

    package mutating func take(_ log: StructuralLog) {
        structural = log.entries
        structuralOmitted = log.total - log.entries.count
        structuralContentChanges = log.contentChanges
    }
}
