import ASN1Lenient
import JSONLenient
import ByteText
import DocumentCore

/// One place in a document's layer where a value is replaced.
package struct RedactTarget: Sendable {
    package enum Form: Sendable {
        /// The value's bytes as they are (a DER string's or OCTET STRING's content, a part of one).
        case plain
        /// A JSON string's content between the quotes; `offsets`: the layer offset of each decoded
        /// byte (escapes such as `\/` and `\u0041` take several layer bytes).
        case jsonString(offsets: [Int])
        /// A JSON number's digits.
        case jsonNumber
        /// A DER INTEGER's content octets, the value being its decimal text.
        case derInteger
    }

    package var field: RedactField
    package var layer: LayerID
    package var range: Range<Int>
    package var original: RedactedValue
    package var form: Form
    /// Where, for messages and the mapping file: "in-app purchase #1, in-app 1703",
    /// "signedTransactions[0] payload: transactionId". Terminal-safe as built (keys are escaped).
    package var location: RedactPlace
    package var place: String { location.text }
    /// A value found inside another value (a history's revision naming a transaction id, a
    /// product id starting with the bundle id).
    package var isMention: Bool = false
    package init(field: RedactField, layer: LayerID, range: Range<Int>, original: RedactedValue, form: Form,
                 location: RedactPlace, isMention: Bool = false) {
        self.field = field
        self.layer = layer
        self.range = range
        self.original = original
        self.form = form
        self.location = location
        self.isMention = isMention
    }

    package init(field: RedactField, layer: LayerID, range: Range<Int>, original: RedactedValue, form: Form, place: String, isMention: Bool = false) {
        self.init(field: field, layer: layer, range: range, original: original, form: form, location: RedactPlace(place), isMention: isMention)
    }
}

/// A target's place kept as its parts and worded when read ("in-app purchase #1, in-app 1703"):
/// the worded places of a 20,000-purchase receipt's 120,000 values took 12 MB, and the copy's
/// check made them again (issue 32). A name of up to 15 bytes is stored in the String itself.
package struct RedactPlace: Sendable {
    var name: String
    var group: StaticString?
    var number: Int32 = 0

    package init(_ text: String) { name = text }
    /// "\(group) #\(number), \(name)".
    package init(_ name: String, in group: StaticString, number: Int) {
        self.name = name
        self.group = group
        self.number = Int32(clamping: number)
    }

    package var text: String { group.map { "\($0) #\(number), \(name)" } ?? name }
}

/// Finds what to replace in an opened document.
struct RedactCollector {
    let document: Document
    let fields: Set<RedactField>
    var targets: [RedactTarget] = []
    /// Values of a redacted field that are left as they are, with why (never silently).
    var notReplaced: [String] = []
    /// What the document's kind gave (`DocumentOutputs.redactionParts`).
    var parts = RedactionParts()

    init(document: Document, fields: Set<RedactField>) {
        self.document = document
        self.fields = fields
    }

    static func collect(_ document: Document, fields: Set<RedactField>) -> RedactCollector {
        var collector = RedactCollector(document: document, fields: fields)
        // The kind's own values first (a receipt's attributes), then the JSON layers'.
        let parts = document.redactionParts(fields: fields)
        collector.parts = parts
        collector.targets = parts.targets
        collector.notReplaced = parts.notReplaced
        collector.collectJSON()
        return collector
    }

    // MARK: - JSON layers (any kind: token payloads, bodies)

    /// The JSON layers that hold values: token payloads, a JSON body, JSON decoded from base64 (an
    /// external purchase token, an Advanced Commerce request); headers hold none.
    var jsonLayers: [LayerID] {
        document.layers.compactMap { layer in
            guard layer.json != nil else { return nil }
            switch layer.role {
            case .jwsPayload, .file, .decodedJSON: return layer.id
            default: return nil
            }
        }
    }

    /// "signedTransactions[0] payload", "payload", "body".
    func layerLabel(_ id: LayerID) -> String {
        id == .file ? "body" : TerminalSafe.escape(document.layers[id.index].name)
    }

    mutating func collectJSON() {
        for id in jsonLayers {
            guard let tree = document.layers[id.index].json else { continue }
            for member in 0..<tree.count where tree[member].kind == .member {
                guard let key = tree.key(ofMember: member), let redact = RedactField.byJSONKey[key], fields.contains(redact),
                      let value = tree.value(ofMember: member) else { continue }
                let place = "\(layerLabel(id)): \(JSONPath.of(member, in: tree))"
                let node = tree[value]
                switch node.kind {
                case .string:
                    guard var text = tree.string(at: value), !text.isEmpty else { continue }
                    var content = (node.start + 1)..<max(node.start + 1, node.end - 1)
                    var offsets = tree.sourceOffsets(ofString: value)
                    if let prefix = redact.keptPrefixes.first(where: { text.hasPrefix($0) && text.utf8.count > $0.utf8.count }),
                       offsets.count == text.utf8.count {
                        let n = prefix.utf8.count
                        content = offsets[n]..<content.upperBound
                        offsets = Array(offsets.dropFirst(n))
                        text = String(text.dropFirst(prefix.count))
                    }
                    targets.append(RedactTarget(field: redact, layer: id, range: content, original: .text(text),
                                                form: .jsonString(offsets: offsets), place: place))
                case .number:
                    let digits = Array(tree.bytes[node.range])
                    guard digits.allSatisfy(StandIns.isDigit) else {
                        notReplaced.append("\(place): the number \(TerminalSafe.escape(tree.text(of: value))) is not a plain integer, left as it is")
                        continue
                    }
                    targets.append(RedactTarget(field: redact, layer: id, range: node.range,
                                                original: .text(String(decoding: digits, as: UTF8.self)), form: .jsonNumber, place: place))
                case .null:
                    continue
                default:
                    notReplaced.append("\(place): a JSON \(node.kind.name), not a string or number, left as it is")
                }
            }
        }
    }

    // MARK: - Mentions

    /// Every occurrence of a run value (of at least `JSONPath.minimumMention` bytes) inside a
    /// string that is not itself a target or a token: a history's `revision`, a product id that
    /// starts with the bundle id.
    mutating func collectMentions(of originals: [String: RedactField]) {
        guard !originals.isEmpty else { return }
        let lengths = Set(originals.keys.map(\.utf8.count)).sorted(by: >)
        let own = Set(targets.map { TargetSpot(layer: $0.layer, range: $0.range) })
        // The place is worded only for a match (a JSON path for every string of a large body was most of the work).
        func scan(_ layer: LayerID, _ content: Range<Int>, bytes: [UInt8], place: () -> RedactPlace, literal: ((Range<Int>) -> Bool)? = nil) {
            var i = content.lowerBound
            while i < content.upperBound {
                var matched = 0
                for length in lengths where i + length <= content.upperBound && literal?(i..<(i + length)) != false {
                    let text = String(decoding: bytes[i..<(i + length)], as: UTF8.self)
                    guard let field = originals[text] else { continue }
                    targets.append(RedactTarget(field: field, layer: layer, range: i..<(i + length), original: .text(text),
                                                form: .plain, location: place(), isMention: true))
                    matched = length
                    break
                }
                i += max(matched, 1)
            }
        }
        parts.forEachMentionPlace { spot in
            guard !own.contains(TargetSpot(layer: spot.layer, range: spot.range)) else { return }
            scan(spot.layer, spot.range, bytes: document.layers[spot.layer.index].bytes, place: { spot.location })
        }
        let tokenStrings = Set(parts.tokens.compactMap(\.inHolder))
        for id in jsonLayers {
            guard let tree = document.layers[id.index].json else { continue }
            for node in 0..<tree.count where tree[node].kind == .string {
                let content = (tree[node].start + 1)..<max(tree[node].start + 1, tree[node].end - 1)
                let spot = TargetSpot(layer: id, range: content)
                guard !own.contains(spot), !tokenStrings.contains(spot) else { continue }
                let literal = Self.literalBytes(tree, string: node, content: content)
                scan(id, content, bytes: tree.bytes, place: { RedactPlace("\(layerLabel(id)): \(JSONPath.of(node, in: tree))") },
                     literal: { range in range.allSatisfy { literal.contains($0) } })
            }
        }
    }

    /// The bytes of a JSON string's content written as themselves: not part of an escape, not
    /// part of invalid UTF-8 (a value is replaced only where it is written out literally).
    static func literalBytes(_ tree: JSONTree, string node: Int, content: Range<Int>) -> Set<Int> {
        let offsets = tree.sourceOffsets(ofString: node)
        var literal = Set<Int>()
        var i = 0
        while i < offsets.count {
            var j = i + 1
            while j < offsets.count && offsets[j] == offsets[i] { j += 1 }
            let end = j < offsets.count ? offsets[j] : content.upperBound
            if j - i == 1, end - offsets[i] == 1, tree.bytes[offsets[i]] < 0x80, tree.bytes[offsets[i]] != UInt8(ascii: "\\") {
                literal.insert(offsets[i])
            }
            i = j
        }
        return literal
    }
}

/// A range of one layer: where a value or a token string is.
package struct TargetSpot: Hashable {
    package var layer: LayerID
    package var range: Range<Int>

    package init(layer: LayerID, range: Range<Int>) {
        self.layer = layer
        self.range = range
    }
}

/// A JSON node's path for messages: `data.signedTransactionInfo`, `lastTransactions[1].originalTransactionId`.
enum JSONPath {
    /// Shorter values are not looked for inside other strings: a one-digit Xcode id would match
    /// everywhere.
    static let minimumMention = 6

    static func of(_ node: Int, in tree: JSONTree) -> String {
        var parts: [String] = []
        var current = node
        while let parent = tree.parent(of: current) {
            if tree[current].kind == .member {
                parts.append(TerminalSafe.escape(tree.key(ofMember: current) ?? "?"))
            } else if tree[parent].kind == .array {
                let index = tree.children(of: parent).firstIndex(of: current) ?? 0
                parts.append("[\(index)]")
            }
            current = parent
        }
        if tree[current].kind == .member { parts.append(TerminalSafe.escape(tree.key(ofMember: current) ?? "?")) }
        var path = ""
        for part in parts.reversed() {
            if part.hasPrefix("[") || path.isEmpty { path += part } else { path += "." + part }
        }
        return path.isEmpty ? "(root)" : path
    }
}
