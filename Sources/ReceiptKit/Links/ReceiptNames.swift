import ASN1Lenient
import ByteText

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
        made(location)?.name ?? make(location)
    }

    /// A type's name and meaning, made once (a 10,000-purchase dump names ~900,000 nodes; flat
    /// arrays by type and part, as `ReceiptSchema` keeps its table); nil for types outside the
    /// tables and for attribute 17, whose name says which purchase.
    @inline(__always)
    static func made(_ location: FieldLocation) -> (name: String, meaning: String)? {
        let row: [String]?
        let meaning: String?
        switch location.level {
        case .app:
            let t = location.attributeType
            guard t >= 0, t < appNames.count, t != 17 else { return nil }
            row = appNames[t]
            meaning = appMeanings[t]
        case .inApp:
            let i = location.attributeType &- 1701
            guard i >= 0, i < inAppNames.count else { return nil }
            row = inAppNames[i]
            meaning = inAppMeanings[i]
        }
        guard let row, let meaning else { return nil }
        return (row[partIndex(location.part)], meaning)
    }

    @inline(__always)
    static func partIndex(_ part: FieldPart) -> Int {
        switch part {
        case .attribute: 0
        case .type: 1
        case .version: 2
        case .value: 3
        case .innerValue: 4
        case .insideValue: 5
        }
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

    /// Names of every type in `base ..< base + count`, listed or not ("unlisted type 1709" too:
    /// real receipts carry several in every purchase).
    static func table(_ level: AttributeLevel, count: Int, base: Int) -> (names: [[String]?], meanings: [String?]) {
        var names = [[String]?](repeating: nil, count: count)
        var meanings = [String?](repeating: nil, count: count)
        for type in base..<(base + count) where !(level == .app && type == 17) {
            let location = { (part: FieldPart) in FieldLocation(level: level, inAppIndex: nil, fieldIndex: 0, attributeType: type, part: part) }
            names[type - base] = parts.map { make(location($0)) }
            meanings[type - base] = meaning(location(.attribute))
        }
        return (names, meanings)
    }

    static let app = table(.app, count: 64, base: 0)
    static let inApp = table(.inApp, count: 100, base: 1701)
    static let appNames = app.names, appMeanings = app.meanings
    static let inAppNames = inApp.names, inAppMeanings = inApp.meanings

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
            if let made = made(location) { return NodeName(made.name, meaning: made.meaning) }
            return NodeName(make(location), meaning: meaning(location))
        }
        if node == receipt.payloadNode {
            return NodeName(payloadName(attributes: receipt.fields.count), meaning: payloadMeaning)
        }
        return nil
    }
}
