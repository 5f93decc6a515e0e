import Foundation
import Testing
import TestSupport

/// External purchase tokens through the commands: `dump` (both layers, offsets), `json`, and `verify`
/// (nothing to verify; the expectations given are compared, never dropped).
@Suite(.enabled(if: cliBinary != nil, "the receipt-explorer binary is not built")) struct ExternalPurchaseCommandTests {
    @Test func dumpShowsTheCharactersTheJSONAndEveryFieldWithOffsets() throws {
        let r = try Binary.run(["dump", "samples/external/external-purchase-token-sandbox.txt"])
        #expect(r.status == 0)
        #expect(r.stdout == """
            # external-purchase-token-sandbox.txt: base64url JSON, 255 characters → 191 bytes (surrounding whitespace or quotes removed); an external purchase token (base64url JSON, unsigned; sandbox: its id starts SANDBOX_)
            token external purchase token (base64url JSON, unsigned), 255 characters  file bytes 0-254 (layer 0)
              JSON: chars 0-254 → 191 bytes (layer 1)
                appAppleId 1450000001  chars 1-31, bytes 1-23
                bundleId "com.example.receiptexplorer"  chars 33-86, bytes 25-64
                tokenCreationDate 2024-03-01T12:00:00.000Z (1709294400000)  chars 88-131, bytes 66-98
                externalPurchaseId "SANDBOX_c03ef817-f096-5986-8df7-7cd588bc964e" (sandbox: the id starts SANDBOX_)  chars 133-222, bytes 100-166
                tokenType SERVICES (a token for ongoing services)  chars 224-253, bytes 168-189
            # 1 token, 2 layers; 0 errors, 0 der, 0 warnings, 0 info

            """)
    }

    @Test func explainTiesACharacterToItsBytesAndJSONMember() throws {
        let r = try Binary.run(["explain", "samples/external/external-purchase-token-sandbox.txt", "--offset", "140"])
        #expect(r.status == 0)
        #expect(r.stdout.hasSuffix("""
            external purchase token, character 140
            base64url: characters 140-143 "cm5h" = 6-bit values 28 38 57 33 → JSON bytes 105-107: 72 6e 61 "rna"
            JSON member "externalPurchaseId" (bytes 100-166): SANDBOX_c03ef817-f096-5986-8df7-7cd588bc964e
            meaning: The external purchase's id.
            sandbox: the id starts SANDBOX_

            """))
        let unknown = try Binary.run(["explain", "samples/external/external-purchase-token-unknown.txt", "--offset", "250"])
        #expect(unknown.stdout.contains("JSON member \"storefront\" (bytes 186-203): FRA\nmeaning: not in this tool's schema (kept as written)\n"))
    }

    @Test func jsonNamesUnknownFieldsAndValuesAtTheirBytes() throws {
        let r = try Binary.run(["json", "samples/external/external-purchase-token-unknown.txt"])
        #expect(r.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["kind"] as? String == "external-purchase-token")
        let token = try #require(json["token"] as? [String: Any])
        #expect(token["signed"] as? Bool == false)
        #expect(token["environment"] as? String == "Production")
        let fields = try #require(token["fields"] as? [String: [String: Any]])
        #expect(fields["storefront"]?["in_schema"] as? Bool == false)
        #expect(fields["tokenType"]?["value"] as? String == "PARTNERSHIP")
        #expect((fields["tokenType"]?["token_characters"] as? [String: Int]) == ["offset": 213, "length": 34])
        let findings = try #require(token["findings"] as? [[String: Any]])
        #expect(findings.map { $0["code"] as? String } == ["jws-field-unknown-value", "jws-field-not-in-schema"])
        #expect(findings.map { $0["offset"] as? Int } == [172, 186])
    }

    @Test func verifySaysThereIsNothingToVerifyAndComparesTheExpectations() throws {
        let quiet = try Binary.run(["verify", "--quiet", "samples/external/external-purchase-token.txt"])
        #expect(quiet.status == 1)
        #expect(quiet.stdout == "INVALID: nothing to verify: an external purchase token is unsigned base64url JSON; Apple checks it when you report the purchase with the External Purchase Server API\n")
        let r = try Binary.run(["verify", "--format", "json", "samples/external/external-purchase-token-sandbox.txt",
                                "--bundle-id", "com.example.receiptexplorer", "--environment", "Production", "--app-apple-id", "1450000001"])
        #expect(r.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let steps = try #require(json["steps"] as? [[String: Any]])
        #expect(steps.map { "\($0["id"] as! String) \($0["status"] as! String)" } == ["bundle-id passed", "environment failed", "app-apple-id passed"])
        #expect(steps[1]["reason"] as? String == "expected Production, the payload says Sandbox")
        let reasons = try #require((json["verdict"] as? [String: Any])?["reasons"] as? [[String: Any]])
        #expect(reasons.map { $0["code"] as? String } == ["not-verifiable", "claim-mismatch"])
    }
}
