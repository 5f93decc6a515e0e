/// The node budget (issue 32: memory bounded by the input): a 2-byte element costs a 12-byte node,
/// so dense input would cost 6× its size in nodes alone. At `nodeBudget` nodes the parser stops
/// building them, says so once, and shows the rest as unparsed regions, so nothing is dropped
/// silently and every byte is still covered exactly once. A node with an escape entry (12 + 16
/// bytes: an indefinite, clamped or unparsed extent, a long tag) counts twice, so that the arena
/// never takes more than 16 bytes per budgeted node, whatever the input is made of.
extension ParserMachine {
    /// Whether another node would go past the budget.
    var budgetSpent: Bool {
        @inline(__always) get { nodes.count &+ nodes.escapes.count >= nodeBudget }
    }

    /// The budget is spent and another element starts at `position`.
    @inline(never)
    mutating func reachBudget() {
        // A guess is undone instead: its bytes stay one byte string, shown whole, and the nodes
        // it built are freed for what follows.
        if speculationDepth > 0 {
            abortGuess = true
            return
        }
        budgetReached = true
        let rest = count - position
        let limit = nodeBudget == ParseOptions.nodeBudget(inputBytes: count)
            ? "the most for \(count) bytes: one per \(ParseOptions.bytesPerBudgetedNode) bytes plus \(ParseOptions.nodeAllowance)"
            : "the limit set for this parse"
        let twice = nodes.escapes.isEmpty ? "" : " (\(nodes.escapes.count) counted twice: their extent or header does not fit in a 12-byte node)"
        report(.tooManyElements, at: position, length: rest, node: nodes.count,
               "\(nodes.count) elements built\(twice), \(limit); the remaining \(rest) byte(s) from offset \(position) are shown unparsed and not checked")
    }

    /// Closes every open element at its end, each with its unread content as one unparsed region
    /// (the innermost's from `position`; an enclosing one's after the child that was open), then
    /// the rest of the input after the last top-level element. Together the regions cover
    /// `position..<count` exactly. Indefinite lengths run to their limit: their end-of-contents
    /// marker, if any, is in the unread bytes, so none is reported missing.
    mutating func leaveRestUnparsed() {
        while openCount > 0 {
            let frame = frames[openCount - 1]
            if position < frame.end {
                appendUnparsedNode(from: position, to: frame.end)
                position = frame.end
            }
            openCount -= 1
            if frame.indefinite { nodes[frame.node].contentLength = UInt32(frame.end - nodes[frame.node].contentStart) }
            nodes.pointer(to: frame.node).pointee.subtreeEnd = Int32(truncatingIfNeeded: nodes.count)
        }
        if position < count {
            appendUnparsedNode(from: position, to: count)
            position = count
        }
    }
}
