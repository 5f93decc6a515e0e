import Foundation
import DocumentModel
import Testing
import TestSupport
@testable import ReceiptKit

// Signature, chain, time and receipt-signer validation against the real corpus in ../shared/corpus
// (facts from its MANIFEST.md), plus the device hash and certificate helpers. Tests that need the
// corpus or the `openssl` command line are disabled with a message when they are missing.

// MARK: - fixtures

enum ValidationCorpus {
    /// `<package root>/../shared/corpus`, found from this file's path.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // ReceiptKitTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("../shared/corpus")
        .standardizedFileURL

    static let available: Bool = FileManager.default.fileExists(
        atPath: directory.appendingPathComponent("MANIFEST.md").path)

    static let missingMessage: Comment = "receipt corpus not found at ../shared/corpus relative to the package root; skipping corpus tests"

    static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(relative)))
    }

    static func receipt(_ name: String) throws -> [UInt8] { try bytes("receipts/" + name) }

    static let appleRootPath = "certs/AppleIncRootCertificate.cer"
    static let storeKitCertPath = "certs/StoreKitTestCertificate.cer"
    static let validationRecord = "receipts/negative/pkcs7-not-a-receipt-apple-signed-validation-record.p7"
    static let truncated = "receipts/negative/truncated-sandbox-com.belive.app.ios-456bytes.receipt"
}

/// One corpus receipt and the MANIFEST facts the validation tests use.
struct CorpusReceipt: Sendable, CustomTestStringConvertible {
    var file: String
    var created: String  // MANIFEST "created (12)", UTC
    var digest: String  // SignerInfo digest algorithm

    var testDescription: String { file }
    var creationDate: Date { ISO8601DateFormatter().date(from: created)! }

    /// MANIFEST: Apple-signed files signed in 2023-08 and later use SHA-256, older ones SHA-1.
    static let appleSigned: [CorpusReceipt] = [
        .init(file: "production-ios-org.getpure.pure-iphone-2024-02-23-4iap.receipt", created: "2024-02-23T17:27:16Z", digest: "SHA-256"),
        .init(file: "production-macos-com.apple.dt.Xcode-2015-09-22-0iap.receipt", created: "2015-09-22T08:55:28Z", digest: "SHA-1"),
        .init(file: "production-macos-com.mindnode.MindNodePro-2016-02-12-0iap.receipt", created: "2016-02-12T10:57:42Z", digest: "SHA-1"),
        .init(file: "production-net.shinyfrog.bear-2019-09-26-1iap.receipt", created: "2019-09-26T14:08:37Z", digest: "SHA-1"),
        .init(file: "sandbox-com.cocoanetics.EmmiView-2015-05-25-6iap.receipt", created: "2015-05-25T15:22:10Z", digest: "SHA-1"),
        .init(file: "sandbox-com.hannesoid.PurchasingExperiments-2023-02-22-2iap.receipt", created: "2023-02-22T14:30:15Z", digest: "SHA-1"),
        .init(file: "sandbox-com.revenuecat.sampleapp-2020-07-22-9iap.receipt", created: "2020-07-22T17:39:08Z", digest: "SHA-1"),
        .init(file: "sandbox-com.sumiapp.GridDiary-2018-01-05-120iap.receipt", created: "2018-01-05T02:55:39Z", digest: "SHA-1"),
        .init(file: "sandbox-ios-com.mindnode.mindnodetouch-2017-09-11-0iap.receipt", created: "2017-09-11T09:38:34Z", digest: "SHA-1"),
    ]

    static let xcode: [CorpusReceipt] = [
        .init(file: "xcode-ch.protonmail.protonmail-2022-01-07-6iap.receipt", created: "2022-01-07T14:54:35Z", digest: "SHA-256"),
        .init(file: "xcode-com.example.naturelab.backyardbirds.example-2023-10-19-1iap.receipt", created: "2023-10-19T01:45:40Z", digest: "SHA-256"),
        .init(file: "xcode-net.zachariadis.cyclemaps-2020-07-22-1iap.receipt", created: "2020-07-22T17:33:15Z", digest: "SHA-256"),
    ]

    static let mindNodePro = appleSigned[2]
}

/// A fixed "today" after every Apple intermediate in the corpus has expired, so tests do not
/// depend on the wall clock (the StoreKit Testing certificate is valid until 2040).
private let today = ISO8601DateFormatter().date(from: "2026-01-15T12:00:00Z")!

func status(_ report: SignatureReport, _ id: StepID) -> StepStatus? { report.step(id)?.status }

private func pem(_ der: [UInt8]) -> [UInt8] {
    let b64 = Data(der).base64EncodedString()
    var lines = ["-----BEGIN CERTIFICATE-----"]
    var i = b64.startIndex
    while i < b64.endIndex {
        let j = b64.index(i, offsetBy: 64, limitedBy: b64.endIndex) ?? b64.endIndex
        lines.append(String(b64[i..<j]))
        i = j
    }
    lines.append("-----END CERTIFICATE-----")
    return Array(("# a comment line before the block\n" + lines.joined(separator: "\n") + "\n").utf8)
}

/// Runs the `openssl` command line in `directory`.
enum OpenSSLCLI {
    static let available: Bool = (try? run(["version"], in: FileManager.default.temporaryDirectory)) != nil

    @discardableResult
    static func run(_ arguments: [String], in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = directory
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw CLIError(message: "openssl \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    struct CLIError: Error, CustomStringConvertible { var message: String; var description: String { message } }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("validation-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Minimal definite-length DER surgery, enough to swap a certificate inside a strict-DER receipt.
enum DERSurgery {
    struct TLV { var tag: UInt8; var header: Int; var start: Int; var end: Int }  // start = first byte of the TLV

    static func children(_ bytes: [UInt8], of parent: TLV) -> [TLV] {
        var out: [TLV] = []
        var i = parent.start + parent.header
        while i < parent.end {
            let t = header(bytes, at: i)
            out.append(t)
            i = t.end
        }
        return out
    }

    static func header(_ bytes: [UInt8], at offset: Int) -> TLV {
        let first = bytes[offset + 1]
        var length = 0
        var header = 2
        if first < 0x80 {
            length = Int(first)
        } else {
            let n = Int(first & 0x7F)
            for k in 0..<n { length = (length << 8) | Int(bytes[offset + 2 + k]) }
            header = 2 + n
        }
        return TLV(tag: bytes[offset], header: header, start: offset, end: offset + header + length)
    }

    static func encode(tag: UInt8, content: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        if content.count < 0x80 {
            length = [UInt8(content.count)]
        } else {
            var n = content.count
            var digits: [UInt8] = []
            while n > 0 { digits.insert(UInt8(n & 0xFF), at: 0); n >>= 8 }
            length = [0x80 | UInt8(digits.count)] + digits
        }
        return [tag] + length + content
    }

    /// The receipt with its `index`-th embedded certificate replaced by `replacement`.
    static func replacingCertificate(in receipt: [UInt8], index: Int, with replacement: [UInt8]) -> [UInt8] {
        let contentInfo = header(receipt, at: 0)
        let ciChildren = children(receipt, of: contentInfo)  // OID, [0]
        let explicit = ciChildren[1]
        let signedData = children(receipt, of: explicit)[0]
        let sdChildren = children(receipt, of: signedData)  // version, digests, content, [0] certs, signerInfos
        let certsIndex = sdChildren.firstIndex { $0.tag == 0xA0 }!
        let certs = children(receipt, of: sdChildren[certsIndex])
        var newCerts: [UInt8] = []
        for (i, c) in certs.enumerated() {
            newCerts += i == index ? replacement : Array(receipt[c.start..<c.end])
        }
        var sdContent: [UInt8] = []
        for (i, c) in sdChildren.enumerated() {
            sdContent += i == certsIndex ? encode(tag: 0xA0, content: newCerts) : Array(receipt[c.start..<c.end])
        }
        let newSignedData = encode(tag: signedData.tag, content: sdContent)
        let newExplicit = encode(tag: explicit.tag, content: newSignedData)
        let oid = Array(receipt[ciChildren[0].start..<ciChildren[0].end])
        return encode(tag: contentInfo.tag, content: oid + newExplicit)
    }
}

/// Deterministic bytes for the garbage tests (SplitMix64).
struct ValidationRNG {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

// MARK: - tests

@Suite("Validation") struct ValidationTests {

    // MARK: Apple-signed receipts

    @Test("Apple-signed receipts: signature, chain to Apple Inc. Root, valid at creation, expired today",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage),
          arguments: CorpusReceipt.appleSigned)
    func appleSigned(_ receipt: CorpusReceipt) throws {
        let bytes = try ValidationCorpus.receipt(receipt.file)
        let report = SignatureValidation.validate(pkcs7: bytes, creationDate: receipt.creationDate, now: today)

        #expect(report.steps.map(\.id) == StepID.openSSL)
        #expect(status(report, .signature) == .passed)
        #expect(status(report, .chain) == .passed)
        #expect(status(report, .time) == .passed)
        #expect(status(report, .receiptSigner) == .passed)
        #expect(report.anchor == .appleIncRoot)
        #expect(report.anchorSuppliedByUser == false)
        #expect(report.anchorCertificate?.sha256Fingerprint == "B0B1730ECBC7FF4505142C49F1295E6EDA6BCAED7E2C68C5BE91B5A11001F024")
        #expect(report.isAppStoreValid)

        #expect(report.certificates.count == 3)
        #expect(report.chain.count == 3)
        #expect(report.signer?.hasReceiptSignerOID == true)
        #expect(report.signer == report.certificates.first)
        #expect(report.certificates[1].hasWWDRIntermediateOID)
        #expect(report.certificates[2].isSelfSigned)
        #expect(report.digestAlgorithm == receipt.digest)
        #expect(report.signatureAlgorithm == "rsaEncryption")

        // Today every chain fails on an expired certificate.
        #expect(report.passesToday == false)
        let timeDetails = report.step(.time)?.details ?? []
        #expect(timeDetails.contains { $0.hasPrefix("at today's date: certificate has expired") }, "\(timeDetails)")

        // The signed content is the receipt payload, a DER SET.
        #expect(report.signedContent?.first == 0x31)
        #expect((report.signedContent?.count ?? 0) > 100)
    }

    @Test("The time step fails when judged at a date after the certificates expired",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage))
    func timeFailsLater() throws {
        let bytes = try ValidationCorpus.receipt(CorpusReceipt.mindNodePro.file)
        let late = ISO8601DateFormatter().date(from: "2024-01-01T00:00:00Z")!
        let report = SignatureValidation.validate(pkcs7: bytes, creationDate: late, now: today)
        #expect(status(report, .chain) == .passed, "the chain ignores dates")
        guard case .failed(.invalidAtCreation(let date, let error))? = status(report, .time) else {
            Issue.record("time should fail: \(String(describing: report.step(.time)))")
            return
        }
        #expect(error.openSSL == "certificate has expired")
        #expect(date == "2024-01-01T00:00:00Z")
        #expect(!report.isAppStoreValid)
    }

    @Test("A missing creation date leaves the time step not checked, but today is still judged",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage))
    func noCreationDate() throws {
        let bytes = try ValidationCorpus.receipt(CorpusReceipt.mindNodePro.file)
        let report = SignatureValidation.validate(pkcs7: bytes, creationDate: nil, now: today)
        #expect(status(report, .time) == .notChecked(.noCreationDate))
        #expect(report.passesToday == false)
        #expect(status(report, .chain) == .passed)
    }

    @Test("Certificate details of the MindNodePro signer",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage))
    func certificateInfo() throws {
        let bytes = try ValidationCorpus.receipt(CorpusReceipt.mindNodePro.file)
        let report = SignatureValidation.validate(pkcs7: bytes, creationDate: CorpusReceipt.mindNodePro.creationDate, now: today)
        let leaf = try #require(report.signer)
        // RFC 2253 writes the last RDN first; this subject is encoded CN, OU, O, C.
        #expect(leaf.subject == "C=US,O=Apple Inc.,OU=Apple Worldwide Developer Relations,CN=Mac App Store and iTunes Store Receipt Signing")
        #expect(leaf.issuer == "CN=Apple Worldwide Developer Relations Certification Authority,OU=Apple Worldwide Developer Relations,O=Apple Inc.,C=US")
        #expect(leaf.commonName == "Mac App Store and iTunes Store Receipt Signing")
        #expect(leaf.serial == "0EEB5787E79E098D")
        #expect(leaf.signatureAlgorithm == "sha1WithRSAEncryption")
        #expect(leaf.notBefore == ISO8601DateFormatter().date(from: "2015-11-13T02:15:09Z"))
        #expect(leaf.notAfter == ISO8601DateFormatter().date(from: "2023-02-07T21:48:47Z"))
        #expect(leaf.isSelfSigned == false)
        #expect(leaf.hasWWDRIntermediateOID == false)
        #expect(leaf.sha256Fingerprint == Digest.hex(Digest.sha256(leaf.der)))
        #expect(CertificateInfo(der: leaf.der) == leaf)

        let root = report.certificates[2]
        #expect(root.subject == "CN=Apple Root CA,OU=Apple Certification Authority,O=Apple Inc.,C=US")
        #expect(root.isSelfSigned)
        #expect(TrustAnchors.kind(of: root) == .appleIncRoot)
    }

    // MARK: Xcode StoreKit testing receipts (BER)

    @Test("Xcode receipts (BER) verify against the StoreKit Testing certificate and are labelled as such",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage),
          arguments: CorpusReceipt.xcode)
    func xcode(_ receipt: CorpusReceipt) throws {
        let bytes = try ValidationCorpus.receipt(receipt.file)
        #expect(bytes[1] == 0x80, "outer ContentInfo uses an indefinite length")
        let report = SignatureValidation.validate(pkcs7: bytes, creationDate: receipt.creationDate, now: today)

        #expect(status(report, .signature) == .passed)
        #expect(status(report, .chain) == .passed)
        #expect(report.anchor == .xcodeStoreKitTesting)
        #expect(report.step(.chain)?.details.contains(TrustAnchors.xcodeTestingNote) == true)
        #expect(TrustAnchors.xcodeTestingNote == "signed by Xcode StoreKit Testing — local testing only, not the App Store")
        #expect(status(report, .time) == .passed)
        #expect(report.passesToday == true)
        #expect(status(report, .receiptSigner) == .notChecked(.xcodeSignerHasNoReceiptOID))
        #expect(!report.isAppStoreValid)

        #expect(report.certificates.count == 1)
        #expect(report.certificates[0].isSelfSigned)
        #expect(report.certificates[0].sha256Fingerprint == "FF0BA36E721D2DB741D2AA11E6112EF78BF7131B46C7F035B00891D045C864FE")
        #expect(report.digestAlgorithm == receipt.digest)
        #expect(report.signedContent?.first == 0x31)
    }

    // MARK: negative corpus

    @Test("An Apple-signed PKCS#7 that is not a receipt fails receipt-signer, naming the OID",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage))
    func notAReceipt() throws {
        let bytes = try ValidationCorpus.bytes(ValidationCorpus.validationRecord)
        let creation = ISO8601DateFormatter().date(from: "2019-06-01T00:00:00Z")!

        // It does not embed its root: without --root the chain cannot reach an anchor.
        let bare = SignatureValidation.validate(pkcs7: bytes, creationDate: creation, now: today)
        #expect(status(bare, .signature) == .passed)
        #expect(bare.certificates.count == 2)
        #expect(status(bare, .chain)?.isFailed == true)
        #expect(bare.step(.chain)?.details.contains("the PKCS#7 structure does not embed a root certificate; it has to be supplied") == true)
        guard case .failed(.signerLacksReceiptOID(let signer))? = status(bare, .receiptSigner) else {
            Issue.record("receipt-signer should fail"); return
        }
        #expect(signer == bare.signer?.label)

        // With Apple Inc. Root supplied it chains to Apple Inc. Root, and is still not a receipt.
        let root = try ValidationCorpus.bytes(ValidationCorpus.appleRootPath)
        let anchored = SignatureValidation.validate(pkcs7: bytes, creationDate: creation, now: today, extraRoots: [root])
        #expect(status(anchored, .chain) == .passed)
        #expect(anchored.anchor == .appleIncRoot)
        #expect(anchored.anchorSuppliedByUser)
        #expect(status(anchored, .time) == .passed)
        #expect(status(anchored, .receiptSigner)?.isFailed == true)
        #expect(status(anchored, .receiptSigner) == status(bare, .receiptSigner))
        #expect(!anchored.isAppStoreValid)
    }

    @Test("A truncated receipt gives a clean not-checked report",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage))
    func truncated() throws {
        let bytes = try ValidationCorpus.bytes(ValidationCorpus.truncated)
        #expect(bytes.count == 456)
        let report = SignatureValidation.validate(pkcs7: bytes, creationDate: nil, now: today)
        #expect(report.steps.map(\.id) == StepID.openSSL)
        #expect(status(report, .signature) == .notChecked(.notPKCS7(inputTruncated: true)))
        #expect(report.step(.signature)?.details.first?.contains("only 452 follow") == true)
        for id in [StepID.chain, .time, .receiptSigner] {
            #expect(status(report, id) == .notChecked(.noSignedData(.notPKCS7(inputTruncated: true))))
        }
        #expect(report.certificates.isEmpty)
        #expect(report.passesToday == nil)
        #expect(!report.isAppStoreValid)
    }

    // MARK: trust anchors

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
        #expect(junk.step(.chain)?.details.first?.hasPrefix("--root #1 ignored") == true)
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
        #expect(report.step(.chain)?.details.last?.contains("supplied with --root, also embedded in the receipt") == true)
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
          .enabled(if: OpenSSLCLI.available, "the openssl command line is needed to make a certificate"))
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
          .enabled(if: OpenSSLCLI.available, "the openssl command line is needed to make a signed PKCS#7"))
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

    // MARK: tampering and garbage

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

    // MARK: certificate files

    @Test("Certificate files that are neither DER nor PEM are rejected with a reason")
    func badCertificateFiles() {
        #expect(throws: CertificateParseError.self) { try CertificateInfo.parseCertificates(fileBytes: []) }
        #expect(throws: CertificateParseError.self) { try CertificateInfo.parseCertificates(fileBytes: Array("hello".utf8)) }
        #expect(throws: CertificateParseError.self) {
            try CertificateInfo.parseCertificates(fileBytes: Array("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8))
        }
        #expect(CertificateInfo(der: [0x30, 0x03, 0x02, 0x01, 0x01]) == nil)
    }

    // MARK: digests and device hash

    @Test("SHA-1 and SHA-256 test vectors")
    func digests() {
        let abc = Array("abc".utf8)
        #expect(Digest.hex(Digest.sha1(abc)) == "A9993E364706816ABA3E25717850C26C9CD0D89D")
        #expect(Digest.hex(Digest.sha256(abc)) == "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD")
        #expect(Digest.hex(Digest.sha1([])) == "DA39A3EE5E6B4B0D3255BFEF95601890AFD80709")
    }

    @Test("Device identifiers: UUID and MAC address forms, clear errors otherwise")
    func deviceIdentifiers() throws {
        let mac = try DeviceIdentifier.parse("6c:40:08:b5:94:5e")
        #expect(mac.kind == .macAddress)
        #expect(mac.bytes == [0x6C, 0x40, 0x08, 0xB5, 0x94, 0x5E])
        #expect(try DeviceIdentifier.parse(" 6C-40-08-B5-94-5E\n") == mac)
        #expect(mac.description == "MAC address 6c:40:08:b5:94:5e")

        let uuid = try DeviceIdentifier.parse("3b76a7bd-8f5b-46a4-bcb1-cce8dbd1b3cd")
        #expect(uuid.kind == .identifierForVendor)
        #expect(uuid.bytes.count == 16)
        #expect(uuid.bytes.first == 0x3B && uuid.bytes.last == 0xCD)
        #expect(uuid.description == "identifierForVendor 3B76A7BD-8F5B-46A4-BCB1-CCE8DBD1B3CD")

        for bad in ["", "hello", "6c:40:08:b5:94", "6c:40-08:b5:94:5e", "6c:40:08:b5:94:5g",
                    "3B76A7BD8F5B46A4BCB1CCE8DBD1B3CD", "3B76A7BD-8F5B-46A4-BCB1-CCE8DBD1B3CZ", "3B76A7BD_8F5B_46A4_BCB1_CCE8DBD1B3CD"] {
            #expect(throws: DeviceIdentifierError.self, "\(bad)") { try DeviceIdentifier.parse(bad) }
        }
        do {
            _ = try DeviceIdentifier.parse("hello")
        } catch let error as DeviceIdentifierError {
            #expect(error.description.contains("neither an identifierForVendor UUID"))
        }
    }

    /// Byte ranges in the corpus files, found with
    /// `openssl asn1parse -inform DER -in FILE -strparse 58`: the payload OCTET STRING's header is at
    /// 58 with hl=4, so payload offset p is file offset 62 + p. Values are the OCTET STRING contents.
    struct DeviceHashFixture: Sendable, CustomTestStringConvertible {
        var file: String
        var device: String
        var opaque: Range<Int>  // attr 4 value
        var bundleIDTLV: Range<Int>  // attr 2 value (the UTF8String TLV)
        var hash: Range<Int>  // attr 5 value
        var testDescription: String { file }

        static let all: [DeviceHashFixture] = [
            // attr 4 at payload 204 (hl=2, l=16), attr 5 at 230 (l=20), attr 2 at 356 (l=26)
            .init(file: "production-macos-com.mindnode.MindNodePro-2016-02-12-0iap.receipt", device: "6c:40:08:b5:94:5e",
                  opaque: 268..<284, bundleIDTLV: 420..<446, hash: 294..<314),
            // attr 4 at payload 190 (l=16), attr 5 at 245 (l=20), attr 2 at 339 (l=28)
            .init(file: "sandbox-ios-com.mindnode.mindnodetouch-2017-09-11-0iap.receipt", device: "3B76A7BD-8F5B-46A4-BCB1-CCE8DBD1B3CD",
                  opaque: 254..<270, bundleIDTLV: 403..<431, hash: 309..<329),
        ]
    }

    @Test("Device hash of the known devices matches attribute 5; a wrong device fails",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage),
          arguments: DeviceHashFixture.all)
    func deviceHash(_ fixture: DeviceHashFixture) throws {
        let bytes = try ValidationCorpus.receipt(fixture.file)
        let opaque = Array(bytes[fixture.opaque])
        let bundle = Array(bytes[fixture.bundleIDTLV])
        let expected = Array(bytes[fixture.hash])
        #expect(bundle.first == 0x0C, "attribute 2's value is a UTF8String TLV")
        let device = try DeviceIdentifier.parse(fixture.device)

        #expect(DeviceHash.compute(deviceID: device.bytes, opaque: opaque, bundleIDTLV: bundle) == expected)
        let step = DeviceHash.step(device: device, opaque: opaque, bundleIDTLV: bundle, expected: expected)
        #expect(step.id == .deviceHash)
        #expect(step.status == .passed)
        #expect(step.details.count == 6)
        #expect(step.details[0].contains("(\(device.bytes.count) bytes)"))
        #expect(step.details[1].contains("(16 bytes)"))
        #expect(step.details[2].contains("(\(bundle.count) bytes)"))
        #expect(step.details[3] == "concatenation: \(device.bytes.count) + 16 + \(bundle.count) = \(device.bytes.count + 16 + bundle.count) bytes")
        #expect(step.details[4] == "computed SHA-1: \(ValidationHex.upper(expected, separator: " "))")

        var wrong = device
        wrong.bytes[0] ^= 0xFF
        let failed = DeviceHash.step(device: wrong, opaque: opaque, bundleIDTLV: bundle, expected: expected)
        #expect(failed.status.isFailed)
        #expect(failed.status == .failed(.deviceHashMismatch(device: "\(wrong)")))

        let other = try DeviceIdentifier.parse(fixture.device.count == 17 ? "3B76A7BD-8F5B-46A4-BCB1-CCE8DBD1B3CD" : "6c:40:08:b5:94:5e")
        #expect(DeviceHash.step(device: other, opaque: opaque, bundleIDTLV: bundle, expected: expected).status.isFailed)
    }

    @Test("Device hash step without inputs is not checked")
    func deviceHashNotChecked() throws {
        let none = DeviceHash.step(device: nil, opaque: [1], bundleIDTLV: [2], expected: [3])
        #expect(none.status == .notChecked(.notGiven(.deviceID)))
        let mac = try DeviceIdentifier.parse("6c:40:08:b5:94:5e")
        let missing = DeviceHash.step(device: mac, opaque: nil, bundleIDTLV: [0x0C, 0x00], expected: nil)
        #expect(missing.status == .notChecked(.missingAttributes([4, 5])))
        #expect(StepText.plain.reason(missing.status) == "the receipt has no opaque value (attribute 4), SHA-1 hash (attribute 5)")
    }
}

