import ASN1Lenient
import ByteText

/// Search over every node (a query runs when Enter is pressed, not per key). Matches,
/// case-insensitively, a node's tag name, its decoded value (string contents, integers in decimal,
/// OIDs dotted and by name, hex of short octet strings), and the receipt meaning (field names,
/// product ids and every other decoded receipt value).
public enum Search {
    /// The nodes of `tree` matching `needle` (lower case), ascending, from its index (and, for a
    /// `0x` query, a scan of the values' bytes).
    static func nodes(matching needle: [UInt8], in tree: Tree, index: TreeSearchIndex) -> [Int] {
        let hex = hexNeedle(needle)
        guard !hex.isEmpty else { return index.nodes(matching: needle, count: tree.count) }
        // A `0x` query also matches values' bytes in hex, which the index does not hold: the tree
        // is scanned node by node, the receipt's entries come from the index.
        // is scanned node by node (no tag name holds "0x", so every hit is a value: it counts as
        // its field's), the receipt's entries come from the index.
        let values = scan(needle, hexNeedle: hex, in: tree).map(index.entries.field(of:)).sorted()
        return TreeSearchIndex.mergeUnique(values, index.nodes(matching: needle, count: tree.count, treeNodes: false))
    }

    /// A query of digits and `-` only also matches INTEGER values (and receipt integers) in decimal.
    static func isDecimalQuery(_ needle: [UInt8]) -> Bool {
        needle.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }

    /// "0x…" searches the bytes of short INTEGER / OCTET STRING / BIT STRING values in hex: the
    /// hex digits after the prefix (spaces dropped), or nothing when the query is not one.
    static func hexNeedle(_ needle: [UInt8]) -> [UInt8] {
        guard needle.count > 2, needle[0] == 0x30, needle[1] == 0x78 else { return [] }
        let rest = needle.dropFirst(2).filter { $0 != 0x20 }
        return rest.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) ? Array(rest) : []
    }

    /// The tree's own matches, node by node, O(n) per query: a node's tag name, its decoded value
    /// (string contents, integers in decimal, OIDs dotted and by name, hex of short values for a
    /// `0x` query). `TreeSearchIndex` holds the same for every other query (tests compare the two).
    static func scan(_ needle: [UInt8], hexNeedle: [UInt8], in tree: Tree) -> [Int] {
        let nodes = tree.nodes
        let bytes = tree.bytes
        var hits: [Int] = []
        // Universal tag names match or not once per tag number, not once per node.
        var universalMatch = [Bool](repeating: false, count: 31)
        for number in 0..<31 { universalMatch[number] = contains(Array(UniversalTag.name(UInt32(number)).lowercased().utf8), needle) }
        let digitsOnly = isDecimalQuery(needle)
        bytes.withUnsafeBufferPointer { buffer in
            for index in nodes.indices {
                let node = nodes[index]
                if node.kind == .unparsed {
                    if contains(Array("unparsed".utf8), needle) { hits.append(index) }
                    continue
                }
                if node.tagClass == .universal {
                    if node.tagNumber < 31 {
                        if universalMatch[Int(node.tagNumber)] { hits.append(index); continue }
                    } else if contains(Array(tree.tagName(of: index).lowercased().utf8), needle) {
                        hits.append(index); continue
                    }
                } else if contains(Array(tree.tagName(of: index).lowercased().utf8), needle) {
                    hits.append(index); continue
                }
                guard node.tagClass == .universal, !node.isConstructed else { continue }
                let content = UnsafeBufferPointer(rebasing: buffer[node.contentRange.clamped(to: 0..<buffer.count)])
                switch node.tagNumber {
                case 12, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27:
                    if containsFolded(content, needle) { hits.append(index) }
                case 30, 28:
                    if case .string(let text, _)? = tree.value(of: index), contains(Array(text.lowercased().utf8), needle) {
                        hits.append(index)
                    }
                case 2, 10:
                    if digitsOnly, content.count <= 64, case .integer(let decimal, _)? = tree.value(of: index),
                       contains(Array(decimal.utf8), needle) {
                        hits.append(index)
                    } else if !hexNeedle.isEmpty, content.count <= 64, containsHex(content, hexNeedle) {
                        hits.append(index)
                    }
                case 6:
                    if case .objectIdentifier(let dotted, let name)? = tree.value(of: index),
                       contains(Array(dotted.utf8), needle) || contains(Array((name ?? "").lowercased().utf8), needle) {
                        hits.append(index)
                    }
                case 4, 3:
                    // An encapsulating string's bytes are its children's: they match on their own.
                    if node.isEncapsulated { break }
                    if !hexNeedle.isEmpty, content.count <= 4096, containsHex(content, hexNeedle) { hits.append(index) }
                    else if node.tagNumber == 4, content.count <= 4096, containsFolded(content, needle) { hits.append(index) }
                case 1:
                    let word = content.first.map { $0 == 0 ? "false" : "true" } ?? ""
                    if contains(Array(word.utf8), needle) { hits.append(index) }
                default:
                    break
                }
            }
        }
        return hits
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8], fold: Bool = false) -> Bool {
        haystack.withUnsafeBufferPointer { containsFolded($0, needle, fold: fold) }
    }

    /// Case-insensitive (ASCII) substring test on a string's UTF-8, without copying it when the
    /// string is native.
    static func contains(_ text: String, _ needle: [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { containsFolded($0, needle) }
    }

    /// Substring test with ASCII case folding of the haystack (the needle is already lower case).
    static func containsFolded(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8], fold: Bool = true) -> Bool {
        let n = needle.count, m = haystack.count
        guard n > 0, n <= m else { return n == 0 }
        let first = needle[0]
        var i = 0
        while i <= m - n {
            var c = haystack[i]
            if fold && c >= 0x41 && c <= 0x5A { c |= 0x20 }
            if c == first {
                var j = 1
                while j < n {
                    var d = haystack[i + j]
                    if fold && d >= 0x41 && d <= 0x5A { d |= 0x20 }
                    if d != needle[j] { break }
                    j += 1
                }
                if j == n { return true }
            }
            i += 1
        }
        return false
    }

    /// Does the lower-case hex rendering of `bytes` contain `hexNeedle` (lower-case hex digits)?
    static func containsHex(_ bytes: UnsafeBufferPointer<UInt8>, _ hexNeedle: [UInt8]) -> Bool {
        var rendered: [UInt8] = []
        rendered.reserveCapacity(bytes.count * 2)
        for b in bytes { Hex.append(b, to: &rendered, .lower) }
        return rendered.withUnsafeBufferPointer { containsFolded($0, hexNeedle, fold: false) }
    }
}
