import ASN1Lenient
import JSONLenient

/// Decodes a payload's JSON by its schema: every member becomes a `StoreKitField` tied to its
/// nodes; values of the wrong type and unknown enumeration values are diagnostics on the value.
struct SchemaDecoder: Sendable {
    let tree: JSONTree
    var fields: [StoreKitField] = []
    var diagnostics: [Diagnostic] = []
    /// String nodes holding nested tokens, with their paths and expected kinds.
    var tokens: [(path: String, node: Int, kind: StoreKitPayloadKind)] = []

    init(tree: JSONTree) { self.tree = tree }

    static func kind(of tree: JSONTree) -> StoreKitPayloadKind {
        guard let root = tree.root, tree[root].kind == .object else { return .unknown }
        // By bytes, with no `String` per key (this runs for every token of a history).
        func has(_ key: String) -> Bool { tree.member(key, in: root) != nil }
        if let developer = DeveloperTokenKind.of(has: has, audience: tree.value("aud", in: root).flatMap(tree.string(at:))) {
            return developer.payloadKind
        }
        if has("notificationType") { return .notification }
        if has("receiptType") || has("originalApplicationVersion") { return .appTransaction }
        if has("transactionId") { return .transaction }
        if has("autoRenewStatus") || has("autoRenewProductId") { return .renewalInfo }
        return .unknown
    }

    /// Whether members missing from the schema are findings: only for a recognised kind, whose
    /// schema is complete (an unrecognised payload's fields are unknown by definition).
    var flagsUnlisted = false

    mutating func decode(kind: StoreKitPayloadKind) {
        guard let root = tree.root, tree[root].kind == .object else { return }
        flagsUnlisted = kind != .unknown
        decodeObject(root, specs: StoreKitSchema.specsByName(of: kind), prefix: "")
    }

    mutating func decodeObject(_ object: Int, specs: [String: StoreKitFieldSpec], prefix: String) {
        let members = tree.members(of: object)
        fields.reserveCapacity(fields.count + members.count)  // nested objects add more later
        for member in members {
            guard let key = tree.key(ofMember: member) else { continue }
            let spec = specs[key]
            // A known top-level field's path is its spec's name, shared, not a string of its own per token.
            let path = prefix.isEmpty ? spec?.name ?? key : prefix + key
            if spec == nil, flagsUnlisted {
                report(.fieldNotInSchema, "\(path) is \(StoreKitSchema.notInSchemaNote)", tree[member].keyRange, node: member)
            }
            let valueNode = tree.value(ofMember: member)
            // Its place first: an object's own fields follow it.
            let position = fields.count
            fields.append(StoreKitField(path: path, member: JSONNodeIndex(member), valueNode: valueNode.map(JSONNodeIndex.init),
                                        spec: spec, value: .null))
            fields[position].value = valueNode.map { decodeValue($0, spec: spec, path: path, object: object) } ?? .invalid("missing")
        }
    }

    mutating func decodeValue(_ node: Int, spec: StoreKitFieldSpec?, path: String, object: Int) -> StoreKitValue {
        guard let spec else { return plainValue(node) }
        let n = tree[node]
        switch spec.type {
        case .string, .identifier:
            if let s = tree.string(at: node) { return .string(s) }
        case .integer:
            if let i = tree.number(at: node)?.integer { return .integer(i) }
        case .bool:
            if let b = tree.bool(at: node) { return .bool(b) }
        case .date:
            if let d = tree.number(at: node)?.double { return .date(milliseconds: d, iso: ISODate.string(milliseconds: d)) }
        case .secondsDate:
            if let s = tree.number(at: node)?.integer { return .seconds(s, iso: ISODate.string(milliseconds: Double(s) * 1000)) }
        case .enumeration(let enumeration):
            let raw: String? = enumeration.numeric ? tree.number(at: node).map(\.text) : tree.string(at: node)
            if let raw {
                let meaning = enumeration.meaning(of: raw)
                if meaning == nil {
                    report(.fieldUnknownValue, "\(path) = \(raw) is not a known \(enumeration.name) value: \(StoreKitSchema.notInSchemaNote)",
                           n.range, node: node)
                }
                return .enumerated(raw: raw, meaning: meaning)
            }
        case .price:
            if let i = tree.number(at: node)?.integer {
                let currency = tree.value("currency", in: object).flatMap(tree.string(at:))
                return .price(milliunits: i, currency: currency)
            }
        case .token(let kind):
            if tree.hasString(at: node) {
                tokens.append((path, node, kind))
                return .nestedToken(index: tokens.count - 1)
            }
        case .object(let schema):
            if n.kind == .object {
                decodeObject(node, specs: schema.specsByName, prefix: path + ".")
                return .object
            }
        case .stringArray, .array:
            if n.kind == .array { return .array(count: tree.children(of: node).count) }
        }
        report(.fieldWrongType, "\(path) should be \(describe(spec.type)), found \(n.kind.name)", n.range, node: node)
        return .invalid(tree.text(of: node))
    }

    /// A field the schema does not know: kept with its plain JSON value.
    mutating func plainValue(_ node: Int) -> StoreKitValue {
        switch tree[node].kind {
        case .string: .string(tree.string(at: node) ?? "")
        case .number:
            if let number = tree.number(at: node) { number.integer.map(StoreKitValue.integer) ?? .number(number.double) } else { .invalid(tree.text(of: node)) }
        case .true: .bool(true)
        case .false: .bool(false)
        case .null: .null
        case .array: .array(count: tree.children(of: node).count)
        case .object, .member: .object
        }
    }

    func describe(_ type: StoreKitValueType) -> String {
        switch type {
        case .string: "a string"
        case .identifier: "an id in a string"
        case .integer: "an integer"
        case .bool: "true or false"
        case .date: "a number of milliseconds since 1970"
        case .secondsDate: "an integer number of seconds since 1970"
        case .enumeration(let e): e.numeric ? "a number (\(e.name))" : "a string (\(e.name))"
        case .price: "an integer number of milliunits"
        case .token: "a compact JWS in a string"
        case .object: "an object"
        case .stringArray: "an array of strings"
        case .array: "an array"
        }
    }

    mutating func report(_ code: JWSCode, _ message: String, _ range: Range<Int>, node: Int) {
        diagnostics.append(code.diagnostic(message, range, node: NodeIndex(node)))
    }
}
