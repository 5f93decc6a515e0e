import Foundation
import DocumentCore
import Testing
import TestSupport
@testable import ReceiptKit

// Signature, chain, time and receipt-signer validation against the real corpus in ../shared/corpus
// (facts from its MANIFEST.md), plus the device hash and certificate helpers. Tests that need the
// corpus or the `openssl` command line are disabled with a message when they are missing.

// MARK: - fixtures

enum ValidationCorpus {
    static let directory = Paths.corpus
    static var available: Bool { Paths.corpusAvailable }

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
let today = ISO8601DateFormatter().date(from: "2026-01-15T12:00:00Z")!

func status(_ report: SignatureReport, _ id: StepID) -> StepStatus? { report.step(id)?.status }

func pem(_ der: [UInt8]) -> [UInt8] {
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
    static let available: Bool = OpenSSLTool.path != nil

    @discardableResult
    static func run(_ arguments: [String], in directory: URL) throws -> String {
        guard let tool = OpenSSLTool.path else { throw CLIError(message: OpenSSLTool.missingReason) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
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
