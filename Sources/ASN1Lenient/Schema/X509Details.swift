import ByteText

/// The decoded details the X.509 schema attaches to its nodes: names as `CN=…, O=…`, key usage
/// bits by name, key sizes and curves, extension values. Each reads only the node it is given and
/// returns nil when the bytes are not what the schema expects (never traps). Input text is escaped.
enum X509Details {
    // MARK: - Small readers

    static func elements(_ tree: Tree, _ node: Int) -> [Int] {
        tree.elements(of: node)
    }

    static func oid(_ tree: Tree, _ node: Int?) -> String? {
        guard let node, case .objectIdentifier(let dotted, _)? = tree.value(of: node) else { return nil }
        return dotted
    }

    /// An OID's name, or the dotted form when it has none.
    static func oidName(_ dotted: String) -> String { OIDNames.name(for: dotted) ?? dotted }

    static func text(_ tree: Tree, _ node: Int) -> String? {
        switch tree.value(of: node) {
        case .string(let s, _)?: return TerminalSafe.escape(s)
        case .time(let raw, let value)?: return value?.iso8601 ?? TerminalSafe.escape(raw)
        case .integer(let decimal, _)?: return decimal
        case .boolean(let b)?: return b ? "TRUE" : "FALSE"
        case .objectIdentifier(let dotted, _)?: return oidName(dotted)
        default: return nil
        }
    }

    static func colonHex(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.map { ValueText.hex([$0][...]) }.joined(separator: ":")
    }

    // MARK: - Names

    /// `CN=Apple Root CA - G3` for one AttributeTypeAndValue.
    static let attributeTypeAndValue: @Sendable (Tree, Int) -> String? = { tree, node in
        let kids = elements(tree, node)
        guard kids.count == 2, let type = oid(tree, kids[0]), let value = text(tree, kids[1]) else { return nil }
        return "\(OIDNames.rdnAbbreviation(for: type) ?? oidName(type))=\(value)"
    }

    static let relativeName: @Sendable (Tree, Int) -> String? = { tree, node in
        let parts = elements(tree, node).compactMap { attributeTypeAndValue(tree, $0) }
        return parts.isEmpty ? nil : parts.joined(separator: " + ")
    }

    /// `CN=…, OU=…, O=…, C=…`: the RDNs in the order the bytes hold them (first RDN first), so each
    /// part lines up with its SET in the tree below it.
    static let distinguishedName: @Sendable (Tree, Int) -> String? = { tree, node in
        let parts = elements(tree, node).compactMap { relativeName(tree, $0) }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// The subject's CN (or the whole subject) of a Certificate.
    static let certificateSubject: @Sendable (Tree, Int) -> String? = { tree, node in
        guard let tbs = elements(tree, node).first else { return nil }
        let fields = elements(tree, tbs)
        // subject is the 6th field, or the 5th when the [0] version is absent (v1).
        let offset = fields.first.map { tree.nodes[$0].tagClass == .contextSpecific ? 1 : 0 } ?? 0
        guard fields.count > 4 + offset else { return nil }
        let subject = fields[4 + offset]
        for rdn in elements(tree, subject) {
            for ava in elements(tree, rdn) {
                let kids = elements(tree, ava)
                if kids.count == 2, oid(tree, kids[0]) == "2.5.4.3", let cn = text(tree, kids[1]) { return cn }
            }
        }
        return distinguishedName(tree, subject)
    }

    // MARK: - Algorithms and keys

    static func curveName(_ tree: Tree, _ node: Int?) -> String? {
        guard let curve = oid(tree, node) else { return nil }
        return OIDNames.curveName(for: curve) ?? oidName(curve)
    }

    /// "ecdsa-with-SHA384", "ecPublicKey P-256", "rsaEncryption".
    static let algorithm: @Sendable (Tree, Int) -> String? = { tree, node in
        let kids = elements(tree, node)
        guard let algorithm = oid(tree, kids.first) else { return nil }
        if algorithm == "1.2.840.10045.2.1", kids.count > 1, let curve = curveName(tree, kids[1]) {
            return "\(oidName(algorithm)) \(curve)"
        }
        return oidName(algorithm)
    }

    /// Bits in a big-endian unsigned magnitude (leading zero octets and bits not counted).
    static func bitLength(_ content: ArraySlice<UInt8>) -> Int {
        guard let first = content.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (content.endIndex - first - 1) * 8 + (8 - content[first].leadingZeroBitCount)
    }

    static let modulusSize: @Sendable (Tree, Int) -> String? = { tree, node in
        "\(bitLength(tree.content(of: node))) bits"
    }

    /// "EC P-256", "RSA 2048-bit" for a SubjectPublicKeyInfo.
    static let publicKey: @Sendable (Tree, Int) -> String? = { tree, node in
        let kids = elements(tree, node)
        guard kids.count == 2 else { return nil }
        let algorithmParts = elements(tree, kids[0])
        switch oid(tree, algorithmParts.first) {
        case "1.2.840.10045.2.1"?:
            return "EC " + (algorithmParts.count > 1 ? curveName(tree, algorithmParts[1]) ?? "(no named curve)" : "(no named curve)")
        case "1.2.840.113549.1.1.1"?:
            return rsaModulusBits(tree, kids[1]).map { "RSA \($0)-bit" } ?? "RSA"
        case let other?:
            return oidName(other)
        case nil:
            return nil
        }
    }

    static func rsaModulusBits(_ tree: Tree, _ bitString: Int) -> Int? {
        guard tree.nodes[bitString].isEncapsulated, let key = elements(tree, bitString).first,
              let modulus = elements(tree, key).first, tree.nodes[modulus].isUniversal(2) else { return nil }
        return bitLength(tree.content(of: modulus))
    }

    /// "P-256 point, uncompressed (65 bytes)" / "RSA 2048-bit modulus" for subjectPublicKey.
    static let publicKeyBits: @Sendable (Tree, Int) -> String? = { tree, node in
        if let bits = rsaModulusBits(tree, node) { return "RSA \(bits)-bit modulus" }
        let content = tree.content(of: node)
        guard content.count >= 2 else { return nil }
        let point = content.dropFirst()
        // The SubjectPublicKeyInfo's curve says which point this is.
        var curve: String?
        if let info = tree.parent(of: node), let algorithm = elements(tree, info).first {
            let parts = elements(tree, algorithm)
            if parts.count > 1 { curve = curveName(tree, parts[1]) }
        }
        let form: String
        switch point.first {
        case 0x04?: form = "uncompressed"
        case 0x02?, 0x03?: form = "compressed"
        default: return nil
        }
        return "\(curve.map { $0 + " " } ?? "")point, \(form) (\(ValueText.byteCount(point.count)))"
    }

    // MARK: - Small values

    static let certificateVersion: @Sendable (Tree, Int) -> String? = { tree, node in
        guard case .integer(let decimal, _)? = tree.value(of: node), let v = Int(decimal), v >= 0, v < 3 else { return nil }
        return "v\(v + 1)"
    }

    static let serialHex: @Sendable (Tree, Int) -> String? = { tree, node in
        let content = tree.content(of: node)
        guard !content.isEmpty, content.count <= 64 else { return nil }
        return "0x" + ValueText.hex(content)
    }

    static let hexValue: @Sendable (Tree, Int) -> String? = { tree, node in
        let content = tree.content(of: node)
        return content.isEmpty ? nil : colonHex(content)
    }

    static let extensionCount: @Sendable (Tree, Int) -> String? = { tree, node in
        let n = elements(tree, node).count
        return "\(n) extension\(n == 1 ? "" : "s")"
    }

    // MARK: - Extension values

    static let keyUsageBits = ["digitalSignature", "nonRepudiation", "keyEncipherment", "dataEncipherment",
                               "keyAgreement", "keyCertSign", "cRLSign", "encipherOnly", "decipherOnly"]

    /// The bits set, by name: "keyCertSign, cRLSign".
    static let keyUsage: @Sendable (Tree, Int) -> String? = { tree, node in
        let content = tree.content(of: node)
        let bytes = Array(content.dropFirst())
        guard let unused = content.first, unused < 8, !(bytes.isEmpty && unused > 0) else { return nil }
        var set: [String] = []
        for bit in 0..<(bytes.count * 8 - Int(unused)) where bytes[bit / 8] & (0x80 >> UInt8(bit % 8)) != 0 {
            set.append(bit < keyUsageBits.count ? keyUsageBits[bit] : "bit \(bit)")
        }
        return set.isEmpty ? "no bit set" : set.joined(separator: ", ")
    }

    /// "cA TRUE, pathLen 0" / "cA FALSE" (the DEFAULT when absent).
    static let basicConstraints: @Sendable (Tree, Int) -> String? = { tree, node in
        var cA = "FALSE"
        var pathLen: String?
        for kid in elements(tree, node) {
            switch tree.value(of: kid) {
            case .boolean(let b)?: cA = b ? "TRUE" : "FALSE"
            case .integer(let decimal, _)?: pathLen = decimal
            default: break
            }
        }
        return "cA \(cA)" + (pathLen.map { ", pathLen \($0)" } ?? "")
    }

    static let authorityKeyIdentifier: @Sendable (Tree, Int) -> String? = { tree, node in
        guard let id = elements(tree, node).first(where: {
            tree.nodes[$0].tagClass == .contextSpecific && tree.nodes[$0].tagNumber == 0 && !tree.nodes[$0].isConstructed
        }) else { return nil }
        return "keyIdentifier " + colonHex(tree.content(of: id))
    }

    /// "codeSigning, 1.2.3.4" for a SEQUENCE OF OBJECT IDENTIFIER.
    static let oidList: @Sendable (Tree, Int) -> String? = { tree, node in
        let names = elements(tree, node).compactMap { oid(tree, $0).map(oidName) }
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }

    static let firstOIDName: @Sendable (Tree, Int) -> String? = { tree, node in
        oid(tree, elements(tree, node).first).map(oidName)
    }

    static let policies: @Sendable (Tree, Int) -> String? = { tree, node in
        let names = elements(tree, node).compactMap { firstOIDName(tree, $0) }
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }

    /// The URIs and DNS names a GeneralNames-like structure holds, found anywhere below `node`
    /// ([6] uniformResourceIdentifier, [2] dNSName: primitive context tags with text).
    static let locations: @Sendable (Tree, Int) -> String? = { tree, node in
        var found: [String] = []
        var i = node + 1
        let end = Int(tree.nodes[node].subtreeEnd)
        while i < end && found.count < 4 {
            let n = tree.nodes[i]
            if n.kind == .tlv, n.tagClass == .contextSpecific, !n.isConstructed, n.tagNumber == 6 || n.tagNumber == 2 {
                found.append(TerminalSafe.escape(String(decoding: tree.content(of: i).prefix(200), as: UTF8.self)))
            }
            i += 1
        }
        return found.isEmpty ? nil : found.joined(separator: ", ")
    }

    static let accessDescription: @Sendable (Tree, Int) -> String? = { tree, node in
        let kids = elements(tree, node)
        guard let method = oid(tree, kids.first) else { return nil }
        return oidName(method) + (locations(tree, node).map { " " + $0 } ?? "")
    }

    /// "basicConstraints (critical): cA TRUE" for an Extension: its name, whether it is critical,
    /// and its value decoded (an Apple marker's meaning).
    static let extensionSummary: @Sendable (Tree, Int) -> String? = { tree, node in
        let kids = elements(tree, node)
        guard let id = oid(tree, kids.first) else { return nil }
        var critical = false
        if kids.count > 2, case .boolean(let b)? = tree.value(of: kids[1]) { critical = b }
        var text = oidName(id) + (critical ? " (critical)" : "")
        if let marker = X509Extensions.appleMarkers[id] {
            text += ": " + marker
        } else if let value = kids.last, kids.count >= 2, tree.nodes[value].isEncapsulated,
                  let inner = elements(tree, value).first, let type = X509Extensions.valueType(id),
                  let decoded = type.detail?(tree, inner) {
            text += ": " + decoded
        }
        return text
    }
}
