import ASN1Lenient
import ReceiptKit

/// The receipt route: ContentInfo → its OID → [0] EXPLICIT → SignedData version → digest
/// algorithms → encapsulated content → the payload OCTET STRING → the payload SET → one attribute
/// → its string value → one in-app purchase → a date → certificates → SignerInfo → the signature.
/// Every stop is found through the located container and the decoded receipt.
struct ReceiptRoute {
    let document: Document
    let analysis: ReceiptAnalysis
    let container: ContainerInfo

    func steps() -> [TourStep] {
        let file = TourLessons(tree: document.fileTree, layer: .file)
        let payloadLayer: LayerID = analysis.payloadTree != nil ? LayerID(1) : .file
        let payload = TourLessons(tree: document.layer(payloadLayer).tree ?? document.fileTree, layer: payloadLayer)
        let longForm = file.firstLongForm
        var steps: [TourStep] = []

        /// A file-layer stop; the first long-form length of the file gets its lesson and self-check.
        func stop(_ node: Int?, _ focus: TourFocus, _ title: String, _ meaning: [String]) {
            guard let node else { return }
            let n = file.tree.nodes[node]
            var meaning = meaning
            var check: SelfCheck?
            var focus = focus
            if node == longForm {
                focus = .length
                meaning.append(longFormLesson)
                check = file.lengthCheck(node)
            } else if n.isIndefinite && focus == .length {
                meaning.append(indefiniteLesson)
            }
            steps.append(file.step(node, focus, title, meaning, check: check))
        }

        let root = container.contentInfo
        stop(root, document.fileTree.nodes[root].isIndefinite ? .length : .identifier, "ContentInfo: the PKCS#7 wrapper",
                  ["meaning: ContentInfo ::= SEQUENCE { contentType OBJECT IDENTIFIER, [0] EXPLICIT content }: the whole receipt is this one SEQUENCE"])
        stop(self.container.contentType, .content, "The content type OID, arc by arc",
                  file.treeHasNode(self.container.contentType) ? file.oidArcs(self.container.contentType!)
                    + ["meaning: 1.2.840.113549.1.7.2 is PKCS#7 signedData: what follows in [0] is a SignedData"] : [])
        if let signedData = self.container.signedData, let explicit = file.tree.parent(of: signedData) {
            stop(explicit, .identifier, "[0] EXPLICIT: a tag around the content",
                      ["meaning: context-specific tag 0, constructed: EXPLICIT tagging wraps the SignedData's own TLV inside this one"])
        }
        stop(self.container.version, .content, "SignedData version",
                  ["meaning: the SignedData syntax version: 1 says only PKCS#7 v1.5 features are used (signers named by issuer and serial number)"])
        stop(self.container.digestAlgorithms, .whole, "Digest algorithms",
                  ["meaning: the SET of hash algorithms the signers used, declared up front so a verifier can hash while it reads"])
        stop(self.container.encapContentInfo, .identifier, "Encapsulated content",
                  ["meaning: EncapsulatedContentInfo ::= SEQUENCE { eContentType (id-data), [0] EXPLICIT OCTET STRING }: the signed content itself"])
        stop(self.container.payloadString, .content, "The OCTET STRING that holds the payload",
                  ["meaning: to PKCS#7 the receipt is opaque bytes; the receipt format says those bytes are themselves DER, so they are parsed as ASN.1 (encapsulation)"]
                  + (analysis.payloadTree != nil ? ["meaning: here the OCTET STRING is constructed (BER): its segments are joined into one payload, a layer of its own"] : []))
        guard let receipt = analysis.receipt else { return steps }
        steps.append(payload.step(receipt.payloadNode, .identifier, "The payload SET",
                                  ["meaning: the receipt is a SET OF attributes, one per field, app level", payload.setOrder(receipt.payloadNode)]))
        if let field = receipt.fields.first(where: { $0.type == 2 }) ?? receipt.fields.first(where: { $0.innerNode != nil }) {
            steps.append(payload.step(field.attributeNode, .whole, "One attribute: \(field.displayName)",
                                      ["meaning: every attribute is SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }; type \(field.type) is \(field.displayName)"]))
            if let inner = field.innerNode {
                steps.append(payload.step(inner, .content, "The value inside the attribute's OCTET STRING",
                                          ["meaning: the OCTET STRING's content is one more DER element, here the \(field.displayName) itself"]))
            }
        }
        var skipped: [String] = []
        if let purchase = receipt.inApp.first {
            steps.append(payload.step(purchase.attributeNode, .whole, "One in-app purchase",
                                      ["meaning: attribute 17's OCTET STRING holds a whole SET of purchase attributes (1701…), one level down"
                                       + (purchase.productID.map { "; this one is \(TerminalSafe.escape($0))" } ?? "")]))
        } else {
            skipped.append(Tour.noPurchases)
        }
        if let date = receipt.fields.first(where: { $0.type == 12 && $0.innerNode != nil }), let inner = date.innerNode {
            steps.append(payload.step(inner, .content, "A date",
                                      skipped + ["meaning: receipt dates are IA5Strings in RFC 3339 form; an empty string means the date does not apply"]))
            skipped = []
        }
        stop(self.container.certificateSet, .identifier, "Certificates",
                  skipped + ["meaning: [0] IMPLICIT SET OF Certificate: the signer's certificate and its chain (\(self.container.certificates.count) here), so a verifier needs only the root"])
        if let signer = self.container.signerInfos.first {
            stop(signer, .identifier, "SignerInfo",
                      ["meaning: who signed (issuer and serial number), with which digest and signature algorithms, and the signature"])
            let signature = file.tree.children(of: signer).reversed().first { file.tree.nodes[$0].isUniversal(4) }
            stop(signature, .content, "The signature",
                      ["meaning: the signer's signature over the content's digest (or over the signed attributes, which carry that digest); change one payload byte and it no longer verifies"])
        }
        return withLongForm(steps, file)
    }

    /// When the file's first long-form length is not one of the stops (Xcode's BER container uses
    /// indefinite lengths up to its payload), a stop for it goes in file order among the container stops.
    func withLongForm(_ steps: [TourStep], _ file: TourLessons) -> [TourStep] {
        guard let long = file.firstLongForm, !steps.contains(where: { $0.node == NodeID(.file, long) }) else { return steps }
        let offset = Int(file.tree.nodes[long].offset)
        let step = file.step(long, .length, "A long-form length",
                             [longFormLesson],
                             check: file.lengthCheck(long))
        var out = steps
        let at = out.firstIndex { $0.node.layer == .file && Int(file.tree.nodes[$0.node.index].offset) > offset } ?? out.count
        out.insert(step, at: at)
        return out
    }
}

extension TourLessons {
    func treeHasNode(_ node: Int?) -> Bool { node.map { $0 >= 0 && $0 < tree.count } ?? false }
}
