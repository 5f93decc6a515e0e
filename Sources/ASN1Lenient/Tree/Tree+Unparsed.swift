extension Tree {
    /// A tree for bytes the program deliberately does not parse as ASN.1 (text with no purchase
    /// data in it): one unparsed region over every byte, so the coverage invariant — each byte
    /// covered exactly once — holds for every layer, parsed or not.
    public static func unparsed(_ bytes: [UInt8], diagnostics: [Diagnostic]) -> Tree {
        guard !bytes.isEmpty else { return Tree(bytes: bytes, nodes: [Node](), diagnostics: diagnostics, roots: []) }
        var region = Node(offset: 0, classBits: 0, constructed: false, tagNumber: 0,
                          depth: 0, identifierLength: 0, lengthLength: 0)
        region.contentLength = UInt32(truncatingIfNeeded: bytes.count)
        region.subtreeEnd = 1
        return Tree(bytes: bytes, nodes: [region], diagnostics: diagnostics, roots: [0])
    }
}
