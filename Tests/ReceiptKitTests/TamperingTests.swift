import Foundation
import DocumentCore
import Testing
import TestSupport
@testable import ReceiptKit

@Suite("Tampering and garbage") struct TamperingTests {

    @Test("A changed payload byte fails the signature step with OpenSSL's reason",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage),
          arguments: [CorpusReceipt.mindNodePro, CorpusReceipt.appleSigned[0]])
    func tamperedPayload(_ receipt: CorpusReceipt) throws {
        var bytes = try ValidationCorpus.receipt(receipt.file)
        // The payload OCTET STRING of these strict-DER files starts near offset 62; offset 120 is inside it.
        bytes[120] ^= 0x01
        let report = SignatureValidation.validate(pkcs7: bytes, creationDate: receipt.creationDate, now: today)
        guard case .failed(.signatureMismatch(let openSSL))? = status(report, .signature) else {
            Issue.record("signature should fail: \(report.steps)"); return
        }
        #expect(!openSSL.isEmpty, "OpenSSL says why")
        #expect(status(report, .chain) == .passed, "the certificates are untouched")
        #expect(!report.isAppStoreValid)
    }

    @Test("Garbage, prefixes and mutations never crash and always give four steps",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage))
    func garbage() throws {
        var rng = ValidationRNG(state: 0x5EED)
        let creation = Date(timeIntervalSince1970: 1_455_274_662)
        func summaries(_ input: [UInt8]) -> [String] {
            let report = SignatureValidation.validate(pkcs7: input, creationDate: creation, now: today)
            #expect(report.steps.map(\.id) == StepID.openSSL)
            return report.steps.map { StepText.plain.summary($0.status) }
        }
        /// What no SignedData gives: the signature step says why, and the three steps that need the
        /// SignedData repeat that reason.
        func unread(_ why: String) -> [String] {
            ["not checked — " + why] + Array(repeating: "not checked — no PKCS#7 SignedData to check: " + why, count: 3)
        }
        let notPKCS7 = unread("not a PKCS#7 structure"), truncated = unread("not a PKCS#7 structure (the input is truncated)")
        #expect(summaries([]) == unread("empty input: not a PKCS#7 structure"))
        #expect(summaries([0x30]) == truncated)
        #expect(summaries([0x30, 0x80]) == notPKCS7)  // indefinite: no declared length to fall short of
        #expect(summaries([0x30, 0x00]) == notPKCS7)
        #expect(summaries([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF]) == truncated)
        #expect(summaries([0x00, 0x00]) == notPKCS7)
        for n in [1, 2, 16, 100, 1000, 5000] {
            let random = summaries((0..<n).map { _ in rng.byte() })
            #expect(random == notPKCS7 || random == truncated, "\(n) random bytes: \(random)")
        }
        let real = try ValidationCorpus.receipt(CorpusReceipt.mindNodePro.file)
        let ber = try ValidationCorpus.receipt(CorpusReceipt.xcode[2].file)
        for length in stride(from: 1, to: real.count, by: 211) {
            #expect(summaries(Array(real.prefix(length))) == truncated, "DER prefix of \(length) bytes")
        }
        // BER's indefinite lengths declare nothing a prefix falls short of, so some read as not PKCS#7.
        for length in stride(from: 1, to: ber.count, by: 307) {
            let prefix = summaries(Array(ber.prefix(length)))
            #expect(prefix == truncated || prefix == notPKCS7, "BER prefix of \(length) bytes: \(prefix)")
        }
        // Mutations: each step's summary is its status worded ("failed — " / "not checked — " and
        // the reason), and a step that needs the SignedData repeats the signature step's reason.
        for source in [real, ber] {
            for _ in 0..<60 {
                var m = source
                for _ in 0..<(1 + rng.below(4)) { m[rng.below(m.count)] = rng.byte() }
                let report = SignatureValidation.validate(pkcs7: m, creationDate: creation, now: today)
                #expect(report.steps.map(\.id) == StepID.openSSL)
                for step in report.steps {
                    let summary = StepText.plain.summary(step.status)
                    switch step.status {
                    case .passed: #expect(summary == "passed")
                    case .failed(let r): #expect(summary == "failed — " + StepText.plain.reason(r))
                    case .notChecked(let r): #expect(summary == "not checked — " + StepText.plain.reason(r))
                    }
                }
                if case .notChecked(let why)? = report.steps.first?.status, case .notPKCS7 = why {
                    #expect(report.steps.dropFirst().map { StepText.plain.summary($0.status) }
                            == Array(repeating: "not checked — no PKCS#7 SignedData to check: " + StepText.plain.reason(why), count: 3))
                }
            }
        }
        let empty = SignatureValidation.validate(pkcs7: [], creationDate: nil)
        #expect(status(empty, .signature) == .notChecked(.emptyInput))
        #expect(StepText.plain.summary(.notChecked(.emptyInput)) == "not checked — empty input: not a PKCS#7 structure")
        let random = SignatureValidation.validate(pkcs7: (0..<64).map { _ in rng.byte() }, creationDate: nil)
        #expect(status(random, .signature) == .notChecked(.notPKCS7(inputTruncated: false))
                || status(random, .signature) == .notChecked(.notPKCS7(inputTruncated: true)))
    }

    @Test("Validation is callable from many tasks at once with identical results",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage))
    func parallel() async throws {
        let receipts = CorpusReceipt.appleSigned + CorpusReceipt.xcode
        let files = try receipts.map { try ValidationCorpus.receipt($0.file) }
        let sequential = zip(files, receipts).map {
            SignatureValidation.validate(pkcs7: $0.0, creationDate: $0.1.creationDate, now: today).steps
        }
        let parallel = await withTaskGroup(of: (Int, [ValidationStep]).self) { group in
            for _ in 0..<4 {
                for (i, file) in files.enumerated() {
                    let date = receipts[i].creationDate
                    group.addTask { (i, SignatureValidation.validate(pkcs7: file, creationDate: date, now: today).steps) }
                }
            }
            var results: [(Int, [ValidationStep])] = []
            for await r in group { results.append(r) }
            return results
        }
        #expect(parallel.count == files.count * 4)
        for (i, steps) in parallel { #expect(steps == sequential[i]) }
    }
}
