import JSONLenient
import JWSKit
import DocumentCore
import DocumentDiff

/// The tokens' side of `diff`: two StoreKit 2 inputs by fields, transactions and signing, then each
/// matched token's layers (`JWSStructure`); against a receipt, its transactions by field name.
extension StoreKitSide: DiffBasis {
    func compare(with other: any DiffBasis, structuralLimit: Int) -> DocumentDiff? {
        guard let sb = other as? StoreKitSide else { return nil }
        let result = JWSDiff.compare(self, sb)
        var diff = DocumentDiff(comparison: .jws, semantic: DiffEntries(result.entries), signatures: result.signatures)
        var walk = StructuralDiff(a: document, b: sb.document, limit: structuralLimit)
        JWSStructure(a: self, b: sb).run(result.tokenPairs, into: &walk)
        diff.take(walk.log)
        return diff
    }

    func purchaseRecords() -> PurchaseRecords? {
        PurchaseRecords(leads: false, records: transactions.map { t in
            let payload = token(t).document.payload
            return PurchaseRecord(identity: identity(t), subject: payload.string("productId") ?? "", side: transactionSide(t)) { name in
                payload.field(name).map { PurchaseRecordField(name: name, label: name, comparable: Self.comparable($0), side: side(t, $0)) }
            }
        })
    }

    static func comparable(_ f: StoreKitField) -> String? {
        switch f.value {
        case .date(let ms, _): return "date " + String(floorSeconds(ms))
        case .string(let s): return f.name == "webOrderLineItemId" && s == "0" ? nil : s
        case .integer(let i): return String(i)
        case .null: return nil
        default: return f.value.display
        }
    }
}
