import ASN1Lenient
import DocumentCore

/// Where an X.509 certificate's parts are, found by their position in the parsed tree (RFC 5280
/// §4.1): Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue BIT STRING },
/// TBSCertificate ::= SEQUENCE { [0] version OPTIONAL, serialNumber, signature, issuer, validity,
/// subject, subjectPublicKeyInfo, [1] [2] unique ids OPTIONAL, [3] extensions OPTIONAL }.
package struct CertificateLayout {
    var certificate: Int
    var tbs: Int
    var version: Int?
    var serial: Int?
    var issuer: Int?
    package var validity: Int?
    package var subject: Int?
    var publicKey: Int?
    var extensions: Int?
    var signatureAlgorithm: Int?
    var signatureValue: Int?

    package init?(tree: Tree, root: Int) {
        func isSequence(_ i: Int?) -> Bool { i.map { tree.nodes[$0].kind == .tlv && tree.nodes[$0].isUniversal(16) } ?? false }
        let outer = Array(tree.children(of: root).prefix(3))  // a SEQUENCE of millions makes no array
        guard isSequence(root), outer.count >= 1, isSequence(outer[0]) else { return nil }
        certificate = root
        tbs = outer[0]
        signatureAlgorithm = outer.count > 1 ? outer[1] : nil
        signatureValue = outer.count > 2 && tree.nodes[outer[2]].isUniversal(3) ? outer[2] : nil
        var parts = Array(tree.children(of: tbs))
        if let first = parts.first, tree.nodes[first].tagClass == .contextSpecific, tree.nodes[first].tagNumber == 0 {
            version = first
            parts.removeFirst()
        }
        guard parts.count >= 6, tree.nodes[parts[0]].isUniversal(2) else { return nil }
        serial = parts[0]
        issuer = parts[2]
        validity = parts[3]
        subject = parts[4]
        publicKey = parts[5]
        extensions = parts.dropFirst(6).first { tree.nodes[$0].tagClass == .contextSpecific && tree.nodes[$0].tagNumber == 3 }
    }

    /// Each extension's OID node, critical flag and value OCTET STRING, in order.
    func extensionList(_ tree: Tree) -> [(oid: Int, dotted: String)] {
        guard let extensions, let list = tree.child(of: extensions, at: 0) else { return [] }
        return tree.children(of: list).compactMap { ext in
            guard let oid = tree.child(of: ext, at: 0), case .objectIdentifier(let dotted, _)? = tree.value(of: oid) else { return nil }
            return (oid, dotted)
        }
    }

    /// The OID node of the extension `dotted`, if the certificate has it.
    package func extensionOID(_ tree: Tree, _ dotted: String) -> Int? { extensionList(tree).first { $0.dotted == dotted }?.oid }
}

/// Names the tour gives the extensions and algorithms it meets (its own wording).
package enum CertificateWords {
    package static let appleLeafMarker = "1.2.840.113635.100.6.11.1"
    package static let appleIntermediateMarker = "1.2.840.113635.100.6.2.1"

    static func extensionName(_ dotted: String) -> String {
        switch dotted {
        case "2.5.29.19": "basic constraints (is it a CA?)"
        case "2.5.29.15": "key usage (what the key may sign)"
        case "2.5.29.37": "extended key usage"
        case "2.5.29.14": "subject key identifier"
        case "2.5.29.35": "authority key identifier (which key signed this one)"
        case "2.5.29.31": "CRL distribution points"
        case "2.5.29.32": "certificate policies"
        case "2.5.29.17": "subject alternative name"
        case "1.3.6.1.5.5.7.1.1": "authority information access (where to fetch the issuer, OCSP)"
        case appleLeafMarker: "Apple's marker for a receipt / StoreKit signing leaf"
        case appleIntermediateMarker: "Apple's marker for the WWDR intermediate"
        default: OIDNames.name(for: dotted) ?? "an extension this tour does not name"
        }
    }
}
