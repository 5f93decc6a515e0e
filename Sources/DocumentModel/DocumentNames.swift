import ASN1Lenient
import ReceiptKit

extension Document {
    /// What each node of a layer's ASN.1 tree is: the RFC 5652 / RFC 5280 names of a PKCS#7
    /// container and of every certificate (`StructureNames`), and a receipt payload's attribute names
    /// (`ReceiptNames`, asked on demand). `dump`, `explain`, `dump --format json` and the explorer
    /// all read these. Empty for layers without an ASN.1 tree.
    public func names(for layer: LayerID) -> NodeNames {
        guard let tree = self.layer(layer).tree else { return .none }
        let structure = StructureNames.names(for: tree)
        guard let analysis = receipt, let receipt = analysis.receipt else { return structure }
        // The receipt's node indices point into the payload's own tree when it was reassembled.
        let payloadLayer = analysis.payloadTree == nil ? LayerID.file : layers.first { $0.role == .reassembledPayload }?.id
        guard payloadLayer == layer else { return structure }
        let links = analysis.links
        return structure.adding { node in ReceiptNames.name(of: node, receipt: receipt, links: links) }
    }
}
