import Foundation
import Testing
import TestSupport

/// What pasted text does through the real binary: the data found in it (the header says where),
/// a token given as the argument, a cut-off token, base64 inside base64, and text with no data
/// (exit 1, never read as ASN.1). Built from the project's samples.
@Suite
struct PasteCommandTests {
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("paste-cli-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static func sample(_ name: String) -> String {
        (try? String(decoding: Paths.sample(name), as: UTF8.self))?.filter { !$0.isWhitespace } ?? ""
    }

    static let base64 = sample("typical.b64")
    static let token = sample("jws/transaction.jws")

    static func write(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static func firstLine(_ run: CLIResult) -> String { String(run.stdout.split(separator: "\n").first ?? "") }

    @Test func receiptInALogLine() throws {
        let path = try Self.write("app.log", "2025-01-01 INFO receipt=\(Self.base64)\n")
        let run = try runCLI(["dump", "--color", "never", path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(Self.firstLine(run) == "# app.log: found at characters 25-10272 of line 1 of app.log: base64 of a PKCS#7 SignedData (10,248 characters → 7,686 bytes); a PKCS#7 App Store receipt")
    }

    @Test func tokenInAJSONLogLineSaysItsPathInTheJSONOutput() throws {
        let path = try Self.write("server.log", "{\"level\":\"info\",\"payload\":\"\(Self.token)\"}\n")
        let run = try runCLI(["json", "--no-validate", path])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let input = try #require(object["input"] as? [String: Any])
        let found = try #require(input["found"] as? [String: Any])
        #expect(found["location"] as? String == "characters 28-4583 of line 1 of server.log (JSON path payload)")
        #expect(found["pasted_size"] as? Int == 4_586)
        #expect(found["base64_layers"] as? Int == 0)
        #expect(object["kind"] as? String == "transaction")
    }

    @Test func receiptInAVerifyReceiptResponseSaysItsPathInTheJSONOutput() throws {
        let path = try Self.write("response.json", "{\"status\":0,\"latest_receipt\":\"\(Self.base64)\"}")
        let run = try runCLI(["json", "--no-validate", path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let found = try #require((object["input"] as? [String: Any])?["found"] as? [String: Any])
        #expect(found["location"] as? String == "characters 31-10278 of line 1 of response.json (JSON path latest_receipt)")
        #expect(found["base64_layers"] as? Int == 1)
    }

    @Test func tokenGivenAsTheArgument() throws {
        let run = try runCLI(["dump", "--color", "never", Self.token])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.firstLine(run) == "# argument: given as the FILE argument (no file of that name): a compact JWS, 4,556 characters; a StoreKit 2 transaction (JWS, ES256, 3 certificates)")
    }

    @Test func base64GivenAsTheArgumentWithItsLineBreaks() throws {
        let wrapped = (try? String(decoding: Paths.sample("typical.b64"), as: UTF8.self)) ?? ""
        let run = try runCLI(["dump", "--color", "never", wrapped])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.firstLine(run) == "# argument: given as the FILE argument (no file of that name): decoded from base64: 10,248 characters → 7,686 bytes; a PKCS#7 App Store receipt")
    }

    @Test func anArgumentThatIsNotDataKeepsTheIOError() throws {
        let long = String(repeating: "x", count: 300)
        let run = try runCLI(["dump", long])
        #expect(run.status == 2)
        #expect(run.stderr == "receipt-explorer: cannot read '\(long)': File name too long\n")
        let missing = try runCLI(["dump", "no-such-file.receipt"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "receipt-explorer: cannot read 'no-such-file.receipt': No such file or directory\n")
    }

    @Test func cutOffTokenIsNamedAndShownAsFarAsItGoes() throws {
        let parts = Self.token.split(separator: ".")
        let path = try Self.write("cut.txt", "\(parts[0]).\(parts[1].prefix(200))\n")
        let run = try runCLI(["dump", "--color", "never", path])
        #expect(run.status == 1)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.contains("  error input-cut-off chars 3838: the token is cut off after 3,839 of its characters; it ends in the payload segment after 200 characters; the signature segment is missing\n"))
        #expect(run.stdout.contains("  header: chars 0-3637 → 2,728 bytes of JSON (layer 1)\n"))
    }

    @Test func receiptBase64EncodedTwiceOpensAsTheReceipt() throws {
        let path = try Self.write("twice.b64", Data(Self.base64.utf8).base64EncodedString(options: .lineLength76Characters) + "\n")
        let run = try runCLI(["dump", "--color", "never", path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.firstLine(run) == "# twice.b64: found at line 1, character 1 to line 180, character 60 of twice.b64: base64 of a PKCS#7 SignedData (10,248 characters → 7,686 bytes), base64 inside base64 (decoded twice); a PKCS#7 App Store receipt")
    }

    @Test func plainTextSaysWhatItIsAndExits1() throws {
        let text = "The receipt was not attached. Please try again later.\n"
        let path = try Self.write("note.txt", text)
        let dump = try runCLI(["dump", "--color", "never", path])
        #expect(dump.status == 1)
        #expect(dump.stdout == """
            # note.txt: text, 54 bytes; text without purchase data
            offset  hl  length  element
                 0   0      54  UNPARSED (54 bytes) 546865207265636569707420776173206E6F742061747461636865642E20506C…
            error input-unrecognized-text bytes 0-53: this looks like plain text (9 words): no receipt (base64, PEM, verifyReceipt JSON) or StoreKit token (JWS) was found in it
            # 1 element; 1 error, 0 der, 0 warnings, 0 info

            """)
        let verify = try runCLI(["verify", path])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("nothing to verify: text without purchase data"))
        #expect(!verify.stdout.contains("pkcs7"))
        let json = try runCLI(["json", path])
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["kind"] as? String == "text")
    }

    @Test func jsonWithoutPurchaseDataSaysWhatItIsAndExits1() throws {
        let path = try Self.write("status.json", "{\"status\": 21002}")
        let run = try runCLI(["dump", "--color", "never", path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("error input-unrecognized-text bytes 0-16: this looks like a JSON object without purchase data (its keys are \"status\"): no receipt (base64, PEM, verifyReceipt JSON) or StoreKit token (JWS) was found in it\n"))
    }
}
