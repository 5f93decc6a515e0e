import Foundation
import Testing
import TestSupport
import ASN1Lenient
@testable import DocumentModel
@testable import ReceiptKit
import TextLoader

/// The streamed `json` document (`ReceiptJSON.streamed`) must be byte for byte the dictionary one
/// (`ReceiptJSON.serialize(ReceiptJSON.document(…))`), pretty and compact, single and batch.
@Suite struct ReceiptJSONStreamTests {
    static let sampleNames = ["minimal.receipt", "typical.receipt", "unlisted-attributes.receipt", "xcode-ber.receipt",
                              "malformed-bad-date.receipt", "malformed-duplicate-attribute.receipt", "malformed-expired-cert.receipt",
                              "malformed-hostile-strings.receipt", "malformed-indefinite-in-payload.receipt",
                              "malformed-invalid-utf8.receipt", "malformed-length-past-parent.receipt",
                              "malformed-missing-required.receipt", "malformed-no-receipt-oid.receipt",
                              "malformed-non-minimal-length.receipt", "malformed-tampered.receipt",
                              "malformed-trailing-bytes.receipt", "malformed-truncated.receipt", "malformed-wrong-type.receipt"]

    /// The corpus's 120-purchase receipt sorts `in_app[10]` before `in_app[1]` but after `in_app[1].…`.
    static var corpusNames: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: Paths.receipts.path))?.filter { $0.hasSuffix(".receipt") }.sorted() ?? []
    }

    static func expectSameBytes(_ bytes: [UInt8], label: String) {
        // An `at` inside the purchases' span, so that some subscriptions are active and some are not.
        for at in [Date(timeIntervalSince1970: 1_500_000_000), Date(timeIntervalSince1970: 1_700_000_000)] {
            for validate in [true, false] {
                let a = ReceiptAnalyzer.analyze(bytes: bytes, options: AnalysisOptions(validate: validate, at: at))
                let input = ReceiptJSON.InputInfo(name: label, encoding: "binary")
                let pretty = ReceiptJSON.serialize(ReceiptJSON.document(a, input: input, words: .plain))
                #expect(ReceiptJSON.text(a, input: input, words: .plain) == pretty, "\(label) pretty, validate \(validate)")
                var object = ReceiptJSON.document(a, input: input)
                BatchCheck.addSource(BatchSource(file: "exports/x.txt", line: 12), to: &object)
                let compact = ReceiptJSON.serialize(object, compact: true)
                let streamed = ReceiptJSON.streamed(a, input: input, words: .plain, compact: true,
                                                    batchSource: .init(file: "exports/x.txt", line: 12))
                #expect(String(decoding: streamed, as: UTF8.self) == compact, "\(label) compact, validate \(validate)")
            }
        }
    }

    @Test(arguments: sampleNames)
    func sampleMatchesTheDictionaryDocument(_ name: String) throws {
        Self.expectSameBytes(try Paths.sample(name), label: name)
    }

    @Test(.enabled(if: Paths.corpusAvailable))
    func corpusReceiptsMatchTheDictionaryDocument() throws {
        let names = Self.corpusNames
        #expect(names.count >= 12)
        for name in names { Self.expectSameBytes(try Paths.corpusReceipt(name), label: name) }
    }

    @Test func notAReceiptMatches() {
        Self.expectSameBytes([0x30, 0x03, 0x02, 0x01, 0x05], label: "tiny")
    }

    /// Dates at the edges of the digit-by-digit path and beyond it (years before 0000 and after 9999
    /// take `ReceiptDate`'s own strings).
    @Test func datesAndNumbersAreWrittenAsReceiptDateWritesThem() {
        let instants: [Int64] = [0, -1, 1, 999, -999, 1_432_383_489_000, 1_710_054_000_000, 1_699_174_800_000,
                                 -62_167_219_200_000, -62_167_219_200_001, -62_167_219_200_000 + 86_400_000 + 1,
                                 253_402_300_799_999, 253_402_300_800_000 - 86_400_000 - 1, 253_402_300_800_000,
                                 ReceiptDate.limit, -ReceiptDate.limit, .max / 2]
        for ms in instants {
            let d = ReceiptDate(epochMilliseconds: ms)
            var w = JSONStreamWriter(compact: true)
            w.gmtString(d); w.pstString(d); w.millisecondsString(d)
            #expect(String(decoding: w.out, as: UTF8.self) == "\"\(d.gmtString)\"\"\(d.pstString)\"\"\(d.millisecondsString)\"", "\(ms)")
        }
        for n: Int64 in [0, 7, 10, -10, 1_000_000_007, .max, .min, .min + 1] {
            var w = JSONStreamWriter(compact: true)
            w.int64(n)
            #expect(String(decoding: w.out, as: UTF8.self) == String(n))
        }
    }
}

/// The streamed `verify --format json` report (`VerificationJSON.streamed`) equals the dictionary one.
@Suite struct VerificationJSONStreamTests {
    static let names = ["typical.receipt", "minimal.receipt", "xcode-ber.receipt", "malformed-expired-cert.receipt",
                        "malformed-tampered.receipt", "malformed-truncated.receipt", "typical.b64",
                        "jws/notification.jws", "jws/transaction.jws", "jws/renewal-info.jws", "jws/app-transaction.jws",
                        "jws/transaction-history.json", "jws/xcode-transaction.jws", "jws/malformed-alg-none.jws",
                        "jws/malformed-tampered-payload.jws", "jws/malformed-x5c-wrong-order.jws",
                        "jws/malformed-expired-at-signed-date.jws", "jws/malformed-invalid-utf8.jws"]

    static func expectSameBytes(path: String, label: String) throws {
        let roots = [try Paths.sample("pki/test-root.cer"), try Paths.sample("pki/test-ec-root.cer")]
        for (roots, at) in [([[UInt8]](), nil), (roots, Date(timeIntervalSince1970: 1_700_000_000))] {
            let options = AnalysisOptions(roots: roots, at: at, now: Date(timeIntervalSince1970: 1_767_225_600))
            let input = try InputLoader.load(path: path)
            let document = Document.open(input, options: options, reading: .always, jws: JWSOptions())
            let report = VerificationReport(verifying: document, now: options.now, words: .plain)
            let size = (name: document.source.name, size: input.bytes.count)
            #expect(VerificationJSON.text(report, input: size) == ReceiptJSON.serialize(VerificationJSON.document(report, input: size)),
                    "\(label) pretty, \(roots.count) roots")
            var object = VerificationJSON.document(report, input: size)
            BatchCheck.addSource(BatchSource(file: "-", line: 3), to: &object)
            let streamed = VerificationJSON.streamed(report, input: size, compact: true, batchSource: .init(file: "stdin", line: 3))
            #expect(String(decoding: streamed, as: UTF8.self) == ReceiptJSON.serialize(object, compact: true), "\(label) compact")
        }
    }

    @Test(arguments: names)
    func sampleReportMatchesTheDictionaryDocument(_ name: String) throws {
        try Self.expectSameBytes(path: Paths.samples.appendingPathComponent(name).path, label: name)
    }

    @Test(.enabled(if: Paths.jwsCorpusAvailable && Paths.corpusAvailable))
    func corpusReportsMatchTheDictionaryDocument() throws {
        var paths: [String] = []
        for dir in [Paths.receipts, Paths.jws] {
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasSuffix(".md") }.sorted()
            paths += names.map { dir.appendingPathComponent($0).path }.filter {
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue
            }
        }
        #expect(paths.count >= 20)
        for path in paths { try Self.expectSameBytes(path: path, label: path) }
    }
}
