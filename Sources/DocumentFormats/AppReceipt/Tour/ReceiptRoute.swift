import ASN1Lenient
import ReceiptKit
import ByteText
import X509Trust
import DocumentCore
import DocumentTour

/// The receipt route: ContentInfo → its OID → [0] EXPLICIT → SignedData version → digest
/// algorithms → encapsulated content → the payload OCTET STRING → the payload SET → one attribute
/// → its string value → one in-app purchase → a date → certificates → SignerInfo → what the
/// signature covers → the signature → the device hash. Every stop is found through the located
/// container and the decoded receipt.
struct ReceiptRoute {
    let document: Document
    let analysis: ReceiptAnalysis
    let container: ContainerInfo

    var file: TourLessons { TourLessons(tree: document.fileTree, layer: .file) }
    var payloadLayer: LayerID { analysis.payloadTree != nil ? LayerID(1) : .file }
    var payload: TourLessons { TourLessons(tree: document.layer(payloadLayer).tree ?? document.fileTree, layer: payloadLayer) }

    func steps() -> [TourStep] {
        let file = self.file, payload = self.payload
        let longForm = file.firstLongForm
        var steps: [TourStep] = []

        /// A file-layer stop; the first long-form length of the file is where lengths are taught.
        func stop(_ node: Int?, _ focus: TourFocus, _ title: String, _ meaning: [String], check: SelfCheck? = nil) {
            guard let node, file.treeHasNode(node) else { return }
            let n = file.tree.nodes[node]
            var meaning = meaning, focus = focus, check = check
            if node == longForm {
                focus = .length
                meaning.append(longFormLesson)
                check = file.lengthValueCheck(node)
            } else if n.isIndefinite && focus == .length {
                meaning.append(indefiniteLesson)
                check = check ?? file.indefiniteCheck(node)
            }
            steps.append(file.step(node, focus, title, meaning, check: check, withheld: check == nil ? [] : TourLessons.withheld(for: focus)))
        }

        let root = container.contentInfo
        stop(root, document.fileTree.nodes[root].isIndefinite ? .length : .identifier, "ContentInfo: the PKCS#7 wrapper",
             ["meaning: ContentInfo ::= SEQUENCE { contentType OBJECT IDENTIFIER, [0] EXPLICIT content }: the whole receipt is this one SEQUENCE"])
        if let oid = container.contentType, file.treeHasNode(oid) {
            let asked = file.oidCheck(oid)
            steps.append(file.step(oid, .content, "The content type OID, arc by arc",
                                   ["meaning: the first octet packs the first two arcs as 40 × X + Y; every arc is base 128, 7 bits an octet, bit 8 set on all but an arc's last octet"]
                                   + file.oidArcs(oid, hiding: asked?.hiddenArc)
                                   + ["meaning: 1.2.840.113549.1.7.2 is PKCS#7 signedData: what follows in [0] is a SignedData"],
                                   check: asked?.check, withheld: asked == nil ? [] : [.content]))
        }
        if let signedData = container.signedData, let explicit = file.tree.parent(of: signedData) {
            stop(explicit, .identifier, "[0] EXPLICIT: a tag around the content",
                 ["meaning: EXPLICIT tagging wraps the SignedData's own TLV inside this one; the tag's meaning comes from ContentInfo's definition"],
                 check: file.identifierCheck(explicit))
        }
        stop(container.version, .content, "SignedData version",
             ["meaning: the SignedData syntax version: 1 says only PKCS#7 v1.5 features are used (signers named by issuer and serial number)"])
        stop(container.digestAlgorithms, .whole, "Digest algorithms",
             ["meaning: the SET of hash algorithms the signers used, declared up front so a verifier can hash while it reads"],
             check: container.digestAlgorithms.flatMap(file.shortLengthCheck))
        stop(container.encapContentInfo, .identifier, "Encapsulated content",
             ["meaning: EncapsulatedContentInfo ::= SEQUENCE { eContentType (id-data), [0] EXPLICIT OCTET STRING }: the signed content itself"])
        stop(container.payloadString, .content, "The OCTET STRING that holds the payload",
             ["meaning: to PKCS#7 the receipt is opaque bytes; the receipt format says those bytes are themselves DER, so they are parsed as ASN.1 (encapsulation)"]
             + (analysis.payloadTree != nil ? ["meaning: here the OCTET STRING is constructed (BER): its segments are joined into one payload, a layer of its own"] : []))
        guard let receipt = analysis.receipt else { return steps }
        steps.append(payload.step(receipt.payloadNode, .identifier, "The payload SET",
                                  ["meaning: the receipt is a SET OF attributes, one per field, app level", payload.setOrder(receipt.payloadNode)],
                                  check: payload.memberCountCheck(receipt.payloadNode, "How many attributes does the payload SET hold?", what: "attributes")))
        if let field = receipt.fields.first(where: { $0.type == 2 }) ?? receipt.fields.first(where: { $0.innerNode != nil }) {
            let check = attributeTypeCheck(field)
            steps.append(payload.step(field.attributeNode, .whole, "One attribute: type, version, value",
                                      ["meaning: every attribute is SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }; the type says which field it is"],
                                      check: check, withheld: check == nil ? [] : [.content]))
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
                                      skipped + ["meaning: receipt dates are IA5Strings in RFC 3339 form; an empty string means the date does not apply"],
                                      check: zoneCheck(inner)))
            skipped = []
        }
        stop(container.certificateSet, .identifier, "Certificates",
             skipped + ["meaning: [0] IMPLICIT SET OF Certificate: the signer's certificate and its chain (\(container.certificates.count) here), so a verifier needs only the root"])
        if let signer = container.signerInfos.first, file.treeHasNode(signer) {
            stop(signer, .identifier, "SignerInfo",
                 ["meaning: SignerInfo ::= SEQUENCE { version, sid, digestAlgorithm, [0] signedAttrs OPTIONAL, signatureAlgorithm, signature, [1] unsignedAttrs OPTIONAL }"]
                 + signerParts(signer))
            steps += signerStops(signer)
        }
        steps.append(contentsOf: deviceHashStop(receipt))
        return withLongForm(steps, file)
    }

    /// When the file's first long-form length is not one of the stops (Xcode's BER container uses
    /// indefinite lengths up to its payload), a stop for it goes in file order among the container stops.
    func withLongForm(_ steps: [TourStep], _ file: TourLessons) -> [TourStep] {
        guard let long = file.firstLongForm, !steps.contains(where: { $0.node == NodeID(.file, long) }) else { return steps }
        let offset = Int(file.tree.nodes[long].offset)
        let step = file.step(long, .length, "A long-form length", [longFormLesson],
                             check: file.lengthCountCheck(long), withheld: [.length])
        var out = steps
        let at = out.firstIndex { $0.node.layer == .file && Int(file.tree.nodes[$0.node.index].offset) > offset } ?? out.count
        out.insert(step, at: at)
        return out
    }

    /// Which attribute type the bytes `02 01 nn` give.
    func attributeTypeCheck(_ field: ReceiptField) -> SelfCheck? {
        let tree = payload.tree
        guard let typeNode = field.typeNode, tree.nodes[typeNode].contentLength >= 1 else { return nil }
        let t = tree.nodes[typeNode]
        let sequenceLength = Int(tree.nodes[field.attributeNode].contentLength)
        let lengthOctet = Int(tree.bytes[t.lengthRange.lowerBound])
        return SelfCheck("Bytes \(payload.hex(t.byteRange)) open the SEQUENCE's content: which attribute type is this?",
                         right: ("\(field.type)", "02 is INTEGER, \(Hex.byte(UInt8(lengthOctet), .upper)) its length, and the content is \(field.type): the \(field.displayName)"),
                         wrong: [("\(lengthOctet)", "\(Hex.byte(UInt8(lengthOctet), .upper)) is the INTEGER's length octet; the type is the content after it"),
                                 ("\(sequenceLength)", "\(sequenceLength) is the SEQUENCE's length (its second octet); the type is the first INTEGER's content")],
                         seed: Int(t.offset))
    }

    /// The zone a receipt date is written in: Z, or Xcode's ±hhmm offset.
    func zoneCheck(_ node: Int) -> SelfCheck? {
        let text = String(decoding: payload.tree.content(of: node), as: UTF8.self)
        guard !text.isEmpty else { return nil }
        let seed = Int(payload.tree.nodes[node].offset)
        let shown = TerminalSafe.escape(text)
        if text.hasSuffix("Z") {
            return SelfCheck("In which time zone is \"\(shown)\" written?",
                             right: ("UTC", "the Z (\"Zulu\") suffix means UTC+00:00"),
                             wrong: [("the device's local time", "the string names its zone itself: Z is UTC, whatever the device's zone"),
                                     ("Pacific time (the App Store's home)", "the App Store writes UTC and marks it with Z")], seed: seed)
        }
        let tail = Array(text.suffix(5))
        guard tail.count == 5, tail[0] == "+" || tail[0] == "-", let hours = Int(String(tail[1...2])), let minutes = Int(String(tail[3...4])) else { return nil }
        let sign = String(tail[0])
        let zone = "UTC" + sign + PlainText.zeroPadded(hours, width: 2) + ":" + PlainText.zeroPadded(minutes, width: 2)
        let opposite = "UTC" + (sign == "+" ? "-" : "+") + PlainText.zeroPadded(hours, width: 2) + ":" + PlainText.zeroPadded(minutes, width: 2)
        return SelfCheck("In which time zone is \"\(shown)\" written?",
                         right: (zone, "the suffix \(String(tail)) is the offset from UTC: \(hours) h \(minutes) min \(sign == "+" ? "ahead of" : "behind") UTC (Xcode writes local time with its offset)"),
                         wrong: [("UTC", "only a Z suffix means UTC; \(String(tail)) is an offset from it"),
                                 (opposite, "\(sign) means \(sign == "+" ? "ahead of" : "behind") UTC, as in ISO 8601")], seed: seed)
    }
}

extension TourLessons {
    func treeHasNode(_ node: Int?) -> Bool { node.map { $0 >= 0 && $0 < tree.count } ?? false }
}
