import ASN1Lenient
import ByteText
import ReceiptKit
import DocumentCore
import DocumentRedact

/// The receipt kind's part of `redact`: its attributes' values, the strings that may mention one,
/// and the PKCS#7 signature over the payload.
enum ReceiptRedaction {
    static func parts(_ document: Document, fields: Set<RedactField>) -> RedactionParts {
        var parts = RedactionParts()
        guard let receipt = document.receipt?.receipt else { return parts }
        guard let layer = layer(document), let tree = document.layers[layer.index].tree else {
            parts.notReplaced.append("the receipt's payload is not a layer of this document: nothing in it was replaced")
            return parts
        }
        // Walked in place: a list of every field with its purchase was 69 MB for 20,000
        // purchases, and growing it by doubling peaked at 176 MB (issue 32).
        func forEachField(_ body: (ReceiptField, Int?) -> Void) {
            for field in receipt.fields { body(field, nil) }
            for purchase in receipt.inApp { for field in purchase.fields { body(field, purchase.index) } }
        }
        // What is left as it is, said once; the values themselves are walked when asked for.
        forEachField { field, purchase in
            consider(field, purchase: purchase, layer: layer, tree: tree, fields: fields, notReplaced: &parts.notReplaced, target: { _ in })
        }
        parts.forEachTarget = { body in
            var said: [String] = []
            forEachField { field, purchase in
                consider(field, purchase: purchase, layer: layer, tree: tree, fields: fields, notReplaced: &said, target: body)
            }
        }
        parts.forEachMentionPlace = { body in
            forEachField { field, purchase in
                guard let inner = field.innerNode, tree.nodes[inner].tagClass == .universal, !tree.nodes[inner].isConstructed,
                      isStringTag(tree.nodes[inner].tagNumber) else { return }
                body(.init(layer: layer, range: tree.nodes[inner].contentRange, location: place(field, purchase)))
            }
        }
        parts.signatures.append(.init(layers: [layer, .file],
                                      note: "the PKCS#7 signature no longer verifies: it signs the digest of the receipt payload, whose bytes changed"))
        return parts
    }

    /// The layer whose bytes the receipt's node indices and value ranges refer to.
    static func layer(_ document: Document) -> LayerID? {
        guard let analysis = document.receipt, let receipt = analysis.receipt else { return nil }
        let id: LayerID = analysis.payloadTree != nil ? LayerID(1) : .file
        guard id.index < document.layers.count, document.layers[id.index].bytes == ByteWindow(receipt.bytes),
              document.layers[id.index].tree != nil else { return nil }
        return id
    }

    static func place(_ field: ReceiptField, _ purchase: Int?) -> RedactPlace {
        purchase.map { RedactPlace(field.displayName, in: .inAppPurchase, number: $0 + 1) } ?? RedactPlace(field.displayName)
    }

    static func redactField(type: Int, level: AttributeLevel) -> RedactField? {
        RedactField.allCases.first { field in
            guard let attribute = field.receiptAttribute else { return false }
            return attribute.type == type && attribute.inApp == (level == .inApp)
        }
    }

    /// Gives `field`'s value to `target` when it is one to replace, or says in `notReplaced` why it is left.
    static func consider(_ field: ReceiptField, purchase: Int?, layer: LayerID, tree: Tree, fields: Set<RedactField>,
                         notReplaced: inout [String], target: (RedactTarget) -> Void) {
        guard let redact = redactField(type: field.type, level: field.level), fields.contains(redact) else { return }
        let place = place(field, purchase)
        switch redact.receiptAttribute?.type {
        case 4, 5:
            guard !field.valueRange.isEmpty else { return }
            target(RedactTarget(field: redact, layer: layer, range: field.valueRange,
                                original: .bytes(Array(tree.bytes[field.valueRange])), form: .plain, location: place, in: ByteWindow(tree.bytes)))
        case 1711, 1:  // INTEGER ids: the web order line item id, the app item id
            guard let inner = field.innerNode, tree.nodes[inner].isUniversal(2), !tree.nodes[inner].isConstructed,
                  let text = field.value.integerText else {
                notReplaced.append("\(place.text) at offset \(field.valueRange.lowerBound): not an INTEGER, left as it is")
                return
            }
            guard UInt64(text) != nil else {
                notReplaced.append("\(place.text) at offset \(field.valueRange.lowerBound): \(text) is not an id (negative or beyond 64 bits), left as it is")
                return
            }
            // The sandbox's and Xcode's app item id 0 names no app.
            if redact == .appAppleID && text == "0" { return }
            target(RedactTarget(field: redact, layer: layer, range: tree.nodes[inner].contentRange,
                                original: .text(text), form: .derInteger, location: place, in: ByteWindow(tree.bytes)))
        default:  // UTF8String ids and the bundle id
            guard let inner = field.innerNode, tree.nodes[inner].tagClass == .universal, !tree.nodes[inner].isConstructed,
                  let text = UTF8Text.string(tree.bytes, tree.nodes[inner].contentRange) else {
                notReplaced.append("\(place.text) at offset \(field.valueRange.lowerBound): not a string, left as it is")
                return
            }
            guard !text.isEmpty else { return }
            target(RedactTarget(field: redact, layer: layer, range: tree.nodes[inner].contentRange,
                                original: .text(text), form: .plain, location: place, in: ByteWindow(tree.bytes)))
        }
    }

    /// UTF8String, NumericString, PrintableString, T61String, IA5String, VisibleString, …
    static func isStringTag(_ tag: UInt32) -> Bool { [12, 18, 19, 20, 21, 22, 25, 26, 27, 28, 30].contains(tag) }
}
