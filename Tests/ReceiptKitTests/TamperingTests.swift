import Foundation
import DocumentModel
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
        var inputs: [[UInt8]] = [[], [0x30], [0x30, 0x80], [0x30, 0x00], [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF], [0x00, 0x00]]
        for n in [1, 2, 16, 100, 1000, 5000] {
            inputs.append((0..<n).map { _ in rng.byte() })
        }
        let real = try ValidationCorpus.receipt(CorpusReceipt.mindNodePro.file)
        let ber = try ValidationCorpus.receipt(CorpusReceipt.xcode[2].file)
        for length in stride(from: 0, to: real.count, by: 211) { inputs.append(Array(real.prefix(length))) }
        for length in stride(from: 0, to: ber.count, by: 307) { inputs.append(Array(ber.prefix(length))) }
        for source in [real, ber] {
            for _ in 0..<60 {
                var m = source
                for _ in 0..<(1 + rng.below(4)) { m[rng.below(m.count)] = rng.byte() }
                inputs.append(m)
            }
        }
        for input in inputs {
            let report = SignatureValidation.validate(pkcs7: input, creationDate: Date(timeIntervalSince1970: 1_455_274_662), now: today)
            #expect(report.steps.map(\.id) == StepID.openSSL)
            for step in report.steps where step.status != .passed {
                #expect(!StepText.plain.summary(step.status).isEmpty)
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
