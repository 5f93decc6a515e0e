import Foundation
import Testing
import TestSupport

/// The exact bytes `verify --format json` prints for one receipt step and one JWS step.
@Suite(.enabled(if: cliBinary != nil, "the receipt-explorer binary is not built")) struct VerifyJSONTests {
    /// The step object whose "id" is `id`, as printed (indentation included).
    static func stepBlock(_ output: String, id: String) -> String? {
        guard let at = output.range(of: "\"id\": \"\(id)\""),
              let start = output.range(of: "    {\n", options: .backwards, range: output.startIndex..<at.lowerBound),
              let end = output.range(of: "\n    }", range: at.upperBound..<output.endIndex) else { return nil }
        return String(output[start.lowerBound..<end.upperBound])
    }

    @Test("a receipt's bundle-id step: reason code, words, the attribute's bytes")
    func receiptStep() throws {
        let r = try Binary.run(["verify", "--format", "json", "samples/typical.receipt", "--root", "samples/pki/test-root.cer",
                                "--bundle-id", "com.example.other"])
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("{\n  \"certificates\": ["))
        #expect(r.stdout.contains("\n  \"schema_version\": 4,\n"))
        #expect(r.stdout.contains("\n  \"input\": {\n    \"name\": \"typical.receipt\",\n    \"size\": 7686\n  },\n"))
        // Attribute 2's value is the UTF8String TLV at offset 305 (samples/README.md).
        #expect(Self.stepBlock(r.stdout, id: "bundle-id") == #"""
                {
                  "apple_status": "INVALID_APP_IDENTIFIER",
                  "certificates": [],
                  "decides": true,
                  "details": [
                    "receipt: \"com.example.receiptexplorer\"",
                    "expected: \"com.example.other\""
                  ],
                  "id": "bundle-id",
                  "message": "failed — the receipt's bundle id (attribute 2) is \"com.example.receiptexplorer\", not \"com.example.other\"",
                  "ranges": [
                    {
                      "length": 29,
                      "offset": 305,
                      "what": "attribute 2 value"
                    }
                  ],
                  "reason": "the receipt's bundle id (attribute 2) is \"com.example.receiptexplorer\", not \"com.example.other\"",
                  "reason_code": "value-mismatch",
                  "status": "failed",
                  "subject": {
                    "envelope": "pkcs7",
                    "part": "signed-data"
                  },
                  "title": "Bundle identifier"
                }
            """#)
    }

    @Test("a truncated ES256 signature: the step names the signature segment's characters")
    func jwsStep() throws {
        let r = try Binary.run(["verify", "--format", "json", "samples/jws/malformed-truncated-signature.jws",
                                "--root", "samples/pki/test-ec-root.cer"])
        #expect(r.status == 1)
        #expect(Self.stepBlock(r.stdout, id: "signature") == #"""
                {
                  "apple_status": "VERIFICATION_FAILURE",
                  "certificates": [],
                  "decides": true,
                  "details": [],
                  "id": "signature",
                  "message": "failed — the signature is truncated: 63 bytes, where ES256 has exactly 64 (r and s, 32 bytes each)",
                  "ranges": [
                    {
                      "length": 84,
                      "offset": 4470,
                      "token_length": 84,
                      "token_offset": 4470,
                      "what": "signature segment"
                    }
                  ],
                  "reason": "the signature is truncated: 63 bytes, where ES256 has exactly 64 (r and s, 32 bytes each)",
                  "reason_code": "signature-truncated",
                  "status": "failed",
                  "subject": {
                    "envelope": "jws",
                    "part": "token"
                  },
                  "title": "ES256 signature"
                }
            """#)
        // 63 bytes are 84 base64url characters: the last segment, right after the second dot.
        let token = try Paths.sample("jws/malformed-truncated-signature.jws")
        #expect(token.count == 4470 + 84)
        #expect(token[4469] == UInt8(ascii: "."))
    }
}
