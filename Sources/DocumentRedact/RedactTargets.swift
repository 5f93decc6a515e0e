import ASN1Lenient
import JSONLenient
import ByteText
import DocumentCore

/// One place in a document's layer where a value is replaced. Compact (48 bytes): the value is
/// read from the layer's bytes when needed (`original(in:)`), not kept beside them, and the place
/// is worded only when printed; a 20,000-purchase receipt's 120,000 targets took 112 bytes each
/// and a string per value (issue 32).
package struct RedactTarget: Sendable {
    /// How the value is written in the layer (what `init` is told).
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

    /// `Form` as kept, with whether a plain value is text (UTF-8) or bytes.
    package enum Kind: UInt8, Sendable {
        case utf8, bytes, jsonString, jsonNumber, derInteger
    }

    /// What cannot be read back from the layer: a JSON string with escapes (its decoded text and
    /// offsets), or any value whose bytes do not read back as itself. Nil for nearly every value.
    final class Irregular: Sendable {
        let original: RedactedValue
        let offsets: [Int]
        init(original: RedactedValue, offsets: [Int]) {
            self.original = original
            self.offsets = offsets
        }
    }

    /// Where, for messages and the mapping file: "in-app purchase #1, in-app 1703",
    /// "signedTransactions[0] payload: transactionId". Terminal-safe as built (keys are escaped).
    package var location: RedactPlace
    let irregular: Irregular?
    // 32-bit offsets and layer index: no input is over 512 MiB (`InputLoader.maximumInputSize`), no
    // layer longer than its input, and a layer takes more than a byte of it.
    private let start: UInt32
    private let end: UInt32
    private let layerIndex: UInt32
    package var field: RedactField
    package let kind: Kind
    /// A value found inside another value (a history's revision naming a transaction id, a
    /// product id starting with the bundle id).
    package var isMention: Bool = false

    package var range: Range<Int> { Int(start)..<Int(end) }
    package var layer: LayerID { LayerID(Int(layerIndex)) }

    package var place: String { location.text }

    /// A target as `RedactTargetList` keeps it, put back together.
    fileprivate init(field: RedactField, layerIndex: UInt32, start: UInt32, end: UInt32, kind: Kind, location: RedactPlace,
                     isMention: Bool, irregular: Irregular?) {
        self.field = field
        self.layerIndex = layerIndex
        self.start = start
        self.end = end
        self.kind = kind
        self.location = location
        self.isMention = isMention
        self.irregular = irregular
    }

    /// `original` is the value as found in `layerBytes` (the bytes of `layer`) at `range`; it is
    /// kept only when reading it back from there would not give it.
    package init(field: RedactField, layer: LayerID, range: Range<Int>, original: RedactedValue, form: Form,
                 location: RedactPlace, isMention: Bool = false, in layerBytes: ByteWindow) {
        self.field = field
        layerIndex = UInt32(layer.index)
        start = UInt32(range.lowerBound)
        end = UInt32(range.upperBound)
        self.location = location
        self.isMention = isMention
        var offsets: [Int] = []
        switch form {
        case .plain:
            if case .bytes = original { kind = .bytes } else { kind = .utf8 }
        case .jsonString(let given):
            kind = .jsonString
            // Written as itself: one layer byte per decoded byte, in order.
            if !given.elementsEqual(range) { offsets = given }
        case .jsonNumber: kind = .jsonNumber
        case .derInteger: kind = .derInteger
        }
        irregular = offsets.isEmpty && Self.read(kind, range, in: layerBytes) == original
            ? nil : Irregular(original: original, offsets: offsets)
    }

    package init(field: RedactField, layer: LayerID, range: Range<Int>, original: RedactedValue, form: Form, place: String,
                 isMention: Bool = false, in layerBytes: ByteWindow) {
        self.init(field: field, layer: layer, range: range, original: original, form: form, location: RedactPlace(place),
                  isMention: isMention, in: layerBytes)
    }

    /// The value replaced, from the bytes of the layer it was found in (the original's, or a
    /// copy's, where the stand-in is read).
    package func original(in layerBytes: ByteWindow) -> RedactedValue {
        if let irregular { return irregular.original }
        // Read back when made (`init`), so never nil for the bytes it was found in.
        return Self.read(kind, range, in: layerBytes) ?? .bytes([])
    }

    /// For a JSON string with escapes, the layer offset of each decoded byte; empty when the
    /// string is written as itself.
    var jsonOffsets: [Int] { irregular?.offsets ?? [] }

    /// The value at `range` read as `kind` says; nil when it cannot be (beyond the bytes, an
    /// INTEGER beyond 64 bits).
    static func read(_ kind: Kind, _ range: Range<Int>, in bytes: ByteWindow) -> RedactedValue? {
        guard range.upperBound <= bytes.count else { return nil }
        switch kind {
        case .bytes: return .bytes(Array(bytes[range]))
        case .utf8, .jsonString, .jsonNumber: return .text(String(decoding: bytes[range], as: UTF8.self))
        case .derInteger:
            // Content octets of a non-negative INTEGER (leading zero octets allowed) as decimal text.
            var value: UInt64 = 0
            for octet in bytes[range] {
                guard value >> 56 == 0 else { return nil }
                value = value << 8 | UInt64(octet)
            }
            guard bytes[range].first.map({ $0 & 0x80 == 0 }) ?? false else { return nil }
            return .text(String(value))
        }
    }
}

/// A target's place kept as its parts and worded when read ("in-app purchase #1, in-app 1703"):
/// the worded places of a 20,000-purchase receipt's 120,000 values took 12 MB, and the copy's
/// check made them again (issue 32). A name of up to 15 bytes is stored in the String itself.
package struct RedactPlace: Sendable {
    /// What a numbered place is numbered in.
    package enum Group: UInt8, Sendable {
        case inAppPurchase

        var words: String {
            switch self {
            case .inAppPurchase: "in-app purchase"
            }
        }
    }

    var name: String
    var group: Group?
    var number: Int32 = 0

    package init(_ text: String) { name = text }
    /// "\(group) #\(number), \(name)".
    package init(_ name: String, in group: Group, number: Int) {
        self.name = name
        self.group = group
        self.number = Int32(clamping: number)
    }

    package var text: String { group.map { "\($0.words) #\(number), \(name)" } ?? name }
}

/// A document's targets as kept from when they are found until the copies are written: 24 bytes
/// each, the place's name an index into the list's names (a receipt's few field names serve all of
/// its 20,000 purchases) and the rare irregular value kept apart. As `RedactTarget`s (48 bytes, a
/// name in each) a 20,000-purchase receipt's 80,000 targets took 3.8 MB, and 9.4 MB while the array
/// grew by doubling (issue 32).
package struct RedactTargetList: RandomAccessCollection, Sendable {
    struct Entry {
        var start: UInt32
        var end: UInt32
        var layer: UInt32
        var number: Int32
        var name: UInt32
        var field: RedactField
        var kind: RedactTarget.Kind
        /// `RedactPlace.Group`'s raw value + 1; 0 for a place in no group.
        var group: UInt8
        /// `isMention`, and whether `irregulars` has the entry's value.
        var flags: UInt8

        static let isMention: UInt8 = 1, isIrregular: UInt8 = 2
    }

    private var entries: [Entry] = []
    private var names: [String] = []
    /// Where each name is in `names`, while targets are added (`finished` lets it go).
    private var nameIndex: [String: UInt32] = [:]
    /// By entry: the value of a target whose bytes do not read back as it (`RedactTarget.Irregular`).
    private var irregulars: [Int: RedactTarget.Irregular] = [:]

    package init() {}

    /// What one target takes in the list (its name and any irregular value apart).
    package static var bytesPerTarget: Int { MemoryLayout<Entry>.stride }
    /// The names the list's places share.
    package var nameCount: Int { names.count }

    package var startIndex: Int { 0 }
    package var endIndex: Int { entries.count }

    package subscript(i: Int) -> RedactTarget {
        let entry = entries[i]
        let place = entry.group == 0 ? RedactPlace(names[Int(entry.name)])
            : RedactPlace(names[Int(entry.name)], in: RedactPlace.Group(rawValue: entry.group - 1)!, number: Int(entry.number))
        return RedactTarget(field: entry.field, layerIndex: entry.layer, start: entry.start, end: entry.end, kind: entry.kind,
                            location: place, isMention: entry.flags & Entry.isMention != 0,
                            irregular: entry.flags & Entry.isIrregular != 0 ? irregulars[i] : nil)
    }

    /// Whether target i is a mention, without putting the target together.
    package func isMention(_ i: Int) -> Bool { entries[i].flags & Entry.isMention != 0 }

    package mutating func append(_ target: RedactTarget) {
        let name = target.location.name
        let nameNumber: UInt32
        if let known = nameIndex[name] {
            nameNumber = known
        } else {
            nameNumber = UInt32(names.count)
            names.append(name)
            nameIndex[name] = nameNumber
        }
        if let irregular = target.irregular { irregulars[entries.count] = irregular }
        entries.append(Entry(start: UInt32(target.range.lowerBound), end: UInt32(target.range.upperBound),
                             layer: UInt32(target.layer.index), number: target.location.number, name: nameNumber,
                             field: target.field, kind: target.kind, group: target.location.group.map { $0.rawValue + 1 } ?? 0,
                             flags: (target.isMention ? Entry.isMention : 0) | (target.irregular != nil ? Entry.isIrregular : 0)))
    }

    package mutating func append(contentsOf other: RedactTargetList) {
        entries.reserveCapacity(entries.count + other.count)
        for target in other { append(target) }
    }

    /// The list as kept once every target is found: its entries in an array of their own size (it
    /// grew by doubling) and without the names' index.
    package func finished() -> RedactTargetList {
        var list = self
        if entries.capacity - entries.count > entries.count / 16 { list.entries = entries.withUnsafeBufferPointer { Array($0) } }
        list.nameIndex = [:]
        return list
    }

    /// Each target's layer and range, without putting the target together.
    var spots: LazyMapSequence<[Entry], TargetSpot> {
        entries.lazy.map { TargetSpot(layer: LayerID(Int($0.layer)), range: Int($0.start)..<Int($0.end)) }
    }
}

/// Finds what to replace in an opened document.
struct RedactCollector {
    let document: Document
    let fields: Set<RedactField>
    var targets = RedactTargetList()
    /// Values of a redacted field that are left as they are, with why (never silently).
    var notReplaced: [String] = []
    /// What the document's kind gave (`DocumentOutputs.redactionParts`).
    var parts = RedactionParts()

    init(document: Document, fields: Set<RedactField>) {
        self.document = document
        self.fields = fields
    }

    /// A target's value, from this document's layer.
    func original(_ target: RedactTarget) -> RedactedValue { target.original(in: document.layers[target.layer.index].bytes) }

    static func collect(_ document: Document, fields: Set<RedactField>) -> RedactCollector {
        var collector = RedactCollector(document: document, fields: fields)
        // The kind's own values first (a receipt's attributes), then the JSON layers'.
        let parts = document.redactionParts(fields: fields)
        collector.parts = parts
        collector.notReplaced = parts.notReplaced
        var targets = RedactTargetList()
        parts.forEachTarget { targets.append($0) }
        Self.walkJSON(document, fields: fields, notReplaced: &collector.notReplaced) { targets.append($0) }
        collector.targets = targets
        return collector
    }

    /// Every value to replace in `document`, in `collect`'s order, without listing them (the
    /// copy's check: a list of a 20,000-purchase receipt's was 11 MB; issue 32).
    static func forEachTarget(_ document: Document, fields: Set<RedactField>, _ body: (RedactTarget) -> Void) {
        document.redactionParts(fields: fields).forEachTarget(body)
        var said: [String] = []
        walkJSON(document, fields: fields, notReplaced: &said, body)
    }

    // MARK: - JSON layers (any kind: token payloads, bodies)

    /// The JSON layers that hold values: token payloads, a JSON body, JSON decoded from base64 (an
    /// external purchase token, an Advanced Commerce request); headers hold none.
    var jsonLayers: [LayerID] { Self.jsonLayers(document) }

    static func jsonLayers(_ document: Document) -> [LayerID] {
        document.layers.compactMap { layer in
            guard layer.json != nil else { return nil }
            switch layer.role {
            case .jwsPayload, .file, .decodedJSON: return layer.id
            default: return nil
            }
        }
    }

    /// "signedTransactions[0] payload", "payload", "body".
    func layerLabel(_ id: LayerID) -> String { Self.layerLabel(id, in: document) }

    static func layerLabel(_ id: LayerID, in document: Document) -> String {
        id == .file ? "body" : TerminalSafe.escape(document.layers[id.index].name)
    }

    /// The JSON layers' values of `fields`, each given to `target` in document order; what is left
    /// as it is goes to `notReplaced`.
    static func walkJSON(_ document: Document, fields: Set<RedactField>, notReplaced: inout [String], _ target: (RedactTarget) -> Void) {
        for id in jsonLayers(document) {
            guard let tree = document.layers[id.index].json else { continue }
            for member in 0..<tree.count where tree[member].kind == .member {
                guard let key = tree.key(ofMember: member), let redact = RedactField.byJSONKey[key], fields.contains(redact),
                      let value = tree.value(ofMember: member) else { continue }
                let place = "\(layerLabel(id, in: document)): \(JSONPath.of(member, in: tree))"
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
                    target(RedactTarget(field: redact, layer: id, range: content, original: .text(text),
                                        form: .jsonString(offsets: offsets), place: place, in: ByteWindow(tree.bytes)))
                case .number:
                    let digits = Array(tree.bytes[node.range])
                    guard digits.allSatisfy(StandIns.isDigit) else {
                        notReplaced.append("\(place): the number \(TerminalSafe.escape(tree.text(of: value))) is not a plain integer, left as it is")
                        continue
                    }
                    target(RedactTarget(field: redact, layer: id, range: node.range,
                                        original: .text(String(decoding: digits, as: UTF8.self)), form: .jsonNumber, place: place, in: ByteWindow(tree.bytes)))
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
    /// starts with the bundle id. Found apart and added to the targets at once (`Redactor`, once
    /// the table and the spots are let go): one growth to the size needed instead of a doubling
    /// that held 1.5 times the list beside the list (issue 32).
    func mentions(of originals: MentionTable) -> RedactTargetList {
        var mentions = RedactTargetList()
        guard !originals.isEmpty else { return mentions }
        // Sorted, searched by halves: a set of a 20,000-purchase receipt's spots took 6 MB (issue 32).
        let own = SortedSpots(targets.spots)
        // The place is worded only for a match (a JSON path for every string of a large body was most of the work).
        func scan(_ layer: LayerID, _ content: Range<Int>, bytes: ByteWindow, place: () -> RedactPlace, literal: ((Range<Int>) -> Bool)? = nil) {
            bytes.withUnsafeBufferPointer { text in
                originals.forEachMention(in: text, content, allowed: { literal?($0) != false }) { range, field in
                    mentions.append(RedactTarget(field: field, layer: layer, range: range,
                                                original: .text(String(decoding: text[range], as: UTF8.self)),
                                                form: .plain, location: place(), isMention: true, in: bytes))
                }
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
                scan(id, content, bytes: ByteWindow(tree.bytes), place: { RedactPlace("\(layerLabel(id)): \(JSONPath.of(node, in: tree))") },
                     literal: { range in range.allSatisfy { literal.contains($0) } })
            }
        }
        return mentions
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

/// Target spots sorted (layer, start, end), for asking whether a range is one of them. Kept as
/// 12-byte keys sorted in place: a list of spots and its sorted copy were 2.9 MB for a
/// 20,000-purchase receipt's targets (issue 32).
package struct SortedSpots {
    private struct Key: Comparable {
        var layer: UInt32
        var start: UInt32
        var end: UInt32

        init(_ spot: TargetSpot) {
            // Every offset and layer index fits in 32 bits (as `RedactTarget` keeps them); a spot
            // beyond them is no target's.
            layer = UInt32(clamping: spot.layer.index)
            start = UInt32(clamping: spot.range.lowerBound)
            end = UInt32(clamping: spot.range.upperBound)
        }

        static func < (a: Key, b: Key) -> Bool { (a.layer, a.start, a.end) < (b.layer, b.start, b.end) }
    }

    private var keys: [Key]

    package init<Spots: Sequence>(_ spots: Spots) where Spots.Element == TargetSpot {
        keys = spots.map(Key.init)
        keys.sort()
    }

    package func contains(_ spot: TargetSpot) -> Bool {
        guard spot.layer.index <= UInt32.max, spot.range.upperBound <= UInt32.max else { return false }
        let key = Key(spot)
        let i = SortedSearch.partition(keys.count) { keys[$0] < key }
        return i < keys.count && keys[i] == key
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
