import ASN1Lenient
import JWSKit

extension DocumentDiff {
    /// How many structural entries a diff keeps by default (the rest are counted).
    public static let defaultStructuralLimit = 50

    /// Compares two opened documents: the semantic rules their kinds allow (two receipts, two
    /// StoreKit 2 inputs, a receipt against transactions), then the structure: for two ASN.1 inputs
    /// node by node, for two StoreKit 2 inputs layer by layer (`JWSStructure`). Pure: reads the
    /// documents, prints nothing.
    public static func compare(_ a: Document, _ b: Document, structuralLimit: Int = defaultStructuralLimit) -> DocumentDiff {
        // What each side is compared by is its format's decision (`DocumentOutputs.diffBasis`).
        let basisA = a.format.diffBasis(a), basisB = b.format.diffBasis(b)
        let receiptA = basisA == .receipt ? ReceiptSide(a) : nil, receiptB = basisB == .receipt ? ReceiptSide(b) : nil
        if let ra = receiptA, let rb = receiptB {
            var diff = DocumentDiff(comparison: .receipts, semantic: ReceiptDiff.entries(ra, rb))
            let signatures = SignatureDiff.compare(
                certificatesA: ra.certificates, certificatesB: rb.certificates,
                signatureA: ra.signature, signatureB: rb.signature,
                bytesA: a.fileLayer.bytes, bytesB: b.fileLayer.bytes)
            let signing = SignatureDiff.entries(signatures)
            if !signing.isEmpty, ra.payloadBytes.elementsEqual(rb.payloadBytes) {
                diff.semantic.append(DiffEntry(kind: .resigned, subject: "receipt", a: signatures.signatureA,
                                               b: signatures.signatureB,
                                               note: "same payload, different signature or certificates"))
            }
            diff.semantic += signing
            diff.signatures = signatures
            diff.addStructure(a, b, limit: structuralLimit)
            return diff
        }
        let storeKitA = basisA == .storeKitTokens ? StoreKitSide(a) : nil
        let storeKitB = basisB == .storeKitTokens ? StoreKitSide(b) : nil
        if let sa = storeKitA, let sb = storeKitB {
            let result = JWSDiff.compare(sa, sb)
            var diff = DocumentDiff(comparison: .jws, semantic: result.entries, signatures: result.signatures)
            var walk = StructuralDiff(a: a, b: b, limit: structuralLimit)
            JWSStructure(a: sa, b: sb).run(result.tokenPairs, into: &walk)
            diff.take(walk.log)
            return diff
        }
        if let ra = receiptA, let sb = storeKitB {
            return DocumentDiff(comparison: .receiptAndTransactions, semantic: CrossDiff.entries(ra, sb, receiptIsA: true))
        }
        if let sa = storeKitA, let rb = receiptB {
            return DocumentDiff(comparison: .receiptAndTransactions, semantic: CrossDiff.entries(rb, sa, receiptIsA: false))
        }
        var diff = DocumentDiff(comparison: .asn1)
        diff.addStructure(a, b, limit: structuralLimit)
        return diff
    }

    mutating func addStructure(_ a: Document, _ b: Document, limit: Int) {
        var walk = StructuralDiff(a: a, b: b, limit: limit)
        walk.run()
        take(walk.log)
    }

    mutating func take(_ log: StructuralLog) {
        structural = log.entries
        structuralOmitted = log.total - log.entries.count
        structuralContentChanges = log.contentChanges
    }
}
