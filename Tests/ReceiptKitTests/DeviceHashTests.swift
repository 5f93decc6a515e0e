import Foundation
import DocumentCore
import Testing
import TestSupport
@testable import ReceiptKit
import ByteText
@testable import X509Trust

@Suite("Digests and device hash") struct DeviceHashTests {

    @Test("SHA-1 and SHA-256 test vectors")
    func digests() {
        let abc = Array("abc".utf8)
        #expect(Digest.hex(Digest.sha1(abc)) == "A9993E364706816ABA3E25717850C26C9CD0D89D")
        #expect(Digest.hex(Digest.sha256(abc)) == "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD")
        #expect(Digest.hex(Digest.sha1([])) == "DA39A3EE5E6B4B0D3255BFEF95601890AFD80709")
    }

    @Test("Device identifiers: UUID and MAC address forms, clear errors otherwise")
    func deviceIdentifiers() throws {
        let mac = try DeviceIdentifier.parse("6c:40:08:b5:94:5e")
        #expect(mac.kind == .macAddress)
        #expect(mac.bytes == [0x6C, 0x40, 0x08, 0xB5, 0x94, 0x5E])
        #expect(try DeviceIdentifier.parse(" 6C-40-08-B5-94-5E\n") == mac)
        #expect(mac.description == "MAC address 6c:40:08:b5:94:5e")

        let uuid = try DeviceIdentifier.parse("3b76a7bd-8f5b-46a4-bcb1-cce8dbd1b3cd")
        #expect(uuid.kind == .identifierForVendor)
        #expect(uuid.bytes.count == 16)
        #expect(uuid.bytes.first == 0x3B && uuid.bytes.last == 0xCD)
        #expect(uuid.description == "identifierForVendor 3B76A7BD-8F5B-46A4-BCB1-CCE8DBD1B3CD")

        for bad in ["", "hello", "6c:40:08:b5:94", "6c:40-08:b5:94:5e", "6c:40:08:b5:94:5g",
                    "3B76A7BD8F5B46A4BCB1CCE8DBD1B3CD", "3B76A7BD-8F5B-46A4-BCB1-CCE8DBD1B3CZ", "3B76A7BD_8F5B_46A4_BCB1_CCE8DBD1B3CD"] {
            #expect(throws: DeviceIdentifierError.self, "\(bad)") { try DeviceIdentifier.parse(bad) }
        }
        do {
            _ = try DeviceIdentifier.parse("hello")
        } catch let error as DeviceIdentifierError {
            #expect(error.description.contains("neither an identifierForVendor UUID"))
        }
    }

    /// Byte ranges in the corpus files, found with
    /// `openssl asn1parse -inform DER -in FILE -strparse 58`: the payload OCTET STRING's header is at
    /// 58 with hl=4, so payload offset p is file offset 62 + p. Values are the OCTET STRING contents.
    struct DeviceHashFixture: Sendable, CustomTestStringConvertible {
        var file: String
        var device: String
        var opaque: Range<Int>  // attr 4 value
        var bundleIDTLV: Range<Int>  // attr 2 value (the UTF8String TLV)
        var hash: Range<Int>  // attr 5 value
        var testDescription: String { file }

        static let all: [DeviceHashFixture] = [
            // attr 4 at payload 204 (hl=2, l=16), attr 5 at 230 (l=20), attr 2 at 356 (l=26)
            .init(file: "production-macos-com.mindnode.MindNodePro-2016-02-12-0iap.receipt", device: "6c:40:08:b5:94:5e",
                  opaque: 268..<284, bundleIDTLV: 420..<446, hash: 294..<314),
            // attr 4 at payload 190 (l=16), attr 5 at 245 (l=20), attr 2 at 339 (l=28)
            .init(file: "sandbox-ios-com.mindnode.mindnodetouch-2017-09-11-0iap.receipt", device: "3B76A7BD-8F5B-46A4-BCB1-CCE8DBD1B3CD",
                  opaque: 254..<270, bundleIDTLV: 403..<431, hash: 309..<329),
        ]
    }

    @Test("Device hash of the known devices matches attribute 5; a wrong device fails",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage),
          arguments: DeviceHashFixture.all)
    func deviceHash(_ fixture: DeviceHashFixture) throws {
        let bytes = try ValidationCorpus.receipt(fixture.file)
        let opaque = Array(bytes[fixture.opaque])
        let bundle = Array(bytes[fixture.bundleIDTLV])
        let expected = Array(bytes[fixture.hash])
        #expect(bundle.first == 0x0C, "attribute 2's value is a UTF8String TLV")
        let device = try DeviceIdentifier.parse(fixture.device)

        #expect(DeviceHash.compute(deviceID: device.bytes, opaque: opaque, bundleIDTLV: bundle) == expected)
        let step = DeviceHash.step(device: device, opaque: opaque, bundleIDTLV: bundle, expected: expected)
        #expect(step.id == .deviceHash)
        #expect(step.status == .passed)
        #expect(step.details.count == 6)
        #expect(step.details[0].contains("(\(device.bytes.count) bytes)"))
        #expect(step.details[1].contains("(16 bytes)"))
        #expect(step.details[2].contains("(\(bundle.count) bytes)"))
        #expect(step.details[3] == "concatenation: \(device.bytes.count) + 16 + \(bundle.count) = \(device.bytes.count + 16 + bundle.count) bytes")
        #expect(step.details[4] == "computed SHA-1: \(Hex.string(expected, .upper, separator: " "))")

        var wrong = device
        wrong.bytes[0] ^= 0xFF
        let failed = DeviceHash.step(device: wrong, opaque: opaque, bundleIDTLV: bundle, expected: expected)
        #expect(failed.status.isFailed)
        #expect(failed.status == .failed(.deviceHashMismatch(device: "\(wrong)")))

        let other = try DeviceIdentifier.parse(fixture.device.count == 17 ? "3B76A7BD-8F5B-46A4-BCB1-CCE8DBD1B3CD" : "6c:40:08:b5:94:5e")
        #expect(DeviceHash.step(device: other, opaque: opaque, bundleIDTLV: bundle, expected: expected).status.isFailed)
    }

    @Test("Device hash step without inputs is not checked")
    func deviceHashNotChecked() throws {
        let none = DeviceHash.step(device: nil, opaque: [1], bundleIDTLV: [2], expected: [3])
        #expect(none.status == .notChecked(.notGiven(.deviceID)))
        let mac = try DeviceIdentifier.parse("6c:40:08:b5:94:5e")
        let missing = DeviceHash.step(device: mac, opaque: nil, bundleIDTLV: [0x0C, 0x00], expected: nil)
        #expect(missing.status == .notChecked(.missingAttributes([4, 5])))
        #expect(StepText.plain.reason(missing.status) == "the receipt has no opaque value (attribute 4), SHA-1 hash (attribute 5)")
    }
}
