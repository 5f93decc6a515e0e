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
    /// integers; integers as decimals, which only a query of digits and `-` tests) at its
    /// attribute node, and its value nodes, so that the tree's own match on a value counts as the
    /// field: one hit per field, a purchase found once (by its product id field). O(fields),
    /// through `ReceiptFields`, which builds each `ReceiptField` it returns.
    static func searchEntries(receipt: Receipt) -> SearchEntries {
        var entries = SearchEntries()
        // The fields of each (level, type), in order of first appearance: a slot per type below
        // 4,096 at each level (every listed type), a dictionary for the rest.
        var named: [(type: Int, level: AttributeLevel, nodes: [Int32])] = []
        var slot = [Int](repeating: -1, count: 2 * 4096), otherSlot: [Int64: Int] = [:]
        func add(_ field: ReceiptField) {
            let node = field.attributeNode
            let inApp = field.level == .app ? 0 : 1
            let known = field.type >= 0 && field.type < 4096 ? slot[inApp * 4096 + field.type] : otherSlot[Int64(field.type) << 1 | Int64(inApp)] ?? -1
            if known >= 0 {
                named[known].nodes.append(Int32(truncatingIfNeeded: node))
            } else {
                named.append((field.type, field.level, [Int32(truncatingIfNeeded: node)]))
                if field.type >= 0 && field.type < 4096 { slot[inApp * 4096 + field.type] = named.count - 1 }
                else { otherSlot[Int64(field.type) << 1 | Int64(inApp)] = named.count - 1 }
            }
            entries.addField(attribute: node, values: [field.valueNode, field.innerNode])
            switch field.value {
            case .string(let s): entries.texts.add(s, node: node)
            case .integer(let v): entries.decimals.add(decimal: v, node: node)
            case .bigInteger(let s): entries.texts.add(s, node: node)
            case .date(let d): entries.texts.add(d.text, node: node)
            default: break  // a purchase is found through its own fields (its product id once)
            }
        }
        for field in receipt.fields { add(field) }
        for purchase in receipt.inApp {
            for field in purchase.fields { add(field) }
        }
        for (type, level, nodes) in named {
            entries.addName(ReceiptSchema.displayName(type: type, level: level), label: ReceiptSchema.label(type: type, level: level), nodes: nodes)
        }
        return entries
    }
}
