/// Where a kind writes what `/` finds through its fields: the explorer's search index adopts it, so
/// a format fills the index directly (no list of entries in between: a 10,000-purchase receipt has
/// over 100,000 fields).
public protocol FieldSearchSink {
    /// Text a match in selects `node` (a field's value, a date as written).
    mutating func addText(_ text: String, node: Int)
    /// An integer value, matched by a query of digits and `-` only.
    mutating func addDecimal(_ value: Int64, node: Int)
    /// A field's value nodes: a match on one of them in the tree counts as one hit on the field's `attribute` node.
    mutating func addField(attribute: Int, values: [Int?])
    /// A field's name and label, once for every field that has them (their attribute nodes).
    mutating func addName(_ name: String, label: String, nodes: [Int32])
}

/// A kind's searchable fields, written into the explorer's index on the first search.
public protocol FieldSearchEntries: Sendable {
    func write<Sink: FieldSearchSink>(into sink: inout Sink)
}
