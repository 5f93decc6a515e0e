import COpenSSL
import Foundation
import Testing
import TestSupport
import ASN1Lenient
import ReceiptKit
import X509Trust

/// `RFC2253Name` writes certificate names without OpenSSL, for the commands that load no libcrypto
/// (issue 32), and `CertificateInfo` uses it too: so it must write exactly what OpenSSL's
/// `X509_NAME_print_ex(…, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB)` writes, on every certificate we
/// have and on names built to hit each escaping rule.
@Suite struct RFC2253NameTests {
    /// OpenSSL's subject and issuer lines and the first CN for one DER certificate.
    static func openSSLNames(_ der: [UInt8]) -> (subject: String, issuer: String)? {
        guard let x509 = OpenSSLBridge.x509(der: der) else { return nil }
        defer { X509_free(x509) }
        func line(_ name: OpaquePointer?) -> String {
            OpenSSLBridge.string { bio in _ = X509_NAME_print_ex(bio, name, 0, shim_XN_FLAG_RFC2253_UTF8()) }
        }
        return (line(X509_get_subject_name(x509)), line(X509_get_issuer_name(x509)))
    }

    /// Every distinct certificate in the samples and the corpus: PKI files, receipts' embedded
    /// certificates and every token's x5c.
    static func certificates() throws -> [[UInt8]] {
        var found: Set<[UInt8]> = []
        let roots = [Paths.samples] + (Paths.corpusAvailable ? [Paths.corpus] : [])
        for root in roots {
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!.compactMap { $0 as? URL }
            for file in files where !file.hasDirectoryPath {
                let bytes = try Paths.bytes(file)
                if ["cer", "der"].contains(file.pathExtension) { found.insert(bytes) }
                if file.pathExtension == "pem", let text = String(bytes: bytes, encoding: .utf8) {
                    for block in text.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst() {
                        let body = block.components(separatedBy: "-----END").first!.filter { !$0.isWhitespace }
                        if let der = Data(base64Encoded: body) { found.insert(Array(der)) }
                    }
                }
                if file.pathExtension == "receipt" {
                    let analysis = ReceiptAnalyzer.analyze(bytes: bytes)
                    for node in analysis.container?.certificates ?? [] where node < analysis.tree.count {
                        found.insert(Array(analysis.tree.bytes[analysis.tree.nodes[node].byteRange]))
                    }
                }
                // Any compact JWS in the file: its header's x5c.
                guard let text = String(bytes: bytes, encoding: .utf8) else { continue }
                for match in text.matches(of: #/eyJ[A-Za-z0-9_-]+\./#) {
                    var header = String(text[match.range].dropLast()).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                    header += String(repeating: "=", count: (4 - header.count % 4) % 4)
                    guard let json = Data(base64Encoded: header),
                          let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
                          let chain = object["x5c"] as? [String] else { continue }
                    for cert in chain { if let der = Data(base64Encoded: cert) { found.insert(Array(der)) } }
                }
            }
        }
        return found.sorted { $0.lexicographicallyPrecedes($1) }
    }

    @Test func everyCertificateWeHaveIsNamedAsOpenSSLNamesIt() throws {
        let certificates = try Self.certificates()
        #expect(certificates.count >= 20)
        for der in certificates {
            let openssl = try #require(Self.openSSLNames(der))
            let ours = try #require(RFC2253Name.certificateNames(der: der))
            #expect(ours.subject == openssl.subject)
            #expect(ours.issuer == openssl.issuer)
        }
    }

    /// A certificate OpenSSL parses (an unknown key algorithm, no real signature) whose subject
    /// exercises the rules: specials, a leading `#` and spaces, a control character, UTF-8, a
    /// BMPString, a multi-valued RDN, `street`, an attribute OpenSSL cannot name, a non-string value.
    static func certificate(subject: [UInt8]) -> [UInt8] {
        let algorithm = DER.seq(DER.oid([0x2A, 0x03, 0x04]), DER.tlv(0x05, []))
        let validity = DER.seq(DER.tlv(0x17, Array("250101000000Z".utf8)), DER.tlv(0x17, Array("350101000000Z".utf8)))
        let issuer = DER.seq(DER.set(DER.seq(DER.oid([0x55, 0x04, 0x03]), DER.utf8("Issuer"))))
        let key = DER.seq(algorithm, DER.tlv(0x03, [0x00, 0x01, 0x02]))
        let tbs = DER.seq(DER.tlv(0xA0, DER.int(2)), DER.int(7), algorithm, issuer, validity, subject, key)
        return DER.seq(tbs, algorithm, DER.tlv(0x03, [0x00, 0x05]))
    }

    static func attribute(_ oid: [UInt8], _ value: [UInt8]) -> [UInt8] { DER.seq(DER.oid(oid), value) }

    @Test func everyEscapingRuleMatchesOpenSSL() throws {
        let cn: [UInt8] = [0x55, 0x04, 0x03], o: [UInt8] = [0x55, 0x04, 0x0A], street: [UInt8] = [0x55, 0x04, 0x09]
        let bmp = DER.tlv(0x1E, Array("Zoë".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }))
        let subject = DER.seq(
            DER.set(Self.attribute([0x55, 0x04, 0x06], DER.tlv(0x13, Array("US".utf8)))),
            DER.set(Self.attribute(o, DER.utf8("#Acme, \"Inc\" <a+b>; c\\d ")), Self.attribute(street, DER.utf8(" 1 Main St"))),
            DER.set(Self.attribute(o, bmp)),
            DER.set(Self.attribute([0x2A, 0x03, 0x04, 0x05], DER.utf8("unnamed"))),
            DER.set(Self.attribute(cn, DER.tlv(0x03, [0x00, 0x2A]))),
            DER.set(Self.attribute(cn, DER.utf8("Ünïcode\u{01}bell")))
        )
        let der = Self.certificate(subject: subject)
        let openssl = try #require(Self.openSSLNames(der))
        let ours = try #require(RFC2253Name.certificateNames(der: der))
        #expect(ours.subject == openssl.subject)
        #expect(ours.subject == ##"CN=Ünïcode\01bell,CN=#0302002A,1.2.3.4.5=#0C07756E6E616D6564,O=Zoë,street=\ 1 Main St+O=\#Acme\, \"Inc\" \<a\+b\>\; c\\d\ ,C=US"##)
        #expect(ours.issuer == "CN=Issuer" && openssl.issuer == "CN=Issuer")
        // The first CN, unescaped, as X509_NAME_get_index_by_NID finds it: here a BIT STRING, so none is text.
        #expect(ours.commonName == nil)
    }

    @Test func notACertificateHasNoNames() {
        #expect(RFC2253Name.certificateNames(der: []) == nil)
        #expect(RFC2253Name.certificateNames(der: DER.seq(DER.int(1))) == nil)
        #expect(RFC2253Name.certificateNames(der: Array("hello".utf8)) == nil)
    }
}
