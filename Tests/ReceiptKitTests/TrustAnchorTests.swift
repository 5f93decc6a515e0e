import Foundation
import DocumentCore
import Testing
import TestSupport
@testable import ReceiptKit
@testable import X509Trust

@Suite("Trust anchors") struct TrustAnchorTests {

    @Test("A user-supplied --root is accepted as DER and as PEM",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage))
    func userRootDERAndPEM() throws {
        let bytes = try ValidationCorpus.bytes(ValidationCorpus.validationRecord)
        let der = try ValidationCorpus.bytes(ValidationCorpus.appleRootPath)
        let creation = ISO8601DateFormatter().date(from: "2019-06-01T00:00:00Z")!

        let parsedDER = try CertificateInfo.parseCertificates(fileBytes: der)
        let parsedPEM = try CertificateInfo.parseCertificates(fileBytes: pem(der))
        #expect(parsedDER.count == 1)
        #expect(parsedDER == parsedPEM)
        #expect(parsedDER[0].sha256Fingerprint == "B0B1730ECBC7FF4505142C49F1295E6EDA6BCAED7E2C68C5BE91B5A11001F024")

        for root in [der, pem(der)] {
            let report = SignatureValidation.validate(pkcs7: bytes, creationDate: creation, now: today, extraRoots: [root])
            #expect(status(report, .chain) == .passed)
            #expect(report.anchor == .appleIncRoot)
            #expect(report.anchorSuppliedByUser)
            #expect(report.chain.count == 3)
        }

        // An unreadable --root file is reported, not fatal.
        let junk = SignatureValidation.validate(pkcs7: bytes, creationDate: creation, now: today,
                                                extraRoots: [Array("not a certificate".utf8), der])
        #expect(status(junk, .chain) == .passed)
        #expect(junk.step(.chain)?.details.first?.hasPrefix("supplied root #1 ignored") == true)
    }

    @Test("A user-supplied intermediate is a partial-chain anchor, labelled user-supplied",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage))
    func userSuppliedIntermediate() throws {
        let bytes = try ValidationCorpus.bytes(ValidationCorpus.validationRecord)
        let creation = ISO8601DateFormatter().date(from: "2019-06-01T00:00:00Z")!
        let intermediate = SignatureValidation.validate(pkcs7: bytes, creationDate: creation, now: today).certificates[1]
        #expect(!intermediate.isSelfSigned)
        let report = SignatureValidation.validate(pkcs7: bytes, creationDate: creation, now: today,
                                                  extraRoots: [intermediate.der])
        #expect(status(report, .chain) == .passed)
        #expect(report.anchor == .userSupplied)
        #expect(report.anchorSuppliedByUser)
        #expect(report.chain.count == 2)
    }

    @Test("The StoreKit Testing certificate supplied as --root is still labelled Xcode",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage))
    func storeKitCertAsRoot() throws {
        let cert = try ValidationCorpus.bytes(ValidationCorpus.storeKitCertPath)
        let receipt = CorpusReceipt.xcode[0]
        let report = SignatureValidation.validate(pkcs7: try ValidationCorpus.receipt(receipt.file),
                                                  creationDate: receipt.creationDate, now: today, extraRoots: [cert])
        #expect(status(report, .chain) == .passed)
        #expect(report.anchor == .xcodeStoreKitTesting)
        #expect(report.anchorSuppliedByUser, "the user vouched for the anchor, even though it is also embedded")
        #expect(report.step(.chain)?.details.last?.contains("supplied by you, also embedded in the receipt") == true)
    }

    @Test("Pinned fingerprints match the corpus certificates",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage))
    func pinnedFingerprints() throws {
        let apple = try #require(CertificateInfo(der: try ValidationCorpus.bytes(ValidationCorpus.appleRootPath)))
        let storeKit = try #require(CertificateInfo(der: try ValidationCorpus.bytes(ValidationCorpus.storeKitCertPath)))
        #expect(TrustAnchors.kind(of: apple) == .appleIncRoot)
        #expect(TrustAnchors.kind(of: storeKit) == .xcodeStoreKitTesting)
        #expect(TrustAnchors.kind(forSHA256: "b0:b1:73:0e:cb:c7:ff:45:05:14:2c:49:f1:29:5e:6e:da:6b:ca:ed:7e:2c:68:c5:be:91:b5:a1:10:01:f0:24") == .appleIncRoot)
        #expect(TrustAnchors.kind(forSHA256: String(repeating: "00", count: 32)) == nil)
        #expect(TrustAnchors.pinned.count == 4)
    }

    @Test("A receipt whose embedded root is swapped for a self-made 'Apple Root CA' is not trusted",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage),
          .enabled(if: OpenSSLCLI.available, "making a certificate \(OpenSSLTool.missingReason)"))
    func swappedRoot() throws {
        let dir = try OpenSSLCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try OpenSSLCLI.run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "fake.key",
                            "-subj", "/C=US/O=Apple Inc./OU=Apple Certification Authority/CN=Apple Root CA",
                            "-days", "10000", "-outform", "DER", "-out", "fake-root.der"], in: dir)
        let fakeRoot = [UInt8](try Data(contentsOf: dir.appendingPathComponent("fake-root.der")))

        let receipt = CorpusReceipt.mindNodePro
        let original = try ValidationCorpus.receipt(receipt.file)
        let swapped = DERSurgery.replacingCertificate(in: original, index: 2, with: fakeRoot)
        #expect(swapped != original)

        let report = SignatureValidation.validate(pkcs7: swapped, creationDate: receipt.creationDate, now: today)
        #expect(report.certificates.count == 3)
        #expect(report.certificates[2].subject == "CN=Apple Root CA,OU=Apple Certification Authority,O=Apple Inc.,C=US")
        #expect(report.certificates[2].isSelfSigned)
        #expect(TrustAnchors.kind(of: report.certificates[2]) == nil)
        #expect(status(report, .signature) == .passed, "the signer and content are untouched")
        #expect(status(report, .chain)?.isFailed == true)
        #expect(report.step(.chain)?.details.contains { $0.contains("not a pinned root") } == true)
        #expect(report.anchor == nil)
        #expect(status(report, .time).map { if case .notChecked = $0 { true } else { false } } == true)
        #expect(!report.isAppStoreValid)

        // Supplying the fake root does not help: the real intermediate was not signed by it.
        let supplied = SignatureValidation.validate(pkcs7: swapped, creationDate: receipt.creationDate, now: today,
                                                    extraRoots: [fakeRoot])
        #expect(status(supplied, .chain)?.isFailed == true)
        #expect(!supplied.isAppStoreValid)
    }

    @Test("A self-signed root that is neither pinned nor supplied is not trusted; supplied, it is labelled user-supplied",
          .enabled(if: OpenSSLCLI.available, "making a signed PKCS#7 \(OpenSSLTool.missingReason)"))
    func selfMadeSigner() throws {
        let dir = try OpenSSLCLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ext = "basicConstraints=CA:FALSE\n1.2.840.113635.100.6.11.1=ASN1:NULL\n"
        try ext.write(to: dir.appendingPathComponent("leaf.ext"), atomically: true, encoding: .utf8)
        try Data([0x31, 0x03, 0x02, 0x01, 0x05]).write(to: dir.appendingPathComponent("payload.bin"))
        try OpenSSLCLI.run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-subj", "/CN=Test Root",
                            "-days", "3650", "-out", "ca.pem",
                            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"], in: dir)
        try OpenSSLCLI.run(["req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", "leaf.key",
                            "-subj", "/CN=Test Receipt Signer", "-out", "leaf.csr"], in: dir)
        try OpenSSLCLI.run(["x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "2",
                            "-days", "365", "-extfile", "leaf.ext", "-out", "leaf.pem"], in: dir)
        try OpenSSLCLI.run(["cms", "-sign", "-binary", "-nodetach", "-in", "payload.bin", "-signer", "leaf.pem",
                            "-inkey", "leaf.key", "-certfile", "ca.pem", "-md", "sha256", "-outform", "DER",
                            "-out", "signed.p7"], in: dir)
        let signed = [UInt8](try Data(contentsOf: dir.appendingPathComponent("signed.p7")))
        let rootPEM = [UInt8](try Data(contentsOf: dir.appendingPathComponent("ca.pem")))
        let now = Date()

        let untrusted = SignatureValidation.validate(pkcs7: signed, creationDate: now, now: now)
        #expect(status(untrusted, .signature) == .passed)
        #expect(untrusted.certificates.count == 2)
        #expect(untrusted.digestAlgorithm == "SHA-256")
        #expect(untrusted.signedContent == [0x31, 0x03, 0x02, 0x01, 0x05])
        #expect(status(untrusted, .chain)?.isFailed == true)
        guard case .failed(.chainUnverified(let error))? = status(untrusted, .chain) else { Issue.record("the chain should fail"); return }
        #expect(error.openSSL == "self-signed certificate in certificate chain")
        #expect(untrusted.step(.chain)?.details.contains { $0.contains("CN=Test Root") && $0.contains("not trusted") } == true)
        #expect(status(untrusted, .receiptSigner) == .passed)
        #expect(untrusted.step(.receiptSigner)?.details.contains { $0.contains("not trusted") } == true)

        let trusted = SignatureValidation.validate(pkcs7: signed, creationDate: now, now: now, extraRoots: [rootPEM])
        #expect(status(trusted, .chain) == .passed)
        #expect(trusted.anchor == .userSupplied)
        #expect(trusted.step(.chain)?.details.contains { $0.contains("not an Apple root") } == true)
        #expect(status(trusted, .time) == .passed)
        #expect(trusted.passesToday == true)
        #expect(!trusted.isAppStoreValid, "a user-supplied non-Apple anchor is never App Store valid")

        // Detached payload handling: the embedded content must match a payload given alongside it.
        let mismatch = SignatureValidation.validate(pkcs7: signed, payload: [0x31, 0x00], creationDate: now, now: now)
        #expect(status(mismatch, .signature)?.isFailed == true)
        let match = SignatureValidation.validate(pkcs7: signed, payload: [0x31, 0x03, 0x02, 0x01, 0x05], creationDate: now, now: now)
        #expect(status(match, .signature) == .passed)
    }
}
