import DocumentCore

/// Some of a document's layer names, kept apart from the document in one buffer. A name is a
/// string of its own in the document (a heap block for any longer than 15 bytes), spread through
/// the document's memory token by token; holding a history's 67,000 names kept the pages of its
/// freed document resident, 46 MiB of a 50 MB history while `redact` made the copy (issue 32).
package struct PackedLayerNames: Sendable {
    private var text: [UInt8] = []
    /// By layer index: where its name ends in `text` (it starts where the one before ends).
    private var ends: [Int32]

    /// The names of the layers in `kept`; every other layer's is empty.
    package init(_ document: Document, keeping kept: Set<Int>) {
        ends = []
        ends.reserveCapacity(document.layers.count)
        for layer in document.layers {
            if kept.contains(layer.id.index) { text.append(contentsOf: layer.name.utf8) }
            ends.append(Int32(text.count))
        }
    }

    package subscript(index: Int) -> String {
        guard index < ends.count else { return "" }
        let start = index == 0 ? 0 : Int(ends[index - 1])
        return String(decoding: text[start..<Int(ends[index])], as: UTF8.self)
    }
}
