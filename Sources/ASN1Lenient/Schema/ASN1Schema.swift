/// A small declarative description of ASN.1 module types (enough for RFC 5280 and RFC 5652), matched
/// against a parsed tree to name its nodes. Matching is tolerant: a child whose tag is not the one
/// the schema expects ends the naming of that SEQUENCE (the rest stays unnamed), it never fails.
public struct ASN1Type: Sendable {
    public indirect enum Shape: Sendable {
        /// A universal primitive type (its number; the constructed bit is not checked, BER strings may be constructed).
        case universal([UInt32])
        /// Any element (ANY, or a type we do not describe further).
        case any
        case sequence([ASN1Field])
        case sequenceOf(ASN1Type)
        case setOf(ASN1Type)
        /// CHOICE: the alternative whose tag matches names the node "field (alternative)".
        case choice([ASN1Field])
    }

    /// The module's type name ("TBSCertificate"); empty for the built-in types, whose field name is used.
    public var name: String
    public var shape: Shape
    /// For an OCTET STRING or BIT STRING whose content is one DER element: that element's type.
    public var encapsulates: ASN1Type? { encapsulated.first }
    var encapsulated: [ASN1Type]
    /// The decoded detail of a node of this type (see `NodeName.detail`).
    public var detail: (@Sendable (Tree, Int) -> String?)?
    public var meaning: String?

    public init(_ name: String, _ shape: Shape, encapsulates: ASN1Type? = nil, meaning: String? = nil,
                detail: (@Sendable (Tree, Int) -> String?)? = nil) {
        self.name = name
        self.shape = shape
        self.encapsulated = encapsulates.map { [$0] } ?? []
        self.meaning = meaning
        self.detail = detail
    }

    public static func primitive(_ numbers: UInt32..., detail: (@Sendable (Tree, Int) -> String?)? = nil) -> ASN1Type {
        ASN1Type("", .universal(numbers), detail: detail)
    }

    public static let any = ASN1Type("", .any)
}

/// One component of a SEQUENCE (or one alternative of a CHOICE).
public struct ASN1Field: Sendable {
    public enum Tagging: Sendable {
        case natural
        /// `[n] EXPLICIT`: a context-specific wrapper holding the type.
        case explicit(UInt32)
        /// `[n] IMPLICIT`: the type with its tag replaced.
        case implicit(UInt32)
    }

    public var name: String
    public var type: ASN1Type
    public var tagging: Tagging
    /// OPTIONAL or DEFAULT: may be absent.
    public var optional: Bool
    /// ANY DEFINED BY: the type to use instead of `type`, from the OID of an earlier sibling
    /// (`definedBy.sibling` is its position in the SEQUENCE).
    public var definedBy: (sibling: Int, types: @Sendable (String) -> ASN1Type?)?

    public init(_ name: String, _ type: ASN1Type, _ tagging: Tagging = .natural, optional: Bool = false,
                definedBy: (sibling: Int, types: @Sendable (String) -> ASN1Type?)? = nil) {
        self.name = name
        self.type = type
        self.tagging = tagging
        self.optional = optional
        self.definedBy = definedBy
    }
}

/// Walks a tree along a schema and records a `NodeName` for each node that matches.
public struct SchemaMatcher {
    public let tree: Tree
    public private(set) var names: [Int: NodeName] = [:]
    /// Nesting guard: schemas are finite, but a hostile file can nest encapsulations deeply.
    private var depth = 0

    public init(tree: Tree) { self.tree = tree }

    /// Names `node` (and what it holds) as `type`, under `name` (the field name; nil: the type's name).
    public mutating func name(_ node: Int, as type: ASN1Type, name: String? = nil) {
        guard node >= 0, node < tree.count, depth < 64 else { return }
        let label = name ?? (type.name.isEmpty ? "value" : type.name)
        names[node] = NodeName(label, detail: type.detail?(tree, node), meaning: type.meaning)
        depth += 1
        defer { depth -= 1 }
        descend(node, type)
    }

    /// Whether `node`'s tag is the one `type` starts with.
    public func matches(_ type: ASN1Type, _ node: Int) -> Bool {
        let n = tree.nodes[node]
        guard n.kind == .tlv else { return false }
        switch type.shape {
        case .universal(let numbers): return n.tagClass == .universal && numbers.contains(n.tagNumber)
        case .any: return true
        case .sequence, .sequenceOf: return n.isUniversal(16) && n.isConstructed
        case .setOf: return n.isUniversal(17) && n.isConstructed
        case .choice(let alternatives): return alternatives.contains { fieldMatches($0, node) }
        }
    }

    func fieldMatches(_ field: ASN1Field, _ node: Int) -> Bool {
        let n = tree.nodes[node]
        switch field.tagging {
        case .natural: return matches(field.type, node)
        case .explicit(let number): return n.kind == .tlv && n.tagClass == .contextSpecific && n.tagNumber == number && n.isConstructed
        case .implicit(let number): return n.kind == .tlv && n.tagClass == .contextSpecific && n.tagNumber == number
        }
    }

    private func elements(of node: Int) -> [Int] {
        tree.elements(of: node)
    }

    private mutating func descend(_ node: Int, _ type: ASN1Type) {
        let kids = elements(of: node)
        switch type.shape {
        case .sequence(let fields):
            var k = 0
            for field in fields {
                guard k < kids.count else { break }
                if fieldMatches(field, kids[k]) {
                    nameField(field, kids[k], siblings: kids)
                    k += 1
                } else if !field.optional {
                    break  // the tree departs from the schema here: what follows stays unnamed
                }
            }
        case .sequenceOf(let element), .setOf(let element):
            for kid in kids where matches(element, kid) { name(kid, as: element) }
        case .universal, .any, .choice:
            // An encapsulated DER element (an extension's value, an RSA key in its BIT STRING).
            if let inner = type.encapsulates, tree.nodes[node].isEncapsulated, let first = kids.first, matches(inner, first) {
                name(first, as: inner)
            }
        }
    }

    private mutating func nameField(_ field: ASN1Field, _ node: Int, siblings: [Int]) {
        var type = field.type
        if let definedBy = field.definedBy, definedBy.sibling < siblings.count,
           case .objectIdentifier(let dotted, _)? = tree.value(of: siblings[definedBy.sibling]),
           let chosen = definedBy.types(dotted) {
            type = chosen
        }
        switch field.tagging {
        case .explicit:
            names[node] = NodeName(field.name, meaning: type.meaning)
            if let inner = elements(of: node).first, matches(type, inner) {
                depth += 1
                name(inner, as: type, name: type.name.isEmpty ? field.name : nil)
                depth -= 1
            }
        case .natural, .implicit:
            if case .choice(let alternatives) = type.shape,
               let alternative = alternatives.first(where: { fieldMatches($0, node) }) {
                name(node, as: alternative.type, name: "\(field.name) (\(alternative.name))")
            } else {
                name(node, as: type, name: field.name)
            }
        }
    }
}
