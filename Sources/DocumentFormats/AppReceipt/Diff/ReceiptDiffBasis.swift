import JWSKit
import ReceiptKit
import DocumentCore
import DocumentDiff

/// The receipt's side of `diff`: two receipts by attributes, purchases and signing, then structure;
/// against StoreKit 2 transactions it leads (`CrossDiff`), its fields named by Apple's migration table.
extension ReceiptSide: DiffBasis {
    func compare(with other: any DiffBasis, structuralLimit: Int) -> DocumentDiff? {
        guard let rb = other as? ReceiptSide else { return nil }
        let ra = self, a = document, b = rb.document
        let signatures = SignatureDiff.compare(
            certificatesA: ra.certificates, certificatesB: rb.certificates,
            signatureA: ra.signature, signatureB: rb.signature,
            bytesA: a.fileLayer.bytes.array, bytesB: b.fileLayer.bytes.array)
        let signing = SignatureDiff.entries(signatures)
        var diff = DocumentDiff(comparison: .receipts, semantic: ReceiptDiff.entries(ra, rb))
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

    /// (in-app attribute type, JWS transaction field) for every one-to-one row of the table; the
    /// Apple-private product type (1707) has no one-to-one JWS value and is left out.
    static let mappings: [(type: Int, field: String)] = ReceiptFieldMap.rows.compactMap { row in
        let prefix = "JWSTransactionDecodedPayload."
        guard let type = row.attributeType, type >= 1701, type != 1707, row.jws.hasPrefix(prefix) else { return nil }
        let field = String(row.jws.dropFirst(prefix.count))
        guard field.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        return (type, field)
    }

    func purchaseRecords() -> PurchaseRecords? {
        PurchaseRecords(leads: true, records: receipt.inApp.map { p in
            let fields = Self.mappings.compactMap { type, name -> PurchaseRecordField? in
                // A receipt that leaves an attribute out says nothing about it (Xcode receipts omit
                // 1705, 1706 and 1711); an empty one says "none", which a StoreKit 2 value contradicts.
                guard let field = p.field(type) else { return nil }
                return PurchaseRecordField(name: name, label: ReceiptSchema.displayName(type: type, level: .inApp),
                                           comparable: Self.comparable(field, receipt), side: side(field))
            }
            return PurchaseRecord(identity: ReceiptDiff.identity(p), subject: p.productID ?? "", side: side(p), fields: fields)
        })
    }

    /// The value a receipt field is compared by: dates as whole seconds (receipts write whole
    /// seconds, StoreKit 2 milliseconds, Xcode's with a fraction), empty dates as absent, and a web
    /// order line item id of 0 as absent (receipts write 0 for purchases that are not subscriptions;
    /// StoreKit 2 leaves the field out or writes "0").
    static func comparable(_ f: ReceiptField, _ receipt: Receipt) -> String? {
        if f.type == 1711, f.value.integer == 0 { return nil }
        switch f.value {
        case .date(let d): return "date " + String(floorSeconds(Double(d.epochMilliseconds)))
        case .absentDate: return nil
        default:
            let text = ReceiptSide.text(f, receipt)
            return text.isEmpty ? nil : text
        }
    }
}
