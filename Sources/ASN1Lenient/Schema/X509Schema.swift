/// RFC 5280's certificate module (the parts a receipt's or a token's certificates use), as an
/// `ASN1Type` schema. The names are the module's own, so a reader can look them up in the RFC.
public enum X509Schema {
    typealias Detail = @Sendable (Tree, Int) -> String?

    static let integer = ASN1Type.primitive(2)
    static let oid = ASN1Type.primitive(6)
    static let boolean = ASN1Type.primitive(1)
    static let octets = ASN1Type.primitive(4)
    static let bits = ASN1Type.primitive(3)
    /// Time ::= CHOICE { utcTime UTCTime, generalTime GeneralizedTime }
    static let time = ASN1Type.primitive(23, 24)

    /// AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL }
    public static let algorithmIdentifier = ASN1Type("AlgorithmIdentifier", .sequence([
        ASN1Field("algorithm", oid),
        ASN1Field("parameters", .any, optional: true),
    ]), detail: X509Details.algorithm)

    /// AttributeTypeAndValue ::= SEQUENCE { type AttributeType, value AttributeValue }
    static let attributeTypeAndValue = ASN1Type("AttributeTypeAndValue", .sequence([
        ASN1Field("type", oid),
        ASN1Field("value", .any),
    ]), detail: X509Details.attributeTypeAndValue)

    /// RelativeDistinguishedName ::= SET SIZE (1..MAX) OF AttributeTypeAndValue
    static let relativeDistinguishedName = ASN1Type("RelativeDistinguishedName", .setOf(attributeTypeAndValue),
                                                    detail: X509Details.relativeName)

    /// Name ::= CHOICE { rdnSequence RDNSequence }; RDNSequence ::= SEQUENCE OF RelativeDistinguishedName
    public static let name = ASN1Type("Name", .sequenceOf(relativeDistinguishedName), detail: X509Details.distinguishedName)

    /// Validity ::= SEQUENCE { notBefore Time, notAfter Time }
    static let validity = ASN1Type("Validity", .sequence([
        ASN1Field("notBefore", time),
        ASN1Field("notAfter", time),
    ]))

    /// RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER } (RFC 8017)
    static let rsaPublicKey = ASN1Type("RSAPublicKey", .sequence([
        ASN1Field("modulus", ASN1Type.primitive(2, detail: X509Details.modulusSize)),
        ASN1Field("publicExponent", integer),
    ]))

    /// SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }
    static let subjectPublicKeyInfo = ASN1Type("SubjectPublicKeyInfo", .sequence([
        ASN1Field("algorithm", algorithmIdentifier),
        ASN1Field("subjectPublicKey", ASN1Type("", .universal([3]), encapsulates: rsaPublicKey, detail: X509Details.publicKeyBits)),
    ]), detail: X509Details.publicKey)

    /// Extension ::= SEQUENCE { extnID OBJECT IDENTIFIER, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }
    /// (extnValue holds the DER of the type its extnID defines: `X509Extensions.valueType`).
    static let extensionType = ASN1Type("Extension", .sequence([
        ASN1Field("extnID", oid),
        ASN1Field("critical", boolean, optional: true),
        ASN1Field("extnValue", octets, definedBy: (sibling: 0, types: { oid in
            X509Extensions.valueType(oid).map { ASN1Type("", .universal([4]), encapsulates: $0) }
        })),
    ]), detail: X509Details.extensionSummary)

    static let extensions = ASN1Type("Extensions", .sequenceOf(extensionType), detail: X509Details.extensionCount)

    /// CertificateSerialNumber ::= INTEGER (shown in hex too, as certificate tools print it)
    static let tbsSerialNumber = ASN1Type.primitive(2, detail: X509Details.serialHex)

    /// Version ::= INTEGER { v1(0), v2(1), v3(2) }
    static let version = ASN1Type("Version", .universal([2]), detail: X509Details.certificateVersion)

    /// TBSCertificate ::= SEQUENCE { version [0] EXPLICIT Version DEFAULT v1, serialNumber, signature,
    /// issuer, validity, subject, subjectPublicKeyInfo, issuerUniqueID [1] IMPLICIT OPTIONAL,
    /// subjectUniqueID [2] IMPLICIT OPTIONAL, extensions [3] EXPLICIT Extensions OPTIONAL }
    static let tbsCertificate = ASN1Type("TBSCertificate", .sequence([
        ASN1Field("version", version, .explicit(0), optional: true),
        ASN1Field("serialNumber", tbsSerialNumber),
        ASN1Field("signature", algorithmIdentifier),
        ASN1Field("issuer", name),
        ASN1Field("validity", validity),
        ASN1Field("subject", name),
        ASN1Field("subjectPublicKeyInfo", subjectPublicKeyInfo),
        ASN1Field("issuerUniqueID", bits, .implicit(1), optional: true),
        ASN1Field("subjectUniqueID", bits, .implicit(2), optional: true),
        ASN1Field("extensions", extensions, .explicit(3), optional: true),
    ]), meaning: "The signed part of the certificate: everything the issuer's signature covers.")

    /// ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER } (RFC 3279)
    public static let ecdsaSigValue = ASN1Type("ECDSA-Sig-Value", .sequence([
        ASN1Field("r", integer),
        ASN1Field("s", integer),
    ]))

    /// Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm AlgorithmIdentifier, signatureValue BIT STRING }
    public static let certificate = ASN1Type("Certificate", .sequence([
        ASN1Field("tbsCertificate", tbsCertificate),
        ASN1Field("signatureAlgorithm", algorithmIdentifier),
        ASN1Field("signatureValue", ASN1Type("", .universal([3]), encapsulates: ecdsaSigValue)),
    ]), meaning: "An X.509 certificate (RFC 5280): a subject's public key and name, signed by its issuer.",
        detail: X509Details.certificateSubject)

    /// Whether a node has a certificate's outline: SEQUENCE { SEQUENCE, AlgorithmIdentifier, BIT STRING }.
    public static func looksLikeCertificate(_ tree: Tree, _ node: Int) -> Bool {
        let n = tree.nodes[node]
        guard n.kind == .tlv, n.isUniversal(16), n.isConstructed else { return false }
        // Four at most: a SEQUENCE of millions of elements is asked too.
        let kids = tree.elements(of: node, first: 4)
        guard kids.count == 3, tree.nodes[kids[0]].isUniversal(16), tree.nodes[kids[1]].isUniversal(16),
              tree.nodes[kids[2]].isUniversal(3) else { return false }
        return tree.child(of: kids[1], at: 0).map { tree.nodes[$0].isUniversal(6) } ?? false
    }
}

/// The value types of the certificate extensions we name (RFC 5280 §4.2 and Apple's markers).
public enum X509Extensions {
    static let keyIdentifier = ASN1Type("KeyIdentifier", .universal([4]), detail: X509Details.hexValue)

    static let generalNames = ASN1Type("GeneralNames", .sequenceOf(.any), detail: X509Details.locations)

    static let types: [String: ASN1Type] = [
        "2.5.29.14": ASN1Type("SubjectKeyIdentifier", .universal([4]), detail: X509Details.hexValue),
        "2.5.29.15": ASN1Type("KeyUsage", .universal([3]), detail: X509Details.keyUsage),
        "2.5.29.19": ASN1Type("BasicConstraints", .sequence([
            ASN1Field("cA", X509Schema.boolean, optional: true),
            ASN1Field("pathLenConstraint", X509Schema.integer, optional: true),
        ]), detail: X509Details.basicConstraints),
        "2.5.29.35": ASN1Type("AuthorityKeyIdentifier", .sequence([
            ASN1Field("keyIdentifier", keyIdentifier, .implicit(0), optional: true),
            ASN1Field("authorityCertIssuer", generalNames, .implicit(1), optional: true),
            ASN1Field("authorityCertSerialNumber", X509Schema.integer, .implicit(2), optional: true),
        ]), detail: X509Details.authorityKeyIdentifier),
        "2.5.29.37": ASN1Type("ExtKeyUsageSyntax", .sequenceOf(ASN1Type("KeyPurposeId", .universal([6]))),
                              detail: X509Details.oidList),
        "2.5.29.32": ASN1Type("CertificatePolicies", .sequenceOf(ASN1Type("PolicyInformation", .sequence([
            ASN1Field("policyIdentifier", X509Schema.oid),
            ASN1Field("policyQualifiers", ASN1Type("", .sequenceOf(ASN1Type("PolicyQualifierInfo", .sequence([
                ASN1Field("policyQualifierId", X509Schema.oid),
                ASN1Field("qualifier", .any),
            ])))), optional: true),
        ]), detail: X509Details.firstOIDName)), detail: X509Details.policies),
        "2.5.29.31": ASN1Type("CRLDistributionPoints", .sequenceOf(ASN1Type("DistributionPoint", .any, detail: X509Details.locations)),
                              detail: X509Details.locations),
        "2.5.29.17": ASN1Type("SubjectAltName", .sequenceOf(.any), detail: X509Details.locations),
        "1.3.6.1.5.5.7.1.1": ASN1Type("AuthorityInfoAccessSyntax", .sequenceOf(ASN1Type("AccessDescription", .sequence([
            ASN1Field("accessMethod", X509Schema.oid),
            ASN1Field("accessLocation", .any),
        ]), detail: X509Details.accessDescription)), detail: X509Details.locations),
    ]

    /// What Apple's marker extensions (value: NULL) say about the certificate that carries them.
    public static let appleMarkers: [String: String] = [
        "1.2.840.113635.100.6.11.1": "marks the leaf that signs App Store receipts and StoreKit data; verifiers require it on the leaf",
        "1.2.840.113635.100.6.2.1": "marks Apple's WWDR intermediate CA, the issuer of the signing leaf",
        "1.2.840.113635.100.6.2.15": "marks an Apple WWDR intermediate CA (G5 and later)",
        "1.2.840.113635.100.6.25": "an Apple StoreKit certificate marker",
    ]

    static let appleMarker = ASN1Type("marker", .universal([5]), detail: { _, _ in "present" })

    /// The type of an extension's value (the DER inside extnValue), nil for extensions not described.
    public static func valueType(_ oid: String) -> ASN1Type? {
        if let type = types[oid] { return type }
        if appleMarkers[oid] != nil { return appleMarker }
        return nil
    }
}
