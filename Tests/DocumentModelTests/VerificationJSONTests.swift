import ASN1Lenient
import DocumentCore
import Foundation
import ReceiptKit
import Testing
import TestSupport
import TextLoader
import X509Trust

/// `verify --format json`, pretty and as a batch line, against the exact expected bytes in
/// Tests/Expected/verify-json (receipts and tokens, with and without the samples' TEST roots, at a
/// fixed "now"). Re-record with `RECORD_EXPECTED=1` after a deliberate change, and read the diff.
@Suite struct VerificationJSONTests {
    static let names = ["typical.receipt", "minimal.receipt", "xcode-ber.receipt", "malformed-expired-cert.receipt",
                        "malformed-tampered.receipt", "malformed-truncated.receipt", "typical.b64",
                        "jws/notification.jws", "jws/transaction.jws", "jws/renewal-info.jws", "jws/app-transaction.jws",
                        "jws/transaction-history.json", "jws/xcode-transaction.jws", "jws/malformed-alg-none.jws",
                        "jws/malformed-tampered-payload.jws", "jws/malformed-x5c-wrong-order.jws",
                        "jws/malformed-expired-at-signed-date.jws", "jws/malformed-invalid-utf8.jws",
                        "external/external-purchase-token.txt", "developer/promotional-offer.jws"]
    /// Also without roots, and as batch lines (the rest differ from these only in what the first list covers).
    static let everyForm: Set<String> = ["typical.receipt", "malformed-tampered.receipt", "jws/transaction.jws", "jws/xcode-transaction.jws",
                                         "external/external-purchase-token.txt", "developer/promotional-offer.jws"]
    static let expected = ExpectedOutput("verify-json")

    static func expect(_ actual: String, file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try actual == expected.text(file, recording: actual), "\(file)", sourceLocation: sourceLocation)
    }

    @Test(arguments: names)
    func sampleReport(_ name: String) throws {
        let roots = [try Paths.sample("pki/test-root.cer"), try Paths.sample("pki/test-ec-root.cer")]
        let label = name.replacingOccurrences(of: "/", with: "--")
        let forms: [([[UInt8]], Date?, String)] = [([], nil, "no-root"), (roots, Date(timeIntervalSince1970: 1_700_000_000), "test-roots")]
        for (roots, at, suffix) in forms where Self.everyForm.contains(name) || suffix == "test-roots" {
            let options = AnalysisOptions(roots: roots, bundleID: "com.example.receiptexplorer", at: at,
                                          now: Date(timeIntervalSince1970: 1_767_225_600))
            let input = try InputLoader.load(path: Paths.samples.appendingPathComponent(name).path)
            let document = Document.open(input, options: options, reading: .always, jws: JWSOptions())
            let report = VerificationReport(verifying: document, now: options.now, words: .plain, jws: JWSOptions(),
                                            bundleID: options.bundleID)
            let size = (name: document.source.name, size: input.bytes.count)
            try Self.expect(VerificationJSON.text(report, input: size), file: "\(label).\(suffix).json")
            guard Self.everyForm.contains(name) else { continue }
            let line = VerificationJSON.batchLine(report, input: size, source: .init(file: "stdin", line: 3))
            try Self.expect(line, file: "\(label).\(suffix).batch.json")
            // A line too large to make whole is written in pieces (`BatchTurn`): the same line.
            var pieces: [[UInt8]] = []
            VerificationJSON.stream(report, input: size, compact: true, batchSource: .init(file: "stdin", line: 3), bufferSize: 64) {
                pieces.append(Array($0))
            }
            #expect(pieces.count > 3)
            #expect(String(decoding: pieces.joined(), as: UTF8.self) == line)
        }
    }
}
