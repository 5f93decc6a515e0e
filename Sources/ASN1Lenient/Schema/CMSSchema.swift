/// RFC 5652's SignedData (the receipt container), as an `ASN1Type` schema.
public enum CMSSchema {
    static let oid = X509Schema.oid

    /// CMSVersion ::= INTEGER
    static let version = ASN1Type("CMSVersion", .universal([2]))

    /// Attribute ::= SEQUENCE { attrType OBJECT IDENTIFIER, attrValues SET OF AttributeValue }
    static let attribute = ASN1Type("Attribute", .sequence([
        ASN1Field("attrType", oid),
        ASN1Field("attrValues", ASN1Type("", .setOf(ASN1Type("AttributeValue", .any)))),
    ]), detail: CMSDetails.attribute)

    static let attributes = ASN1Type("", .setOf(attribute))

    /// IssuerAndSerialNumber ::= SEQUENCE { issuer Name, serialNumber CertificateSerialNumber }
    static let issuerAndSerialNumber = ASN1Type("IssuerAndSerialNumber", .sequence([
        ASN1Field("issuer", X509Schema.name),
        ASN1Field("serialNumber", X509Schema.tbsSerialNumber),
    ]))

    /// SignerIdentifier ::= CHOICE { issuerAndSerialNumber, subjectKeyIdentifier [0] IMPLICIT }
    static let signerIdentifier = ASN1Type("SignerIdentifier", .choice([
        ASN1Field("issuerAndSerialNumber", issuerAndSerialNumber),
        ASN1Field("subjectKeyIdentifier", X509Extensions.keyIdentifier, .implicit(0)),
    ]))

    /// SignerInfo ::= SEQUENCE { version, sid, digestAlgorithm, signedAttrs [0] IMPLICIT OPTIONAL,
    /// signatureAlgorithm, signature OCTET STRING, unsignedAttrs [1] IMPLICIT OPTIONAL }
    public static let signerInfo = ASN1Type("SignerInfo", .sequence([
        ASN1Field("version", version),
        ASN1Field("sid", signerIdentifier),
        ASN1Field("digestAlgorithm", X509Schema.algorithmIdentifier),
        ASN1Field("signedAttrs", attributes, .implicit(0), optional: true),
        ASN1Field("signatureAlgorithm", X509Schema.algorithmIdentifier),
        ASN1Field("signature", ASN1Type("", .universal([4]), encapsulates: X509Schema.ecdsaSigValue)),
        ASN1Field("unsignedAttrs", attributes, .implicit(1), optional: true),
    ]), meaning: "One signer: which certificate (sid), the digest and signature algorithms, the signed attributes and the signature over them.")

    /// EncapsulatedContentInfo ::= SEQUENCE { eContentType, eContent [0] EXPLICIT OCTET STRING OPTIONAL }
    static let encapsulatedContentInfo = ASN1Type("EncapsulatedContentInfo", .sequence([
        ASN1Field("eContentType", oid),
        ASN1Field("eContent", X509Schema.octets, .explicit(0), optional: true),
    ]))

    /// SignedData ::= SEQUENCE { version, digestAlgorithms SET OF, encapContentInfo,
    /// certificates [0] IMPLICIT OPTIONAL, crls [1] IMPLICIT OPTIONAL, signerInfos SET OF SignerInfo }
    public static let signedData = ASN1Type("SignedData", .sequence([
        ASN1Field("version", version),
        ASN1Field("digestAlgorithms", ASN1Type("", .setOf(X509Schema.algorithmIdentifier))),
        ASN1Field("encapContentInfo", encapsulatedContentInfo),
        ASN1Field("certificates", ASN1Type("CertificateSet", .setOf(X509Schema.certificate), detail: CMSDetails.count("certificate")),
                  .implicit(0), optional: true),
        ASN1Field("crls", .any, .implicit(1), optional: true),
        ASN1Field("signerInfos", ASN1Type("", .setOf(signerInfo), detail: CMSDetails.count("signer"))),
    ]), meaning: "CMS signed data (RFC 5652): the content, the certificates and each signer's signature.")

    /// ContentInfo ::= SEQUENCE { contentType ContentType, content [0] EXPLICIT ANY DEFINED BY contentType }
    public static let contentInfo = ASN1Type("ContentInfo", .sequence([
        ASN1Field("contentType", oid),
        ASN1Field("content", .any, .explicit(0), optional: true, definedBy: (sibling: 0, types: { oid in
            oid == "1.2.840.113549.1.7.2" ? signedData : nil
        })),
    ]), meaning: "The outer PKCS#7 / CMS wrapper (RFC 5652): a content type and the content.")

    /// Whether a node starts like a ContentInfo: SEQUENCE { a PKCS#7 content type OID, … }.
    public static func looksLikeContentInfo(_ tree: Tree, _ node: Int) -> Bool {
        let n = tree.nodes[node]
        guard n.kind == .tlv, n.isUniversal(16), n.isConstructed, let first = tree.child(of: node, at: 0),
              let dotted = X509Details.oid(tree, first) else { return false }
        return dotted.hasPrefix("1.2.840.113549.1.7.")
    }
}

enum CMSDetails {
    /// "contentType: data", "signingTime: 2024-03-01T12:00:00Z", "messageDigest: 3A:…".
    static let attribute: @Sendable (Tree, Int) -> String? = { tree, node in
        let kids = X509Details.elements(tree, node)
        guard let type = X509Details.oid(tree, kids.first) else { return nil }
        let name = X509Details.oidName(type)
        guard kids.count > 1, let value = X509Details.elements(tree, kids[1]).first else { return name }
        if tree.nodes[value].isUniversal(4) { return name + ": " + ValueText.hex(tree.content(of: value), limit: 32) }
        return X509Details.text(tree, value).map { name + ": " + $0 } ?? name
    }

    static func count(_ word: String) -> @Sendable (Tree, Int) -> String? {
        { tree, node in
            let n = X509Details.elements(tree, node).count
            return "\(n) \(word)\(n == 1 ? "" : "s")"
        }
    }
}

/// Names a whole tree: each top-level element that is a CMS ContentInfo or an X.509 certificate is
/// matched against its schema (RFC 5652 / RFC 5280). Other ASN.1 gets no names.
public enum StructureNames {
    public static func names(for tree: Tree) -> NodeNames {
        var matcher = SchemaMatcher(tree: tree)
        for root in tree.roots {
            if CMSSchema.looksLikeContentInfo(tree, root) {
                matcher.name(root, as: CMSSchema.contentInfo)
            } else if X509Schema.looksLikeCertificate(tree, root) {
                matcher.name(root, as: X509Schema.certificate)
            }
        }
        return NodeNames(table: matcher.names)
    }
}
