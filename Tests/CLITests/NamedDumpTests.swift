import Foundation
import Testing
import TestSupport

/// Certificates, SignerInfos and receipt fields named by `dump`, `explain` and `dump --format json`:
/// the RFC 5280 / RFC 5652 names of the one schema and the receipt attribute table's names.
@Suite struct NamedDumpTests {
    static let g3 = Paths.certs.appendingPathComponent("AppleRootCA-G3.cer")
    static let token = Paths.jws.appendingPathComponent("transaction-sandbox-com.app.qysmat-2023-03-27.jws")
    static let typical = Paths.samples.appendingPathComponent("typical.receipt")
    static var g3Available: Bool { FileManager.default.fileExists(atPath: g3.path) }
    static var tokenAvailable: Bool { FileManager.default.fileExists(atPath: token.path) }

    /// Apple Root CA - G3 (corpus; SHA-256 and subject in its MANIFEST.md), every line.
    @Test(.enabled(if: g3Available)) func aCorpusCertificateDumpsEveryPartByName() throws {
        let result = try runCLI(["dump", Self.g3.path])
        #expect(result.status == 0)
        #expect(result.stdout == """
            # AppleRootCA-G3.cer: raw DER/BER, 583 bytes; an X.509 certificate
            offset  hl  length  element
                 0   4     579  SEQUENCE · Certificate: Apple Root CA - G3
                 4   4     457    SEQUENCE · tbsCertificate
                 8   2       3      [0] · version
                10   2       1        INTEGER 2 · Version: v3
                13   2       8      INTEGER 3298319966700653461 · serialNumber: 0x2DC5FC88D2C54B95
                23   2      10      SEQUENCE · signature: ecdsa-with-SHA384
                25   2       8        OBJECT IDENTIFIER 1.2.840.10045.4.3.3 (ecdsa-with-SHA384) · algorithm
                35   2     103      SEQUENCE · issuer: CN=Apple Root CA - G3, OU=Apple Certification Authority, O=Apple Inc., C=US
                37   2      27        SET · RelativeDistinguishedName: CN=Apple Root CA - G3
                39   2      25          SEQUENCE · AttributeTypeAndValue: CN=Apple Root CA - G3
                41   2       3            OBJECT IDENTIFIER 2.5.4.3 (commonName) · type
                46   2      18            UTF8String "Apple Root CA - G3" · value
                66   2      38        SET · RelativeDistinguishedName: OU=Apple Certification Authority
                68   2      36          SEQUENCE · AttributeTypeAndValue: OU=Apple Certification Authority
                70   2       3            OBJECT IDENTIFIER 2.5.4.11 (organizationalUnitName) · type
                75   2      29            UTF8String "Apple Certification Authority" · value
               106   2      19        SET · RelativeDistinguishedName: O=Apple Inc.
               108   2      17          SEQUENCE · AttributeTypeAndValue: O=Apple Inc.
               110   2       3            OBJECT IDENTIFIER 2.5.4.10 (organizationName) · type
               115   2      10            UTF8String "Apple Inc." · value
               127   2      11        SET · RelativeDistinguishedName: C=US
               129   2       9          SEQUENCE · AttributeTypeAndValue: C=US
               131   2       3            OBJECT IDENTIFIER 2.5.4.6 (countryName) · type
               136   2       2            PrintableString "US" · value
               140   2      30      SEQUENCE · validity
               142   2      13        UTCTime "140430181906Z" = 2014-04-30T18:19:06Z · notBefore
               157   2      13        UTCTime "390430181906Z" = 2039-04-30T18:19:06Z · notAfter
               172   2     103      SEQUENCE · subject: CN=Apple Root CA - G3, OU=Apple Certification Authority, O=Apple Inc., C=US
               174   2      27        SET · RelativeDistinguishedName: CN=Apple Root CA - G3
               176   2      25          SEQUENCE · AttributeTypeAndValue: CN=Apple Root CA - G3
               178   2       3            OBJECT IDENTIFIER 2.5.4.3 (commonName) · type
               183   2      18            UTF8String "Apple Root CA - G3" · value
               203   2      38        SET · RelativeDistinguishedName: OU=Apple Certification Authority
               205   2      36          SEQUENCE · AttributeTypeAndValue: OU=Apple Certification Authority
               207   2       3            OBJECT IDENTIFIER 2.5.4.11 (organizationalUnitName) · type
               212   2      29            UTF8String "Apple Certification Authority" · value
               243   2      19        SET · RelativeDistinguishedName: O=Apple Inc.
               245   2      17          SEQUENCE · AttributeTypeAndValue: O=Apple Inc.
               247   2       3            OBJECT IDENTIFIER 2.5.4.10 (organizationName) · type
               252   2      10            UTF8String "Apple Inc." · value
               264   2      11        SET · RelativeDistinguishedName: C=US
               266   2       9          SEQUENCE · AttributeTypeAndValue: C=US
               268   2       3            OBJECT IDENTIFIER 2.5.4.6 (countryName) · type
               273   2       2            PrintableString "US" · value
               277   2     118      SEQUENCE · subjectPublicKeyInfo: EC P-384
               279   2      16        SEQUENCE · algorithm: ecPublicKey P-384
               281   2       7          OBJECT IDENTIFIER 1.2.840.10045.2.1 (ecPublicKey) · algorithm
               290   2       5          OBJECT IDENTIFIER 1.3.132.0.34 (secp384r1) · parameters
               297   2      98        BIT STRING (97 bytes) 0498E92F3D4072A4ED93227281131CDD1095F1C5A34E71DC1416D90EE5A6052A… · subjectPublicKey: P-384 point, uncompressed (97 bytes)
               397   2      66      [3] · extensions
               399   2      64        SEQUENCE · Extensions: 3 extensions
               401   2      29          SEQUENCE · Extension: subjectKeyIdentifier: BB:B0:DE:A1:58:33:88:9A:A4:8A:99:DE:BE:BD:EB:AF:DA:CB:24:AB
               403   2       3            OBJECT IDENTIFIER 2.5.29.14 (subjectKeyIdentifier) · extnID
               408   2      22            OCTET STRING (22 bytes) · extnValue, encapsulates:
               410   2      20              OCTET STRING (20 bytes) BBB0DEA15833889AA48A99DEBEBDEBAFDACB24AB · SubjectKeyIdentifier: BB:B0:DE:A1:58:33:88:9A:A4:8A:99:DE:BE:BD:EB:AF:DA:CB:24:AB
               432   2      15          SEQUENCE · Extension: basicConstraints (critical): cA TRUE
               434   2       3            OBJECT IDENTIFIER 2.5.29.19 (basicConstraints) · extnID
               439   2       1            BOOLEAN TRUE · critical
               442   2       5            OCTET STRING (5 bytes) · extnValue, encapsulates:
               444   2       3              SEQUENCE · BasicConstraints: cA TRUE
               446   2       1                BOOLEAN TRUE · cA
               449   2      14          SEQUENCE · Extension: keyUsage (critical): keyCertSign, cRLSign
               451   2       3            OBJECT IDENTIFIER 2.5.29.15 (keyUsage) · extnID
               456   2       1            BOOLEAN TRUE · critical
               459   2       4            OCTET STRING (4 bytes) · extnValue, encapsulates:
               461   2       2              BIT STRING (1 byte, 1 unused bit) 06 · KeyUsage: keyCertSign, cRLSign
               465   2      10    SEQUENCE · signatureAlgorithm: ecdsa-with-SHA384
               467   2       8      OBJECT IDENTIFIER 1.2.840.10045.4.3.3 (ecdsa-with-SHA384) · algorithm
               477   2     104    BIT STRING (103 bytes) · signatureValue, encapsulates:
               480   2     101      SEQUENCE · ECDSA-Sig-Value
               482   2      49        INTEGER 0x0083E9C1C4165E1A5D3418D9EDEFF46C0E00464BB8DFB24611C50FFDE67A8CA1… (49-byte integer) · r
               533   2      48        INTEGER 0x6D668A10CAD40DD44FCD8D433EB48A63A5336EE36DDA17B7641FC85326F98862… (48-byte integer) · s
            # 72 elements; 0 errors, 0 der, 0 warnings, 0 info

            """)
    }

    /// The x5c leaf of a corpus token: its subject, P-256 key, key usage and Apple's leaf marker.
    @Test(.enabled(if: tokenAvailable)) func anX5cLeafDumpsItsPartsByName() throws {
        let result = try runCLI(["dump", Self.token.path])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let leaf = try #require(lines.firstIndex { $0.hasPrefix("      x5c[0] Prod ECC Mac App Store and iTunes Store Receipt Signing: ") })
        let next = try #require(lines.firstIndex { $0.hasPrefix("      x5c[1] ") })
        let body = Array(lines[(leaf + 1)..<next])
        for line in [
            "             0   4    1072  SEQUENCE · Certificate: Prod ECC Mac App Store and iTunes Store Receipt Signing",
            "             4   4     950    SEQUENCE · tbsCertificate",
            "            31   2      10      SEQUENCE · signature: ecdsa-with-SHA384",
            "            43   2     117      SEQUENCE · issuer: CN=Apple Worldwide Developer Relations Certification Authority, OU=G6, O=Apple Inc., C=US",
            "           164   2      13        UTCTime \"210825025034Z\" = 2021-08-25T02:50:34Z · notBefore",
            "           194   3     146      SEQUENCE · subject: CN=Prod ECC Mac App Store and iTunes Store Receipt Signing, OU=Apple Worldwide Developer Relations, O=Apple Inc., C=US",
            "           343   2      89      SEQUENCE · subjectPublicKeyInfo: EC P-256",
            "           345   2      19        SEQUENCE · algorithm: ecPublicKey P-256",
            "           366   2      66        BIT STRING (65 bytes) 04EA1371A3DCA5E8A934BF5E434EAD0AEEE951CC1D09774DF2F1AA6948DDE7C6… · subjectPublicKey: P-256 point, uncompressed (65 bytes)",
            "           442   2      12          SEQUENCE · Extension: basicConstraints (critical): cA FALSE",
            "           456   2      31          SEQUENCE · Extension: authorityKeyIdentifier: keyIdentifier 3F:2F:94:23:51:D3:50:C9:9A:28:3D:ED:B0:7C:E5:CF:A5:90:62:99",
            "           924   2      14          SEQUENCE · Extension: keyUsage (critical): digitalSignature",
            "           936   2       2              BIT STRING (1 byte, 7 unused bits) 80 · KeyUsage: digitalSignature",
            "           940   2      16          SEQUENCE · Extension: Apple receipt signing (leaf marker): marks the leaf that signs App Store receipts and StoreKit data; verifiers require it on the leaf",
            "           942   2      10            OBJECT IDENTIFIER 1.2.840.113635.100.6.11.1 (Apple receipt signing (leaf marker)) · extnID",
            "           956   2       0              NULL · marker: present",
            "           958   2      10    SEQUENCE · signatureAlgorithm: ecdsa-with-SHA384",
            "           973   2     101      SEQUENCE · ECDSA-Sig-Value",
        ] {
            #expect(body.contains(line), "missing: \(line)")
        }
        // The intermediate carries the WWDR marker.
        #expect(lines.contains("           658   2      16          SEQUENCE · Extension: Apple WWDR intermediate (marker): marks Apple's WWDR intermediate CA, the issuer of the signing leaf"))
    }

    /// The receipt's SignerInfo (RFC 5652 names) and its container, and receipt attributes named
    /// as the explorer names them.
    @Test func aReceiptDumpNamesItsContainerSignerAndFields() throws {
        let result = try runCLI(["dump", Self.typical.path])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("""
            # typical.receipt: raw DER/BER, 7,686 bytes; a PKCS#7 App Store receipt
            offset  hl  length  element
                 0   4    7682  SEQUENCE · ContentInfo
                 4   2       9    OBJECT IDENTIFIER 1.2.840.113549.1.7.2 (signedData) · contentType
                15   4    7667    [0] · content
                19   4    7663      SEQUENCE · SignedData
                23   2       1        INTEGER 1 · version
                26   2      13        SET · digestAlgorithms
                28   2      11          SEQUENCE · AlgorithmIdentifier: sha256
                30   2       9            OBJECT IDENTIFIER 2.16.840.1.101.3.4.2.1 (sha256) · algorithm
                41   4    4161        SEQUENCE · encapContentInfo
                45   2       9          OBJECT IDENTIFIER 1.2.840.113549.1.7.1 (data) · eContentType
                56   4    4146          [0] · eContent
                60   4    4142            OCTET STRING (4,142 bytes) · eContent, encapsulates:
                64   4    4138              SET · receipt payload · 21 attributes
                68   2      13                SEQUENCE · attribute 10 · age rating
                70   2       1                  INTEGER 10 · type 10: age rating
                73   2       1                  INTEGER 1 · attribute version
                76   2       5                  OCTET STRING (5 bytes) · value of age rating, encapsulates:
                78   2       3                    IA5String "12+" · age rating
                83   2      13                SEQUENCE · attribute 13 · unlisted type 13
                85   2       1                  INTEGER 13 · type 13: unlisted type 13
                88   2       1                  INTEGER 1 · attribute version
                91   2       5                  OCTET STRING (5 bytes) · value of unlisted type 13, encapsulates:
                93   2       3                    INTEGER 170200 · unlisted type 13
                98   2      13                SEQUENCE · attribute 19 · original app version

            """))
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let signer = try #require(lines.firstIndex(of: "  7235   4     447        SET · signerInfos: 1 signer"))
        #expect(Array(lines[(signer + 1)...(signer + 4)]) == [
            "  7239   4     443          SEQUENCE · SignerInfo",
            "  7243   2       1            INTEGER 1 · version",
            "  7246   3     149            SEQUENCE · sid (issuerAndSerialNumber)",
            "  7249   3     132              SEQUENCE · issuer: C=US, O=receipt-explorer TEST, OU=TEST ONLY - not Apple, CN=receipt-explorer TEST WWDR-like Intermediate",
        ])
        for line in [
            "  7384   2      12              INTEGER 19442230016241319336324954559 · serialNumber: 0x3ED23C59141E38761314F9BF",
            "  7398   2      11            SEQUENCE · digestAlgorithm: sha256",
            "  7411   2      13            SEQUENCE · signatureAlgorithm: rsaEncryption",
            "  7426   4     256            OCTET STRING (256 bytes) A67BEA843F36DF52296757FCFE206C22008AECFA5B886F8D7F719C06784B0CB2… · signature",
            "  4206   4    3025        [0] · certificates: 3 certificates",
            "  4210   4     979          SEQUENCE · Certificate: receipt-explorer TEST Root CA",
            "   231   2      30                SEQUENCE · attribute 12 · receipt creation date",
            "   233   2       1                  INTEGER 12 · type 12: receipt creation date",
            "   236   2       1                  INTEGER 1 · attribute version",
            "   239   2      22                  OCTET STRING (22 bytes) · value of receipt creation date, encapsulates:",
            "   241   2      20                    IA5String \"2024-03-01T12:00:00Z\" · receipt creation date",
            "   334   4     356                SEQUENCE · attribute 17 · in-app purchase #1",
            "   338   2       1                  INTEGER 17 · type 17: in-app purchase",
            "   348   4     342                    SET · in-app purchase #1",
            "   352   2      11                      SEQUENCE · in-app 1708 · subscription expiration date",
            "   365   2      11                      SEQUENCE · in-app 1709 · unlisted type 1709",
        ] {
            #expect(lines.contains(line), "missing: \(line)")
        }
    }

    /// A corpus SignerInfo with signed attributes (the Apple-signed PKCS#7 that is not a receipt):
    /// each Attribute by its type with its value.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: Self.signedAttributes.path)))
    func signedAttributesAreNamedWithTheirValues() throws {
        let result = try runCLI(["dump", Self.signedAttributes.path])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for line in [
            "  3624   4     588        SET · signerInfos: 1 signer",
            "  3628   4     584          SEQUENCE · SignerInfo",
            "  3635   3     153            SEQUENCE · sid (issuerAndSerialNumber)",
            "  3791   2       9            SEQUENCE · digestAlgorithm: sha1",
            "  3802   3     136            [0] · signedAttrs",
            "  3805   2      24              SEQUENCE · Attribute: contentType: data",
            "  3831   2      28              SEQUENCE · Attribute: signingTime: 2020-06-15T07:46:10Z",
            "  3861   2      35              SEQUENCE · Attribute: messageDigest: 091BF5D269C07B8BEF17A54B8E52F97211BD6BCF",
            "  3898   2      41              SEQUENCE · Attribute: cmsAlgorithmProtection",
            "  3941   2      13            SEQUENCE · signatureAlgorithm: rsaEncryption",
        ] {
            #expect(lines.contains(line), "missing: \(line)")
        }
    }

    static let signedAttributes = Paths.receipts.appendingPathComponent("negative/pkcs7-not-a-receipt-apple-signed-validation-record.p7")

    /// `dump --format openssl` keeps openssl asn1parse's shape: no names.
    @Test func theOpenSSLFormatStaysUnnamed() throws {
        let result = try runCLI(["dump", Self.typical.path, "--format", "openssl"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains(" · "))
        #expect(result.stdout.split(separator: "\n").first == "    0:d=0  hl=4 l=7682 cons: SEQUENCE          ")
    }

    @Test func explainNamesAReceiptFieldAndItsPath() throws {
        let result = try runCLI(["explain", Self.typical.path, "--offset", "241"])
        #expect(result.status == 0)
        #expect(result.stdout == """
            # typical.receipt: raw DER/BER, 7,686 bytes; a PKCS#7 App Store receipt
            path: SEQUENCE at 0 (ContentInfo) > [0] at 15 (content) > SEQUENCE at 19 (SignedData) > SEQUENCE at 41 (encapContentInfo) > [0] at 56 (eContent) > OCTET STRING at 60 (eContent) > SET at 64 (receipt payload · 21 attributes) > SEQUENCE at 231 (attribute 12 · receipt creation date) > OCTET STRING at 239 (value of receipt creation date) > IA5String at 241 (receipt creation date)

            IA5String at offset 241 (depth 9, 22 bytes)
              name             receipt creation date
              meaning          When the App Store created the receipt; certificates are judged at this date.
              bytes            16 14 32 30 32 34 2D 30 33 2D 30 31 54 31 32 3A 30 30 3A 30 30 5A
              identifier       0x16 = 0b00010110: class bits 00 → UNIVERSAL; bit 6 = 0 → primitive; tag bits 10110 = 22 → IA5String
              length           0x14 = 0b00010100: bit 8 = 0 → short form: 20 content octets
              content          20 octets: text: "2024-03-01T12:00:00Z"

            """)
        // Without --offset every element is named too.
        let all = try runCLI(["explain", Self.typical.path])
        #expect(all.stdout.contains("""
            SEQUENCE at offset 231 (depth 7, 32 bytes)
              name             attribute 12 · receipt creation date
              meaning          When the App Store created the receipt; certificates are judged at this date.

            """))
        #expect(all.stdout.contains("""
            INTEGER at offset 233 (depth 8, 3 bytes)
              name             type 12: receipt creation date

            """))
    }

    @Test(.enabled(if: g3Available)) func explainNamesACertificatePart() throws {
        let result = try runCLI(["explain", Self.g3.path, "--offset", "461"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("""
            path: SEQUENCE at 0 (Certificate) > SEQUENCE at 4 (tbsCertificate) > [3] at 397 (extensions) > SEQUENCE at 399 (Extensions) > SEQUENCE at 449 (Extension) > OCTET STRING at 459 (extnValue) > BIT STRING at 461 (KeyUsage)

            BIT STRING at offset 461 (depth 6, 4 bytes)
              name             KeyUsage: keyCertSign, cRLSign
              bytes            03 02 01 06

            """))
    }

    /// `dump --format json` adds "name" (and "detail") to named nodes; nothing else changes.
    @Test func jsonNodesCarryTheirNames() throws {
        let result = try runCLI(["dump", Self.typical.path, "--format", "json"])
        #expect(result.status == 0)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let nodes = try #require(root["nodes"] as? [[String: Any]])
        func node(at offset: Int, depth: Int) throws -> [String: Any] {
            try #require(nodes.first { $0["offset"] as? Int == offset && $0["depth"] as? Int == depth })
        }
        #expect(try node(at: 0, depth: 0)["name"] as? String == "ContentInfo")
        #expect(try node(at: 231, depth: 7)["name"] as? String == "attribute 12 · receipt creation date")
        #expect(try node(at: 233, depth: 8)["name"] as? String == "type 12: receipt creation date")
        #expect(try node(at: 233, depth: 8)["value"] as? String == "12")
        #expect(try node(at: 7246, depth: 5)["name"] as? String == "sid (issuerAndSerialNumber)")
        let certificate = try node(at: 4210, depth: 4)
        #expect(certificate["name"] as? String == "Certificate")
        #expect(certificate["detail"] as? String == "receipt-explorer TEST Root CA")
        #expect(try node(at: 4252, depth: 6)["detail"] as? String == "C=US, O=receipt-explorer TEST, OU=TEST ONLY - not Apple, CN=receipt-explorer TEST Root CA")
        // Unnamed nodes have neither key.
        let unnamed = nodes.filter { $0["name"] == nil }
        #expect(unnamed.allSatisfy { $0["detail"] == nil })
        #expect(nodes.count == 1_320)
    }
}
