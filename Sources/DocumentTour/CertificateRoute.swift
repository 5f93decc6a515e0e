import ASN1Lenient
import ByteText
import DocumentCore

/// The certificate route (RFC 5280 §4.1), for a certificate opened on its own: Certificate →
/// tbsCertificate → version → serial → issuer → validity → subject → public key → extensions →
/// signature algorithm → signature. Every part is found by its position in the tree.
package struct CertificateRoute {
    let lessons: TourLessons
    let layout: CertificateLayout

    package init?(lessons: TourLessons, root: Int) {
        guard let layout = CertificateLayout(tree: lessons.tree, root: root) else { return nil }
        self.lessons = lessons
        self.layout = layout
    }

    var tree: Tree { lessons.tree }

    package func steps() -> [TourStep] {
        var steps: [TourStep] = []
        func add(_ node: Int?, _ focus: TourFocus, _ title: String, _ meaning: [String], check: SelfCheck? = nil) {
            guard let node else { return }
            steps.append(lessons.step(node, focus, title, meaning, check: check,
                                      withheld: check == nil ? [] : TourLessons.withheld(for: focus)))
        }
        let c = layout
        add(c.certificate, .length, "Certificate: signed part, algorithm, signature",
            ["meaning: Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue BIT STRING } (RFC 5280 §4.1)"],
            check: lessons.lengthCheck(c.certificate))
        add(c.tbs, .identifier, "tbsCertificate: the bytes the issuer signs",
            ["meaning: \"to be signed\": the issuer's signature covers exactly these \(NumberText.grouped(tree.nodes[c.tbs].totalLength)) bytes, header included; everything a verifier trusts is in here"])
        if let version = c.version {
            add(version, .identifier, "version: [0] EXPLICIT",
                ["meaning: version [0] EXPLICIT INTEGER DEFAULT v1: the value is one less than the version, so 2 means X.509 v3 (the version with extensions)"],
                check: lessons.identifierCheck(version))
        }
        add(c.serial, .content, "serialNumber",
            ["meaning: unique among the certificates of one issuer; a positive INTEGER, so a 00 octet leads when the top bit would be set"])
        add(c.issuer, .whole, "issuer: who signed it",
            ["meaning: Name ::= SEQUENCE OF RelativeDistinguishedName, each a SET of attribute type and value (country, organisation, common name …)"],
            check: c.issuer.flatMap { lessons.memberCountCheck($0, "How many RDNs (SETs) does this issuer Name hold?", what: "relative distinguished names") })
        add(c.validity, .whole, "validity: notBefore and notAfter",
            validityLessons(), check: c.validity.flatMap(yearCheck))
        add(c.subject, .whole, "subject: whose key this is",
            ["subject: " + (c.subject.map(nameText) ?? "")]
            + (c.subject.flatMap { s in c.issuer.map { tree.bytes[tree.nodes[$0].byteRange] == tree.bytes[tree.nodes[s].byteRange] } } == true
               ? ["meaning: the subject equals the issuer: a self-signed certificate, a root a verifier must already trust"]
               : ["meaning: the issuer (\(c.issuer.map(nameText) ?? "?")) vouches that this key belongs to this subject"]))
        if let key = c.publicKey {
            let (lines, check) = keyLesson(key)
            add(key, .whole, "subjectPublicKeyInfo: the key", lines, check: check)
        }
        if let extensions = c.extensions {
            add(extensions, .identifier, "extensions: [3] EXPLICIT",
                ["meaning: SEQUENCE OF Extension { extnID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING holding the DER value }"]
                + c.extensionList(tree).map { "extension: \($0.dotted) = \(CertificateWords.extensionName($0.dotted))" })
        }
        add(c.signatureAlgorithm, .whole, "signatureAlgorithm",
            (c.signatureAlgorithm.flatMap { tree.child(of: $0, at: 0) }.flatMap { oid -> String? in
                guard case .objectIdentifier(let dotted, let name)? = tree.value(of: oid) else { return nil }
                return "algorithm: \(dotted)" + (name.map { " (\($0))" } ?? "")
            }.map { [$0] } ?? [])
            + ["meaning: how the issuer signed the tbsCertificate; it must repeat the algorithm inside tbsCertificate (which the signature covers, so it cannot be swapped)"])
        add(c.signatureValue, .content, "signatureValue: a BIT STRING",
            ["meaning: the issuer's signature over the tbsCertificate bytes; check it with the issuer's public key"],
            check: c.signatureValue.flatMap(unusedBitsCheck))
        return steps
    }

    /// "C=US, O=…, CN=…": each RDN's type by its short name, values terminal-safe.
    package func nameText(_ name: Int) -> String {
        var parts: [String] = []
        for rdn in tree.children(of: name) {
            for pair in tree.children(of: rdn) {
                let kids = Array(tree.children(of: pair))
                guard kids.count == 2, case .objectIdentifier(let dotted, _)? = tree.value(of: kids[0]) else { continue }
                let short = ["2.5.4.6": "C", "2.5.4.10": "O", "2.5.4.11": "OU", "2.5.4.3": "CN", "2.5.4.8": "ST", "2.5.4.7": "L",
                             "1.2.840.113549.1.9.1": "emailAddress"][dotted] ?? dotted
                let value: String
                if case .string(let s, _)? = tree.value(of: kids[1]) { value = s } else { value = "(not a string)" }
                parts.append("\(short)=\(TerminalSafe.escape(value))")
            }
        }
        return parts.joined(separator: ", ")
    }

    package func times() -> [(node: Int, raw: String, value: TimeValue?)] {
        guard let validity = layout.validity else { return [] }
        return tree.children(of: validity).compactMap { t in
            guard case .time(let raw, let value)? = tree.value(of: t) else { return nil }
            return (t, raw, value)
        }
    }

    package func validityLessons() -> [String] {
        var lines = ["meaning: Validity ::= SEQUENCE { notBefore, notAfter }: UTCTime (two-digit year) through 2049, GeneralizedTime (four digits) after"]
        let t = times()
        if t.count == 2 {
            lines.append("written: notBefore \"\(TerminalSafe.escape(t[0].raw))\", notAfter \"\(TerminalSafe.escape(t[1].raw))\"")
            if let a = t[0].value, let b = t[1].value {
                let days = (b.epochSeconds - a.epochSeconds) / 86_400
                lines.append("meaning: valid for \(NumberText.grouped(Int(days))) days; a verifier judges it at one moment (now, or the time the data was signed)")
            }
        }
        return lines
    }

    /// UTCTime's two-digit year (RFC 5280 §4.1.2.5.1: 50-99 → 19xx, 00-49 → 20xx).
    func yearCheck(_ validity: Int) -> SelfCheck? {
        guard let after = times().last(where: { tree.nodes[$0.node].isUniversal(23) }), let value = after.value else { return nil }
        let yy = value.year % 100
        return SelfCheck("The UTCTime \"\(TerminalSafe.escape(after.raw))\" has a two-digit year: which year is it?",
                         right: ("\(value.year)", "RFC 5280 reads UTCTime years 50-99 as 19xx and 00-49 as 20xx, so \(PlainText.zeroPadded(yy, width: 2)) is \(value.year)"),
                         wrong: [("\(value.year >= 2000 ? value.year - 100 : value.year + 100)", "the century is not free: \(PlainText.zeroPadded(yy, width: 2)) is \(yy < 50 ? "below 50, so 20xx" : "50 or more, so 19xx")"),
                                 ("\(value.year + 1)", "the year is the first two digits, \(PlainText.zeroPadded(yy, width: 2)); \(value.month < 10 ? "0" : "")\(value.month) is the month")],
                         seed: Int(tree.nodes[after.node].offset))
    }

    /// The key's algorithm and size, with a question on the size.
    func keyLesson(_ key: Int) -> ([String], SelfCheck?) {
        let kids = Array(tree.children(of: key))
        guard kids.count == 2, let algorithm = Array(tree.children(of: kids[0])).first,
              case .objectIdentifier(let dotted, let name)? = tree.value(of: algorithm) else { return (["meaning: SubjectPublicKeyInfo ::= SEQUENCE { algorithm, subjectPublicKey BIT STRING }"], nil) }
        var lines = ["meaning: SubjectPublicKeyInfo ::= SEQUENCE { algorithm, subjectPublicKey BIT STRING }: algorithm \(dotted)" + (name.map { " (\($0))" } ?? "")]
        let params = Array(tree.children(of: kids[0])).dropFirst().first
        if case .objectIdentifier(let curve, let curveName)? = params.flatMap({ tree.value(of: $0) }) {
            lines.append("meaning: the curve is named by its OID \(curve)" + (curveName.map { " (\($0))" } ?? ""))
        }
        let bits = tree.content(of: kids[1])
        let seed = Int(tree.nodes[key].offset)
        if dotted == "1.2.840.10045.2.1", bits.count > 2, bits[bits.startIndex + 1] == 0x04 {
            let point = bits.count - 1
            let coordinate = (point - 1) / 2
            lines.append("key: \(point) bytes: 04 (uncompressed point), then the coordinates X and Y, each the same size")
            return (lines, SelfCheck("The point is \(point) bytes, 04 then X then Y: how many bits is each coordinate?",
                                     right: ("\(coordinate * 8)", "(\(point) − 1) / 2 = \(coordinate) bytes = \(coordinate * 8) bits each: the curve's size (P-256 for 256)"),
                                     wrong: [("\((point - 1) * 8)", "that is X and Y together; each coordinate is half"),
                                             ("\(point * 8 / 2)", "the 04 octet only says the point is uncompressed; it belongs to neither coordinate")],
                                     seed: seed))
        }
        if dotted == "1.2.840.113549.1.1.1", let rsa = Array(tree.children(of: kids[1])).first,
           let modulus = Array(tree.children(of: rsa)).first, tree.nodes[modulus].isUniversal(2) {
            let content = tree.content(of: modulus)
            let lead = content.first == 0 ? 1 : 0
            let size = (content.count - lead) * 8
            lines.append("key: the BIT STRING holds RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }; the modulus has \(content.count) content octets, starting \(Hex.string(content.prefix(2), .upper, separator: " "))")
            return (lines, SelfCheck("The modulus INTEGER has \(content.count) content octets: how many bits is the RSA key?",
                                     right: ("\(size)", lead == 1 ? "the leading 00 only keeps the INTEGER positive: \(content.count - 1) octets × 8 = \(size) bits" : "\(content.count) octets × 8 = \(size) bits"),
                                     wrong: [("\(content.count * 8)", lead == 1 ? "the leading 00 is not part of the modulus: it keeps the INTEGER positive" : "that is the right count only with a leading 00, and there is none"),
                                             ("\(content.count)", "that counts octets; key sizes are in bits")],
                                     seed: seed))
        }
        return (lines, nil)
    }

    /// A BIT STRING's first content octet counts the unused bits of its last octet.
    func unusedBitsCheck(_ node: Int) -> SelfCheck? {
        guard let unused = tree.content(of: node).first else { return nil }
        return SelfCheck("The BIT STRING's first content octet is \(Hex.byte(unused, .upper)): what is it?",
                         right: ("the count of unused bits at the end (\(unused))", "a BIT STRING's content starts with how many bits of the last octet are padding: \(unused) here, so the signature is the \(NumberText.grouped(Int(tree.nodes[node].contentLength) - 1)) octets after it"),
                         wrong: [("the signature's first octet", "the signature starts one octet later; the first content octet of a BIT STRING counts the unused bits"),
                                 ("a 00 that keeps the value positive", "that is INTEGER's rule; a BIT STRING has no sign, its first octet counts the unused bits")],
                         seed: Int(tree.nodes[node].offset) + 2)
    }
}
