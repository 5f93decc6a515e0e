import ByteText

/// An X.509 Name as OpenSSL's `X509_NAME_print_ex(…, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB)` writes
/// it — `CN=Apple Root CA,OU=Apple Certification Authority,O=Apple Inc.,C=US` — read from our own
/// tree, so showing a certificate's name loads no libcrypto (issue 32). The rules are RFC 2253's as
/// OpenSSL applies them: last entry first, `,` between RDNs and `+` inside one, OpenSSL's short names
/// (else the dotted OID), a value that is not text, or of an unnamed attribute, as `#` and its DER in hex, `,+"\<>;` escaped with `\`, a leading
/// `#` or space and a trailing space escaped, control characters as `\XX`, other text as UTF-8.
/// `RFC2253NameTests` compares it with OpenSSL on every certificate of the samples and the corpus.
public enum RFC2253Name {
    /// The subject and issuer of a DER certificate, and the subject's first CN; nil when the bytes
    /// are not a certificate whose names can be found.
    public struct CertificateNames: Sendable, Equatable {
        public var subject: String
        public var issuer: String
        public var commonName: String?
    }

    public static func certificateNames(der: [UInt8]) -> CertificateNames? {
        let tree = ASN1Parser.parse(der)
        guard let certificate = tree.roots.first, let tbs = X509Details.elements(tree, certificate).first else { return nil }
        let fields = X509Details.elements(tree, tbs)
        // [0] version is optional (v1): serial, signature, issuer, validity, subject follow it.
        let offset = fields.first.map { tree.nodes[$0].tagClass == .contextSpecific ? 1 : 0 } ?? 0
        guard fields.count > 4 + offset, let issuer = name(tree, fields[2 + offset]), let subject = name(tree, fields[4 + offset]) else {
            return nil
        }
        return CertificateNames(subject: subject, issuer: issuer, commonName: commonName(tree, fields[4 + offset]))
    }

    /// A Name (SEQUENCE OF RDN) node in RFC 2253 form; nil when a part is not an attribute.
    public static func name(_ tree: Tree, _ node: Int) -> String? {
        var rdns: [String] = []
        for rdn in X509Details.elements(tree, node) {
            var parts: [String] = []
            for attribute in X509Details.elements(tree, rdn) {
                let pair = X509Details.elements(tree, attribute)
                guard pair.count == 2, case .objectIdentifier(let dotted, _)? = tree.value(of: pair[0]) else { return nil }
                let short = OIDNames.openSSLShortName(for: dotted)
                if let short, let text = text(tree, pair[1]) {
                    parts.append(short + "=" + escape(text))
                } else {
                    // An attribute OpenSSL has no name for, or a value that is no string: `#` and the DER.
                    parts.append((short ?? dotted) + "=#" + Hex.string(tree.bytes[tree.nodes[pair[1]].byteRange], .upper))
                }
            }
            // OpenSSL reverses the entries one by one, so the parts of a multi-valued RDN too.
            rdns.append(parts.reversed().joined(separator: "+"))
        }
        return rdns.reversed().joined(separator: ",")
    }

    /// The first CN's text, unescaped (what `X509_NAME_get_index_by_NID(…, NID_commonName)` finds).
    static func commonName(_ tree: Tree, _ node: Int) -> String? {
        for rdn in X509Details.elements(tree, node) {
            for attribute in X509Details.elements(tree, rdn) {
                let pair = X509Details.elements(tree, attribute)
                if pair.count == 2, case .objectIdentifier("2.5.4.3", _)? = tree.value(of: pair[0]) { return text(tree, pair[1]) }
            }
        }
        return nil
    }

    /// A string value's text; nil for a value of another type (OpenSSL dumps those as `#` DER).
    private static func text(_ tree: Tree, _ node: Int) -> String? {
        guard case .string(let text, _)? = tree.value(of: node) else { return nil }
        return text
    }

    static func escape(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = ""
        for (i, scalar) in scalars.enumerated() {
            switch scalar {
            case ",", "+", "\"", "\\", "<", ">", ";": out += "\\" + String(scalar)
            case "#" where i == 0: out += "\\#"
            case " " where i == 0 || i == scalars.count - 1: out += "\\ "
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\" + Hex.string([UInt8(scalar.value)], .upper)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
