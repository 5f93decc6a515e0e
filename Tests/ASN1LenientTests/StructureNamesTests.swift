import Foundation
import Testing
import TestSupport
@testable import ASN1Lenient
@testable import TextOutput

/// The RFC 5280 / RFC 5652 schema matched against parsed trees: names where the tree matches, none
/// from the first departure on, never a trap (hand-built departures and every single-byte change of
/// two sample certificates).
@Suite struct StructureNamesTests {
    static let ecdsaWithSHA256: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]

    static func names(_ bytes: [UInt8]) -> (Tree, NodeNames) {
        let tree = ASN1Parser.parse(bytes)
        return (tree, StructureNames.names(for: tree))
    }

    @Test func aDepartureFromTheSchemaEndsTheNamesOfThatSequence() {
        // tbsCertificate with a NULL where the issuer Name belongs: version, serialNumber and
        // signature are named, the NULL and everything after it in tbsCertificate are not.
        let bytes = DER.seq(
            DER.seq(DER.tlv(0xA0, DER.int(2)), DER.int(5), DER.seq(DER.oid(Self.ecdsaWithSHA256)), [0x05, 0x00], DER.int(9)),
            DER.seq(DER.oid(Self.ecdsaWithSHA256)),
            DER.tlv(0x03, [0x00, 0x01]))
        let (tree, names) = Self.names(bytes)
        #expect(tree.count == 12)
        #expect((0..<tree.count).map { names[$0]?.text } == [
            "Certificate", "tbsCertificate", "version", "Version: v3", "serialNumber: 0x05", "signature: ecdsa-with-SHA256",
            "algorithm", nil, nil, "signatureAlgorithm: ecdsa-with-SHA256", "algorithm", "signatureValue",
        ])
    }

    @Test func otherASN1GetsNoNames() {
        let (_, names) = Self.names(DER.seq(DER.int(1), DER.set(DER.utf8("alpha"))))
        #expect(names.tableCount == 0)
    }

    @Test func aKeyUsageWithoutBitsHasNoDetailAndDoesNotTrap() {
        // keyUsage extension whose BIT STRING claims 7 unused bits of no byte at all.
        let keyUsage: [UInt8] = [0x55, 0x1D, 0x0F]
        let extensionBytes = DER.seq(DER.oid(keyUsage), DER.octets(DER.tlv(0x03, [0x07])))
        let bytes = DER.seq(
            DER.seq(DER.tlv(0xA0, DER.int(2)), DER.int(5), DER.seq(DER.oid(Self.ecdsaWithSHA256)), DER.seq(), DER.seq(),
                    DER.seq(), DER.seq(DER.seq(DER.oid([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01])), DER.tlv(0x03, [0x00])),
                    DER.tlv(0xA3, DER.seq(extensionBytes))),
            DER.seq(DER.oid(Self.ecdsaWithSHA256)),
            DER.tlv(0x03, [0x00, 0x01]))
        let (tree, names) = Self.names(bytes)
        let texts = (0..<tree.count).compactMap { names[$0]?.text }
        #expect(texts.contains("Extension: keyUsage"))
        #expect(texts.contains("subjectPublicKeyInfo: EC (no named curve)"))
        // The parser does not take that BIT STRING for encapsulated DER; read on its own, the key
        // usage reader answers nil rather than trap.
        let bits = ASN1Parser.parse([0x03, 0x01, 0x07])
        #expect(X509Details.keyUsage(bits, 0) == nil)
        #expect(X509Details.keyUsage(ASN1Parser.parse([0x03, 0x02, 0x01, 0x86]), 0) == "digitalSignature, keyCertSign, cRLSign")
    }

    /// Every single-byte change (each byte xor 0xFF, and each byte cut off the end) of two sample
    /// certificates: naming and the named tree dump never trap, and every name is terminal-safe.
    @Test func everyOneByteChangeOfACertificateIsNamedWithoutTrapping() throws {
        var checked = 0
        for file in ["pki/test-root.cer", "pki/test-ec-root.cer"] {
            let original = try Paths.sample(file)
            var inputs: [[UInt8]] = []
            for i in original.indices {
                var flipped = original
                flipped[i] ^= 0xFF
                inputs.append(flipped)
                inputs.append(Array(original.prefix(i)))
            }
            for input in inputs {
                let (tree, names) = Self.names(input)
                for node in 0..<tree.count {
                    guard let name = names[node] else { continue }
                    #expect(name.text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F })
                }
                _ = TreeDump.render(tree, options: TreeDump.Options(names: names))
                checked += 1
            }
        }
        #expect(checked > 2_000)
    }
}
