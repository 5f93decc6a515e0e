import ASN1Lenient

/// The node budget (issue 32: memory bounded by the input), with ASN1Lenient's contract: at
/// `nodeBudget` nodes the reader stops building them and says so once, with the same code
/// (`too-many-elements`), pinned where it stopped and ranging to the end of the input. Every open
/// container is then closed at its real closing bracket, found without building anything, so the
/// nodes read keep their true ranges; the unread bytes are covered by those ranges and by the
/// error's, and nothing in them is checked (no missing bracket or trailing data is reported).
extension JSONReader {
    /// The budget is spent and a value (or a member) of `parent` starts at `pos`.
    mutating func reachBudget(parent: Int) {
        budgetReached = true
        let rest = bytes.count - pos
        let limit = nodeBudget == JSONParser.nodeBudget(inputBytes: bytes.count)
            ? "the most for \(bytes.count) bytes: one per \(JSONParser.bytesPerBudgetedNode) bytes plus \(JSONParser.nodeAllowance)"
            : "the limit set for this parse"
        findings.append(ParserCode.tooManyElements.diagnostic(
            "\(nodes.count) JSON values and members built, \(limit); the remaining \(rest) byte(s) from offset \(pos) are not read and not checked",
            pos..<bytes.count, node: parent >= 0 ? NodeIndex(parent) : nil))
    }

    /// Skips to just past the bracket that closes the container open at `pos` (or to the end of
    /// the input), with the parser's one balanced skip.
    mutating func skipUnread() {
        skipBalanced(toComma: false)
        if pos < bytes.count { pos += 1 }
    }
}
