import ASN1Lenient

extension Document {
    /// What each node of a layer's ASN.1 tree is: the RFC 5652 / RFC 5280 names of a PKCS#7
    /// container and of every certificate (`StructureNames`), and what the kind's format adds (a
    /// receipt payload's attribute names, `DocumentOutputs.nodeNames`). `dump`, `explain`,
    /// `dump --format json` and the explorer all read these. Empty for layers without an ASN.1 tree.
    public func names(for layer: LayerID) -> NodeNames {
        guard let tree = self.layer(layer).tree else { return .none }
        return format.nodeNames(self, layer: layer, structure: StructureNames.names(for: tree))
    }
}
