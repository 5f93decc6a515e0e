import ASN1Lenient

/// The names of a receipt payload's nodes, from the attribute table (`ReceiptSchema`): the words the
/// explorer's tree, `dump`, `explain` and `dump --format json` all use.
///
///     SEQUENCE      attribute 12 · receipt creation date
///     INTEGER 12    type 12: receipt creation date
///     INTEGER 1     attribute version
///     OCTET STRING  value of receipt creation date
///     IA5String     receipt creation date
public enum ReceiptNames {
    /// The name of a part of one attribute (without its value: the explorer adds `= value`).
    public static func name(_ location: FieldLocation) -> String {
        // A listed type's names are made once (a 10,000-purchase dump names ~900,000 nodes).
        if let spec = ReceiptSchema.spec(type: location.attributeType, level: location.level),
           !(location.attributeType == 17 && location.level == .app),
           let made = (location.level == .app ? appNames : inAppNames)[spec.type]?[location.part] {
            return made
        }
        return make(location)
    }

    static func make(_ location: FieldLocation) -> String {
        let spec = ReceiptSchema.spec(type: location.attributeType, level: location.level)
        let name = spec?.name ?? "unlisted type \(location.attributeType)"
        let label = ReceiptSchema.label(type: location.attributeType, level: location.level)
        let purchase = location.level == .app && location.attributeType == 17 ? location.inAppIndex.map { "in-app purchase #\($0 + 1)" } : nil
        switch location.part {
        case .attribute: return "\(label) · \(purchase ?? name)"
        case .type: return "type \(location.attributeType): \(name)"
        case .version: return "attribute version"
        case .value: return "value of \(name)"
        case .innerValue: return purchase ?? name
        case .insideValue: return "inside \(name)"
        }
    }

    static let parts: [FieldPart] = [.attribute, .type, .version, .value, .innerValue, .insideValue]

    static func table(_ specs: [AttributeSpec]) -> [Int: [FieldPart: String]] {
        var out: [Int: [FieldPart: String]] = [:]
        for spec in specs {
            var names: [FieldPart: String] = [:]
            for part in parts {
                names[part] = make(FieldLocation(level: spec.level, inAppIndex: nil, fieldIndex: 0, attributeType: spec.type, part: part))
            }
            out[spec.type] = names
        }
        return out
    }

    static let appNames = table(ReceiptSchema.app)
    static let inAppNames = table(ReceiptSchema.inApp)

    /// What the attribute is for (the table's sentence), or the note for an unlisted one.
    public static func meaning(_ location: FieldLocation) -> String {
        ReceiptSchema.spec(type: location.attributeType, level: location.level)?.meaning
            ?? "Apple-private attribute: kept and shown, never an error."
    }

    public static let payloadMeaning = "The receipt's attributes: a SET of SEQUENCE { type, version, value }."

    public static func payloadName(attributes: Int) -> String { "receipt payload · \(NumberText.grouped(attributes)) attributes" }

    /// The name of node `node` of the receipt's tree, nil outside the payload.
    public static func name(of node: Int, receipt: Receipt, links: ReceiptLinks) -> NodeName? {
        if let location = links.location(of: node) {
            // An in-app purchase's fields say which purchase (the explorer's detail pane does too).
            return NodeName(name(location), meaning: meaning(location))
        }
        if node == receipt.payloadNode {
            return NodeName(payloadName(attributes: receipt.fields.count), meaning: payloadMeaning)
        }
        return nil
    }
}
