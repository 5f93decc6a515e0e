import ASN1Lenient
import ReceiptKit
import X509Trust
import ByteText
import DocumentCore
import DocumentDiff

/// One receipt as the diff and the timeline read it: the decoded model and the layer its node
/// indices live in. The receipt kind's side of `diff` (the shared code never reads the model itself).
struct ReceiptSide: Sendable {
    let document: Document
    let receipt: Receipt
    /// The layer of `receipt`'s node indices (the reassembled payload, or the file).
    let layer: LayerID

    init?(_ document: Document) {
        guard let receipt = document.receipt?.receipt else { return nil }
        self.document = document
        self.receipt = receipt
        layer = document.receipt?.payloadTree != nil && document.layers.count > 1 ? document.layers[1].id : .file
    }

    /// A field's value bytes and inner node, with the value as text.
    func side(_ field: ReceiptField) -> DiffSide {
        DiffSide(node: NodeID(layer, field.primaryNode), range: field.valueRange,
                 fileRange: document.fileRange(field.valueRange, in: layer), value: Self.text(field, receipt))
    }

    /// A purchase's attribute 17 SEQUENCE, shown by its product id.
    func side(_ purchase: InAppPurchase) -> DiffSide {
        let tree = document.layer(layer).tree!
        let range = tree.nodes[purchase.attributeNode].byteRange
        return DiffSide(node: NodeID(layer, purchase.attributeNode), range: range,
                        fileRange: document.fileRange(range, in: layer), value: purchase.productID)
    }

    /// The payload bytes (reassembled when chunked): equal payloads mean the same signed content.
    var payloadBytes: ArraySlice<UInt8> {
        let tree = document.layer(layer).tree!
        return tree.bytes[tree.nodes[receipt.payloadNode].byteRange]
    }

    static func text(_ field: ReceiptField, _ receipt: Receipt) -> String {
        switch field.value {
        case .string(let s): s
        case .integer(let v): String(v)
        case .bigInteger(let s): s
        case .date(let d): d.text
        case .absentDate: ""
        case .bytes: Hex.string(receipt.raw(field), .lower)
        case .inAppPurchase(let i): "in-app purchase \(i)"
        case .invalid(let why): "(invalid: \(why))"
        }
    }

    /// What two values are compared by: dates as instants, everything else as shown.
    static func key(_ field: ReceiptField, _ receipt: Receipt) -> String {
        if case .date(let d) = field.value { return "date \(d.epochMilliseconds)" }
        return text(field, receipt)
    }
}

extension ReceiptSide {
    /// The certificates a PKCS#7 SignedData embeds, in file order.
    var certificates: [DiffCertificate] {
        guard let container = document.receipt?.container else { return [] }
        let tree = document.fileTree
        return container.certificates.compactMap { node in
            guard node < tree.count else { return nil }
            let range = tree.nodes[node].byteRange
            guard let info = CertificateInfo(der: Array(tree.bytes[range])) else { return nil }
            return DiffCertificate(sha256: info.sha256Fingerprint, subject: info.subject, node: NodeID(.file, node),
                                   range: range, fileRange: range)
        }
    }

    /// The first SignerInfo's signature OCTET STRING.
    var signature: DiffSide? {
        guard let signer = document.receipt?.container?.signerInfos.first else { return nil }
        let tree = document.fileTree
        guard let node = tree.children(of: signer).filter({ tree.nodes[$0].isUniversal(4) }).last else { return nil }
        let range = tree.nodes[node].contentRange
        let hex = Hex.string(tree.bytes[range].prefix(8), .lower)
        return DiffSide(node: NodeID(.file, node), range: range, fileRange: range,
                        value: "\(range.count) bytes \(hex)…")
    }

    /// The file-layer node whose content the payload layer reassembles (the payload OCTET STRING).
    static func payloadString(_ document: Document) -> Int? { document.receipt?.container?.payloadString }
}
