import ReceiptKit
import DocumentCore

/// What `/` finds through a decoded receipt beyond the tree's own nodes (`ExplorerAdditions.fieldSearch`).
struct ReceiptSearchEntries: FieldSearchEntries {
    let receipt: Receipt

    /// A decoded receipt's entries: each field's name and label (once per level and type, with the
    /// attribute node of every field that has it), its value (strings, dates as written, big
    /// integers; integers as decimals, which only a query of digits and `-` tests) at its
    /// attribute node, and its value nodes, so that the tree's own match on a value counts as the
    /// field: one hit per field, a purchase found once (by its product id field). O(fields),
    /// through `ReceiptFields`, which builds each `ReceiptField` it returns.
    func write<Sink: FieldSearchSink>(into entries: inout Sink) {
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
            case .string(let s): entries.addText(s, node: node)
            case .integer(let v): entries.addDecimal(v, node: node)
            case .bigInteger(let s): entries.addText(s, node: node)
            case .date(let d): entries.addText(d.text, node: node)
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
    }
}
