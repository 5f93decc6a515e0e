import ASN1Lenient
import ByteText

/// Where the parts of a PKCS#7 / CMS SignedData receipt are in the parse tree (node indices into
/// `ReceiptAnalysis.tree`, the tree of the whole input).
///
///     ContentInfo ::= SEQUENCE { contentType OID (signedData), [0] EXPLICIT SignedData }
///     SignedData  ::= SEQUENCE { version, digestAlgorithms SET, encapContentInfo,
///                                [0] IMPLICIT certificates OPTIONAL, [1] IMPLICIT crls OPTIONAL,
///                                signerInfos SET }
///     encapContentInfo ::= SEQUENCE { eContentType OID (data), [0] EXPLICIT OCTET STRING }
public struct ContainerInfo: Sendable, Equatable {
    public var contentInfo: Int
    public var contentType: Int?
    public var signedData: Int?
    public var version: Int?
    public var digestAlgorithms: Int?
    public var encapContentInfo: Int?
    public var eContentType: Int?
    /// The `[0]` around the content OCTET STRING.
    public var eContent: Int?
    /// The content OCTET STRING: primitive (App Store, DER) or constructed (Xcode, BER).
    public var payloadString: Int?
    /// The primitive OCTET STRING segments that carry the payload bytes, in order (one for a
    /// primitive OCTET STRING; Xcode writes a constructed one wrapping a single segment).
    public var payloadChunks: [Int] = []
    /// The payload SET in this tree; nil when it is not a SET or lives in a separate tree (several chunks).
    public var payloadSet: Int?
    /// True when the payload came in several chunks, was reassembled and parsed as its own tree
    /// (`ReceiptAnalysis.payloadTree`): receipt node indices then point into that second tree.
    public var payloadIsReassembled = false
    public var certificateSet: Int?
    public var certificates: [Int] = []
    public var crls: Int?
    public var signerInfoSet: Int?
    public var signerInfos: [Int] = []
    /// The container uses BER-only encodings (indefinite lengths, constructed strings): Xcode style.
    public var isBER = false

    /// What a container node is, for labels: "ContentInfo", "SignedData", "certificate #1", …
    public func role(of node: Int) -> String? {
        switch node {
        case contentInfo: return "PKCS#7 ContentInfo"
        case contentType: return "content type (signedData)"
        case signedData: return "SignedData"
        case version: return "SignedData version"
        case digestAlgorithms: return "digest algorithms"
        case encapContentInfo: return "encapsulated content info"
        case eContentType: return "encapsulated content type (data)"
        case eContent: return "encapsulated content [0]"
        case payloadString: return "receipt payload (OCTET STRING)"
        case payloadSet: return "receipt payload SET"
        case certificateSet: return "certificates [0]"
        case crls: return "CRLs [1]"
        case signerInfoSet: return "SignerInfos"
        default: break
        }
        if let i = payloadChunks.firstIndex(of: node) { return "receipt payload segment #\(i + 1)" }
        if let i = certificates.firstIndex(of: node) { return "certificate #\(i + 1)" }
        if let i = signerInfos.firstIndex(of: node) { return "SignerInfo #\(i + 1)" }
        return nil
    }
}

enum PKCS7Locator {
    static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    static let dataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]

    /// Finds the container's parts; every departure from the expected shape is a finding pinned
    /// to the node concerned. Returns nil when the input has no element at all.
    static func locate(_ tree: Tree) -> (ContainerInfo?, [Diagnostic]) {
        var findings: [Diagnostic] = []
        func add(_ code: ReceiptCode, _ message: String, _ node: Int) {
            findings.append(.receipt(code, message, node: node, in: tree))
        }
        guard let root = tree.roots.first(where: { tree.nodes[$0].kind == .tlv }) else {
            if let first = tree.roots.first {
                add(.notContentInfo, "not a PKCS#7 structure: the input does not start with an ASN.1 element", first)
            } else {
                findings.append(Diagnostic(severity: .error, code: ReceiptCode.empty.code,
                                           message: "the input is empty: no PKCS#7 structure", offset: 0,
                                           length: tree.bytes.count, node: nil))
            }
            return (nil, findings)
        }
        var info = ContainerInfo(contentInfo: root)

        guard isSequence(tree, root) else {
            add(.notContentInfo, "not a PKCS#7 ContentInfo: the top-level element is \(describe(tree, root)), a SEQUENCE was expected", root)
            return (info, findings)
        }
        let top = tree.elements(of: root, first: 2)
        guard let oid = top.first, tree.nodes[oid].isUniversal(6) else {
            add(.notContentInfo, "not a PKCS#7 ContentInfo: the SEQUENCE does not start with a content type OBJECT IDENTIFIER", root)
            return (info, findings)
        }
        info.contentType = oid
        guard Array(tree.content(of: oid)) == signedDataOID else {
            add(.notSignedData, "not a PKCS#7 SignedData: " + wrongOID(tree, oid, what: "the content type", expected: "signedData", dotted: "1.2.840.113549.1.7.2", encoding: signedDataOID), oid)
            return (info, findings)
        }
        guard top.count >= 2, isContext(tree, top[1], 0) else {
            add(.contentMissing, "the ContentInfo has no [0] content: there is no SignedData", root)
            return (info, findings)
        }
        guard let sd = tree.elements(of: top[1], first: 1).first, isSequence(tree, sd) else {
            add(.signedDataMalformed, "the [0] content does not hold a SignedData SEQUENCE", top[1])
            return (info, findings)
        }
        info.signedData = sd
        let parts = tree.elements(of: sd, first: 6)
        var i = 0
        if i < parts.count, tree.nodes[parts[i]].isUniversal(2) { info.version = parts[i]; i += 1 }
        else { add(.signedDataMalformed, "the SignedData does not start with its version INTEGER", sd) }
        if i < parts.count, isSet(tree, parts[i]) { info.digestAlgorithms = parts[i]; i += 1 }
        else { add(.signedDataMalformed, "the SignedData has no digestAlgorithms SET after its version", sd) }
        if i < parts.count, isSequence(tree, parts[i]) {
            info.encapContentInfo = parts[i]
            i += 1
            locatePayload(tree, &info, add)
        } else {
            add(.signedDataMalformed, "the SignedData has no encapContentInfo SEQUENCE: there is no receipt payload", sd)
        }
        if i < parts.count, isContext(tree, parts[i], 0) {
            info.certificateSet = parts[i]
            info.certificates = tree.elements(of: parts[i])
            i += 1
        }
        if i < parts.count, isContext(tree, parts[i], 1) { info.crls = parts[i]; i += 1 }
        if i < parts.count, isSet(tree, parts[i]) {
            info.signerInfoSet = parts[i]
            info.signerInfos = tree.elements(of: parts[i])
            i += 1
        }
        // BER-only encodings outside the payload: the container is Xcode-style BER.
        info.isBER = tree.diagnostics.contains { d in
            guard d.severity == .notDER, let n = d.node?.index else { return false }
            return !info.payloadChunks.contains { isInside(n, $0, tree) && n != $0 }
        }
        let cut = isCut(tree, sd)
        if info.certificates.isEmpty && !cut {
            add(.noCertificates, "the SignedData embeds no certificates: the signer cannot be identified", info.certificateSet ?? sd)
        }
        if info.signerInfos.isEmpty && !cut {
            add(.noSignerInfos, "the SignedData has no SignerInfo: nothing is signed", info.signerInfoSet ?? sd)
        }
        return (info, findings)
    }

    private static func locatePayload(_ tree: Tree, _ info: inout ContainerInfo, _ add: (ReceiptCode, String, Int) -> Void) {
        guard let eci = info.encapContentInfo else { return }
        let parts = tree.elements(of: eci, first: 2)
        guard let oid = parts.first, tree.nodes[oid].isUniversal(6) else {
            add(.signedDataMalformed, "the encapContentInfo does not start with a content type OBJECT IDENTIFIER", eci)
            return
        }
        info.eContentType = oid
        if Array(tree.content(of: oid)) != dataOID {
            add(.contentTypeNotData, wrongOID(tree, oid, what: "the encapsulated content type", expected: "data", dotted: "1.2.840.113549.1.7.1", encoding: dataOID) + " for a receipt", oid)
        }
        guard parts.count >= 2, isContext(tree, parts[1], 0) else {
            add(.payloadMissing, "the encapContentInfo carries no content (a detached signature): there is no receipt payload", eci)
            return
        }
        info.eContent = parts[1]
        guard let string = tree.elements(of: parts[1], first: 1).first else {
            add(.payloadMissing, "the [0] content is empty: there is no receipt payload", parts[1])
            return
        }
        guard tree.nodes[string].isUniversal(4) else {
            add(.payloadNotOctetString, "the encapsulated content is \(describe(tree, string)), an OCTET STRING was expected", string)
            return
        }
        info.payloadString = string
        if tree.nodes[string].isConstructed {
            collectChunks(tree, string, into: &info.payloadChunks)
            if info.payloadChunks.isEmpty, !isCut(tree, string) {
                add(.payloadMissing, "the constructed OCTET STRING holds no segment: the receipt payload is empty", string)
            }
        } else {
            info.payloadChunks = [string]
        }
    }

    /// Primitive OCTET STRING segments of a constructed one, depth first (BER allows nesting).
    private static func collectChunks(_ tree: Tree, _ node: Int, into out: inout [Int]) {
        for c in tree.children(of: node) {
            let n = tree.nodes[c]
            guard n.isUniversal(4) else { continue }
            if n.isConstructed { collectChunks(tree, c, into: &out) } else { out.append(c) }
        }
    }

    // MARK: - Helpers

    static func isSequence(_ tree: Tree, _ n: Int) -> Bool { tree.nodes[n].isUniversal(16) && tree.nodes[n].isConstructed }
    static func isSet(_ tree: Tree, _ n: Int) -> Bool { tree.nodes[n].isUniversal(17) && tree.nodes[n].isConstructed }
    static func isContext(_ tree: Tree, _ n: Int, _ number: UInt32) -> Bool {
        let node = tree.nodes[n]
        return node.kind == .tlv && node.tagClass == .contextSpecific && node.tagNumber == number && node.isConstructed
    }

    static func isInside(_ node: Int, _ ancestor: Int, _ tree: Tree) -> Bool {
        node >= ancestor && node < Int(tree.nodes[ancestor].subtreeEnd)
    }

    /// Whether a node's declared length ran past the input or its parent.
    static func isCut(_ tree: Tree, _ node: Int) -> Bool {
        tree.diagnostics.contains {
            $0.node == NodeIndex(node) && ($0.code == ParserCode.truncatedContent.code
                || $0.code == ParserCode.lengthExceedsParent.code || $0.code == ParserCode.missingEOC.code)
        }
    }

    static func describe(_ tree: Tree, _ node: Int) -> String {
        InnerTLV.describe(tree, node)
    }

    /// "the content type is pkcs7-data (1.2.840.113549.1.7.1), signedData (1.2.840.113549.1.7.2) was expected";
    /// for an OID that prints as the expected one but is not its encoding (a subidentifier padded
    /// with a leading 0x80, which DER forbids and a byte comparison rightly refuses), says that instead
    /// of naming the same OID twice.
    static func wrongOID(_ tree: Tree, _ node: Int, what: String, expected: String, dotted: String, encoding: [UInt8]) -> String {
        let content = tree.nodes[node].contentRange
        if ObjectIdentifierValue.dotted(tree.bytes[content]) == dotted,
           let padding = paddingOctet(tree.bytes, content) {
            return "\(what) OBJECT IDENTIFIER prints as \(expected) (\(dotted)) but is not its encoding: the subidentifier at offset "
                + "\(padding) starts with 0x80, a padding octet DER forbids, so its bytes are not \(expected)'s "
                + "(\(Hex.string(encoding, .upper, separator: " ")))"
        }
        return "\(what) is \(oidText(tree, node)), \(expected) (\(dotted)) was expected"
    }

    /// The offset of the first subidentifier that starts with 0x80 (not in its shortest form).
    static func paddingOctet(_ bytes: [UInt8], _ content: Range<Int>) -> Int? {
        var start = true
        for i in content {
            if start && bytes[i] == 0x80 { return i }
            start = bytes[i] & 0x80 == 0
        }
        return nil
    }

    static func oidText(_ tree: Tree, _ node: Int) -> String {
        if case .objectIdentifier(let dotted, let name)? = tree.value(of: node) {
            return name.map { "\($0) (\(dotted))" } ?? dotted
        }
        return "a malformed OBJECT IDENTIFIER"
    }
}
