import COpenSSL
import Foundation
import Testing
import X509Trust

/// The Swift SHA-256 that names certificates without loading libcrypto (issue 32): FIPS 180-4's
/// examples, and OpenSSL's EVP digest on every length across the padding boundaries and beyond.
@Suite struct SHA256Tests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func openSSL(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = bytes.withUnsafeBufferPointer { EVP_Digest($0.baseAddress, $0.count, &out, &length, EVP_sha256(), nil) }
        return out
    }

    @Test func fipsExamples() {
        #expect(Self.hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Self.hex(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func everyLengthAgreesWithOpenSSL() {
        var generator = SystemRandomNumberGenerator()
        for length in Array(0...300) + [1_023, 1_024, 1_025, 4_096, 65_537] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(SHA256.hash(bytes) == Self.openSSL(bytes), "length \(length)")
        }
    }
}
