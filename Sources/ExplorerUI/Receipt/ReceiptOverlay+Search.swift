import ReceiptKit

extension ReceiptOverlay {
    /// What `/` finds through the receipt beyond the tree's own nodes, for `TreeSearchIndex`:
    /// the adapter's entries (`entriesForSearch`), or, for an overlay built by hand, each meaning's
    /// label, field name, decoded value and raw date at its node. Made once, on the first search.
    func searchEntries() -> SearchEntries {
        if let entriesForSearch { return entriesForSearch() }
        var entries = SearchEntries()
        for node in Set(meanings.keys).union(searchableNodes).sorted() {
            guard let meaning = meaning(of: node) else { continue }
            for text in [meaning.label, meaning.fieldName ?? "", meaning.decodedValue ?? "", meaning.rawDate ?? ""] where !text.isEmpty {
                entries.texts.add(text, node: node)
            }
        }
        return entries
    }

    /// A decoded receipt's entries: each field's name and label (once per level and type, with the
    /// attribute node of every field that has it), its value (strings, dates as written, big
    /// integers; integers as decimals, which only a query of digits and `-` tests; a purchase
    /// field by the purchase's product id) at its attribute node, and each purchase's product id
    /// at its SET. O(fields), through `ReceiptFields`, which builds each `ReceiptField` it returns.
    static func searchEntries(receipt: Receipt) -> SearchEntries {
        var entries = SearchEntries()
        var named: [Int64: [Int32]] = [:]
        var order: [(type: Int, level: AttributeLevel)] = []
        func add(_ field: ReceiptField) {
            let node = field.attributeNode
            let key = Int64(field.type) << 1 | (field.level == .app ? 0 : 1)
            if named[key] == nil { order.append((field.type, field.level)) }
            named[key, default: []].append(Int32(truncatingIfNeeded: node))
            switch field.value {
            case .string(let s): entries.texts.add(s, node: node)
            case .integer(let v): entries.decimals.add(decimal: v, node: node)
            case .bigInteger(let s): entries.texts.add(s, node: node)
            case .date(let d): entries.texts.add(d.text, node: node)
            case .inAppPurchase(let i):
                if i >= 0, i < receipt.inApp.count, let product = receipt.inApp[i].productID { entries.texts.add(product, node: node) }
            default: break
            }
        }
        for field in receipt.fields { add(field) }
        for purchase in receipt.inApp {
            if let set = purchase.setNode, let product = purchase.productID { entries.texts.add(product, node: set) }
            for field in purchase.fields { add(field) }
        }
        for (type, level) in order {
            entries.addName(ReceiptSchema.displayName(type: type, level: level), label: ReceiptSchema.label(type: type, level: level),
                            nodes: named[Int64(type) << 1 | (level == .app ? 0 : 1)] ?? [])
        }
        return entries
    }
}
