import ASN1Lenient
import DocumentCore
import Foundation
import ReceiptKit
import Testing
import TestSupport
import TextLoader
import X509Trust

/// The one verification model, built from a receipt analysis and from JWS verification reports.
@Suite struct VerificationReportTests {
    static func open(_ name: String, roots: [String], jws: JWSOptions = JWSOptions()) throws -> Document {
        let options = AnalysisOptions(roots: try roots.map { try Paths.sample($0) }, now: Date(timeIntervalSince1970: 1_767_225_600))
        let input = try InputLoader.load(path: Paths.samples.appendingPathComponent(name).path)
        return Document.open(input, options: options, reading: .always, jws: jws)
    }

    @Test func receiptReport() throws {
        let document = try Self.open("typical.receipt", roots: ["pki/test-root.cer"])
        let report = try #require(VerificationReport(receiptOf: document))
        #expect(VerificationReport(storeKitOf: document, now: Date()) == nil)
        #expect(report.subject.kind == "receipt")
        #expect(report.subject.note == "raw DER/BER, 7,686 bytes; a PKCS#7 App Store receipt")
        #expect(report.steps.map(\.id) == ["contents", "signature", "chain", "time", "receipt-signer", "device-hash",
                                           "bundle-id", "app-version", "environment", "app-apple-id", "expiration"])
        #expect(report.step("device-hash")?.reasonCode?.rawValue == "not-given")
        #expect(report.step("device-hash")?.reason == "no device identifier given (an identifierForVendor UUID or a MAC address)")
        // The SignerInfo's signature is the file's last 256 bytes (RSA-2048).
        #expect(report.step("signature")?.ranges.last == VerificationRange(what: "SignerInfo signature", 7430..<7686))
        #expect(report.step("contents")?.ranges == [VerificationRange(what: "receipt payload", 64..<4206)])
        #expect(report.step("time")?.judgedAt == Date(timeIntervalSince1970: 1_709_294_400))  // attribute 12
        #expect(report.certificates.map(\.role) == ["signer", "intermediate", "trust anchor"])
        #expect(report.certificates.last?.sha256 == "52A0AC391EAFC59500998EDEC191AFA71261DF0057EA8D265B8E6CA4D5E38848")
        #expect(report.step("receipt-signer")?.certificates.map(\.markers) == [[CertificateInfo.receiptSignerOID]])
        #expect(report.verdict.valid && report.verdict.outcome == "user-root")
        #expect(report.verdict.reasons.map(\.code.rawValue) == ["anchored-at-user-root"])
        // A sandbox receipt (attribute 0 ProductionSandbox): the subject and the verdict line say so.
        #expect(report.subject.environment == .sandbox)
        #expect(VerificationText.verdictLine(report) == "Verdict: VALID (sandbox receipt) — valid, anchored at a root you supplied")
    }

    @Test func tamperedReceipt() throws {
        let report = try #require(VerificationReport(receiptOf: try Self.open("malformed-tampered.receipt", roots: ["pki/test-root.cer"])))
        #expect(report.step("signature")?.status == .failed)
        #expect(report.step("signature")?.reasonCode?.rawValue == "signature-mismatch")
        #expect(report.firstFailure?.id == "signature")
        #expect(!report.verdict.valid && report.verdict.outcome == "invalid")
        #expect(report.step("signature")?.appleStatus == .verificationFailure)
        #expect(VerificationText.verdictLine(report) == "Verdict: INVALID (sandbox receipt)")
    }

    @Test func notificationReport() throws {
        let document = try Self.open("jws/notification.jws", roots: ["pki/test-ec-root.cer"], jws: JWSOptions(expectedEnvironment: "Sandbox"))
        let report = try #require(VerificationReport(storeKitOf: document, now: Date(timeIntervalSince1970: 1_767_225_600)))
        #expect(report.subject.kind == "notification")
        #expect(report.steps.map(\.id) == ["algorithm", "chain", "root", "leaf-oid", "intermediate-oid", "time-signed-date",
                                           "time-today", "signature", "bundle-id", "environment", "app-apple-id",
                                           "nested-consistency", "revocation"])
        #expect(report.step("revocation")?.status == .notChecked)
        #expect(report.step("revocation")?.reasonCode?.rawValue == "revocation-offline")
        #expect(report.step("revocation")?.decides == false)
        #expect(report.step("environment")?.status == .passed)
        #expect(report.certificates.map(\.role) == ["leaf", "intermediate", "root"])
        #expect(report.certificates.last?.anchor == "user-supplied root")
        #expect(report.step("leaf-oid")?.certificates.map(\.index) == [0])
        #expect(report.step("time-signed-date")?.judgedAt == Date(timeIntervalSince1970: 1_709_294_400))
        #expect(report.step("time-today")?.judgedAt == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(report.nested.map(\.subject.path) == ["data.signedTransactionInfo", "data.signedRenewalInfo"])
        #expect(report.nested.map(\.subject.kind) == ["transaction", "renewal-info"])
        #expect(report.nested.allSatisfy { $0.verdict.valid && $0.nested.isEmpty })
        // A token pasted alone is the file: its ranges in the file and in the token coincide.
        let signature = try #require(report.step("signature")?.ranges.first)
        #expect(signature.offset == signature.tokenOffset && signature.length == 86)
        #expect(signature.offset + signature.length == 15_852)
        #expect(report.verdict.valid && report.verdict.outcome == "user-root")
        #expect(report.verdict.reasons.map(\.code.rawValue) == ["anchored-at-user-root", "revocation-offline"])
    }

    @Test func historyReport() throws {
        let document = try Self.open("jws/transaction-history.json", roots: ["pki/test-ec-root.cer"])
        let report = try #require(VerificationReport(storeKitOf: document, now: Date()))
        #expect(report.subject.kind == "transaction-history")
        #expect(report.steps.isEmpty)
        #expect(report.nested.map(\.subject.path) == ["signedTransactions[0]", "signedTransactions[1]"])
        // Each token's characters sit inside the JSON body, just after the opening quote.
        let body = try Paths.sample("jws/transaction-history.json")
        for nested in report.nested {
            let range = try #require(nested.subject.range)
            #expect(body[range.offset - 1] == UInt8(ascii: "\""))
            #expect(body[range.offset + range.length] == UInt8(ascii: "\""))
            #expect(Array(body[range.offset..<(range.offset + 3)]) == Array("eyJ".utf8))
        }
        #expect(report.verdict.valid && report.verdict.summary == "every token verified")
        let bare = try #require(VerificationReport(storeKitOf: try Self.open("jws/transaction-history.json", roots: []), now: Date()))
        #expect(!bare.verdict.valid)
        #expect(bare.verdict.reasons.map(\.code.rawValue) == ["nested-invalid", "nested-invalid"])
    }

    @Test func algNoneReport() throws {
        let report = try #require(VerificationReport(storeKitOf: try Self.open("jws/malformed-alg-none.jws", roots: ["pki/test-ec-root.cer"]),
                                                     now: Date()))
        let step = try #require(report.firstFailure)
        #expect(step.id == "algorithm")
        #expect(step.reasonCode?.rawValue == "algorithm-none")
        // The header is {"alg":"none",…}: the value's 6 bytes at header offset 7 are characters 9..<18.
        #expect(step.ranges == [VerificationRange(what: "header alg", 9..<18, inToken: 9..<18)])
        #expect(report.verdict.reasons.first?.code.rawValue == "algorithm-none")
    }

    /// Each step names what it judges; the text report picks Apple's verifier from it, not from the report's kind.
    @Test func stepSubjectsOfAReceipt() throws {
        let report = try #require(VerificationReport(receiptOf: try Self.open("typical.receipt", roots: ["pki/test-root.cer"])))
        let signedData = VerificationStepSubject(.signedData, envelope: .pkcs7)
        #expect(report.step("signature")?.subject == signedData)
        #expect(report.step("bundle-id")?.subject == signedData)
        #expect(report.step("chain")?.subject == VerificationStepSubject(.chain, envelope: .pkcs7))
        #expect(report.step("time")?.subject == VerificationStepSubject(.chain, envelope: .pkcs7))
        // The signer is the SignedData's third certificate (its certificate set lists root, intermediate, signer).
        #expect(report.step("receipt-signer")?.subject == VerificationStepSubject(.certificate, envelope: .pkcs7, index: 2))
        #expect(report.step("receipt-signer")?.ranges.map(\.what) == ["certificate 2 (signer)"])
        #expect(report.steps.allSatisfy { $0.subject.path == nil })
    }

    @Test func stepSubjectsOfNestedTokens() throws {
        let document = try Self.open("jws/notification.jws", roots: ["pki/test-ec-root.cer"])
        let report = try #require(VerificationReport(storeKitOf: document, now: Date(timeIntervalSince1970: 1_767_225_600)))
        #expect(report.step("signature")?.subject == VerificationStepSubject(.token, envelope: .jws))
        #expect(report.step("root")?.subject == VerificationStepSubject(.certificate, envelope: .jws, index: 2))
        #expect(report.step("leaf-oid")?.subject == VerificationStepSubject(.certificate, envelope: .jws, index: 0))
        #expect(report.step("intermediate-oid")?.subject == VerificationStepSubject(.certificate, envelope: .jws, index: 1))
        #expect(report.step("time-signed-date")?.subject == VerificationStepSubject(.chain, envelope: .jws))
        let nested = try #require(report.nested.first)
        #expect(nested.step("signature")?.subject == VerificationStepSubject(.token, envelope: .jws, path: "data.signedTransactionInfo"))
        #expect(nested.step("root")?.subject == VerificationStepSubject(.certificate, envelope: .jws,
                                                                         path: "data.signedTransactionInfo", index: 2))
    }

    @Test func stepSubjectsOfAnExternalPurchaseToken() throws {
        let document = try Self.open("external/external-purchase-token.txt", roots: [])
        let report = VerificationReport(verifying: document, now: Date(), jws: JWSOptions(), bundleID: "com.example.other")
        #expect(report.steps.map(\.id) == ["bundle-id"])
        #expect(report.steps.map(\.subject) == [VerificationStepSubject(.document, envelope: .none)])
    }
}
