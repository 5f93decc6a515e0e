import DocumentCore

/// How a purchase is recognised on both sides of a diff: a receipt's in-app purchase and a StoreKit 2
/// transaction alike are matched by transaction id, else by original transaction id and purchase date.
package struct PurchaseIdentity {
    package var transactionID: String?
    package var originalTransactionID: String?
    /// Milliseconds since 1970.
    package var purchaseDate: Int64?

    /// Whether the transaction id is missing, so the fallback key matches.
    package var isFallback: Bool { transactionID?.isEmpty ?? true }

    /// The transaction id, or "original@milliseconds" when it is missing.
    package var key: String {
        if let id = transactionID, !id.isEmpty { return id }
        return "\(originalTransactionID ?? "?")@\(purchaseDate.map { String($0) } ?? "?")"
    }

    /// What an entry matched by the fallback key says about it.
    package static let fallbackNote = "matched by original transaction id and purchase date (no transaction id)"
    package init(transactionID: String? = nil, originalTransactionID: String? = nil, purchaseDate: Int64? = nil) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.purchaseDate = purchaseDate
    }
}

/// Two lists of purchases paired by key (a repeated key pairs in order), and the unmatched ones of
/// side B told apart: a renewal continues a subscription chain of side A (same original
/// transaction id, purchased after the chain's latest purchase on A), anything else was added.
package struct PurchasePairing {
    /// For each purchase of A, in A's order: its counterpart on B, nil when it was removed.
    package var counterpartOfA: [Int?] = []
    /// The purchases of B without a counterpart, in B's order, each with the chain it continues.
    package var unmatchedB: [(index: Int, continuesChain: String?)] = []

    package init(_ a: [PurchaseIdentity], _ b: [PurchaseIdentity]) {
        var indexB: [String: [Int]] = [:]
        for (j, p) in b.enumerated().reversed() { indexB[p.key, default: []].append(j) }
        var matchedB = [Bool](repeating: false, count: b.count)
        for p in a {
            let j = indexB[p.key]?.popLast()
            if let j { matchedB[j] = true }
            counterpartOfA.append(j)
        }
        var chainEnd: [String: Int64] = [:]
        for p in a {
            guard let chain = p.originalTransactionID, let date = p.purchaseDate else { continue }
            chainEnd[chain] = max(chainEnd[chain] ?? date, date)
        }
        for (j, q) in b.enumerated() where !matchedB[j] {
            var chain: String?
            if let original = q.originalTransactionID, let end = chainEnd[original], let date = q.purchaseDate, date > end {
                chain = original
            }
            unmatchedB.append((j, chain))
        }
    }

    /// "continues subscription chain …" for a renewal.
    package static func renewalNote(_ chain: String) -> String { "continues subscription chain \(chain)" }

    /// Notes joined: a refund's or renewal's note, and the fallback note when the key was not an id.
    package static func note(_ parts: String?...) -> String? {
        let present = parts.compactMap { $0 }
        return present.isEmpty ? nil : present.joined(separator: "; ")
    }
}
