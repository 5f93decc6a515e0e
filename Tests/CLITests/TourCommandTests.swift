import Foundation
import Testing
import TestSupport

/// `tour --print` on every sample and corpus file, the device-hash stop with a device id, and what
/// the signature covers when a SignerInfo has signed attributes.
@Suite struct TourCommandTests {
    /// The stops of a `tour --print` text: each stop's lines, its title line first.
    static func stops(_ text: String) -> [[String]] {
        text.components(separatedBy: "\n\n").map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
            .filter { $0.first?.hasPrefix("Step ") == true }
    }

    /// Runs `tour FILE --print` and checks: exit 0, no stderr, at least one stop, and a self-check in
    /// every run of three stops (in the whole tour when it is shorter).
    static func expectTour(_ path: String) throws {
        let result = try runCLI(["tour", path, "--print"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(path): \(result.status) \(result.stderr)")
        let stops = Self.stops(result.stdout)
        #expect(!stops.isEmpty, "\(path)")
        let checked = stops.map { $0.contains { $0.hasPrefix("  check: ") } }
        for i in checked.indices where i >= 2 || i == checked.count - 1 {
            #expect(checked[max(0, i - 2)...i].contains(true), "\(path): no self-check in stops \(max(0, i - 2) + 1)-\(i + 1)")
        }
        #expect(stops.allSatisfy { $0[0].hasSuffix("/\(stops.count)") || $0[0].contains("/\(stops.count):") }, "\(path)")
    }

    static func files(in directory: URL, where keep: (URL) -> Bool) -> [URL] {
        let names = (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String]) ?? []
        return names.map { directory.appendingPathComponent($0) }
            .filter { url in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue && keep(url)
            }
            .sorted { $0.path < $1.path }
    }

    @Test func everySampleTours() throws {
        let samples = Self.files(in: Paths.samples) { !["md", "key", "p8"].contains($0.pathExtension) && $0.lastPathComponent != "manifest.json" }
        #expect(samples.count >= 70)
        for url in samples { try Self.expectTour(url.path) }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: Paths.receipts.path))) func everyCorpusReceiptTours() throws {
        let receipts = Self.files(in: Paths.receipts) { $0.pathExtension == "receipt" }
        #expect(!receipts.isEmpty)
        for url in receipts { try Self.expectTour(url.path) }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: Paths.certs.path))) func everyCorpusCertificateTours() throws {
        let certificates = Self.files(in: Paths.certs) { $0.pathExtension == "cer" }
        #expect(!certificates.isEmpty)
        for url in certificates {
            try Self.expectTour(url.path)
            let text = try runCLI(["tour", url.path, "--print"]).stdout
            #expect(text.contains("Step 2/11: tbsCertificate: the bytes the issuer signs"), "\(url.lastPathComponent)")
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: Paths.jws.path))) func everyCorpusTokenTours() throws {
        let tokens = Self.files(in: Paths.jws) { $0.pathExtension == "jws" }
        #expect(!tokens.isEmpty)
        for url in tokens { try Self.expectTour(url.path) }
    }

    // MARK: - the device hash

    static let device = "A1B2C3D4-E5F6-4789-9ABC-DEF012345678"   // samples/README.md: the samples' device
    static let deviceBytes: [UInt8] = DER.hex("A1B2C3D4E5F647899ABCDEF012345678")

    /// The hex after `prefix` on the stop's line, as bytes.
    static func hexBytes(_ stop: [String], _ prefix: String) throws -> [UInt8] {
        let line = try #require(stop.first { $0.hasPrefix(prefix) }, "no line \(prefix)")
        let hex = line.dropFirst(prefix.count).prefix { $0 != "(" }.filter { $0 != " " }
        return DER.hex(String(hex))
    }

    static func sha1(_ bytes: [UInt8]) throws -> [UInt8] {
        let openssl = try #require(OpenSSLTool.path, "openssl computes the expected SHA-1")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tour-device-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(bytes).write(to: file)
        let out = try runTool(openssl, ["dgst", "-sha1", "-hex", file.path]).output
        return DER.hex(String(try #require(out.split(separator: "=").last)).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    @Test(.enabled(if: OpenSSLTool.path != nil, Comment(rawValue: OpenSSLTool.missingReason))) func deviceHashStopComputesAndMatches() throws {
        let result = try runCLI(["tour", Paths.samples.appendingPathComponent("typical.receipt").path, "--print", "--device-id", Self.device])
        #expect(result.status == 0)
        let stop = try #require(Self.stops(result.stdout).last)
        #expect(stop[0] == "Step 17/17: The device hash (attribute 5)")
        // The inputs the stop shows are the receipt's own bytes …
        let receipt = try Paths.sample("typical.receipt")
        let opaque = try Self.hexBytes(stop, "  input: opaque value, attribute 4: ")
        let bundle = try Self.hexBytes(stop, "  input: bundle id, attribute 2's value bytes, the UTF8String's tag and length included: ")
        let expected = try Self.hexBytes(stop, "  expected: attribute 5: ")
        #expect(opaque.count == 16 && bundle == [0x0C, 0x1B] + Array("com.example.receiptexplorer".utf8) && expected.count == 20)
        #expect(Self.contains(receipt, [0x04, 0x10] + opaque) && Self.contains(receipt, [0x04, 0x14] + expected))
        // … and OpenSSL's SHA-1 of device ‖ opaque ‖ bundle is the computed line and attribute 5.
        let sha1 = try Self.sha1(Self.deviceBytes + opaque + bundle)
        #expect(try Self.hexBytes(stop, "  computed: SHA-1(device ‖ opaque value ‖ bundle id) = ") == sha1)
        #expect(sha1 == expected)
        #expect(stop.contains("  device: identifierForVendor \(Self.device): A1 B2 C3 D4 E5 F6 47 89 9A BC DE F0 12 34 56 78 (16 bytes)"))
        #expect(stop.contains("  verdict: it matches attribute 5: this receipt was issued to this device for this app"))
        #expect(stop.contains("  check: With this identifierForVendor (16 bytes), how many bytes go into SHA-1? [a] 59  [b] 45  [c] 61"))
        #expect(stop.contains("  answer: [c]"))
        #expect(stop.contains("  [a] not quite: the bundle id goes in as attribute 2's value bytes: the UTF8String's 2 tag and length octets too, not the 27 characters alone"))
    }

    @Test(.enabled(if: OpenSSLTool.path != nil, Comment(rawValue: OpenSSLTool.missingReason))) func anotherDeviceDoesNotMatch() throws {
        let other = "0A1B2C3D-E5F6-4789-9ABC-DEF012345678"
        let stop = try #require(Self.stops(try runCLI(["tour", Paths.samples.appendingPathComponent("typical.receipt").path, "--print", "--device-id", other]).stdout).last)
        let opaque = try Self.hexBytes(stop, "  input: opaque value, attribute 4: ")
        let bundle = try Self.hexBytes(stop, "  input: bundle id, attribute 2's value bytes, the UTF8String's tag and length included: ")
        #expect(try Self.hexBytes(stop, "  computed: SHA-1(device ‖ opaque value ‖ bundle id) = ") == (try Self.sha1(DER.hex("0A1B2C3DE5F647899ABCDEF012345678") + opaque + bundle)))
        #expect(stop.contains("  verdict: it does not match attribute 5: the receipt was issued to another device (or its opaque value or bundle id were changed)"))
    }

    @Test func withoutADeviceTheStopSaysWhatIsNeeded() throws {
        let stop = try #require(Self.stops(try runCLI(["tour", Paths.samples.appendingPathComponent("typical.receipt").path, "--print"]).stdout).last)
        #expect(stop.contains("  device: none given: run `receipt-explorer tour FILE --device-id UUID` (or `receipt-explorer FILE --device-id UUID`, then t) with the device's identifierForVendor (a Mac's MAC address) to compute the hash here; the receipt never holds it"))
        #expect(!stop.contains { $0.hasPrefix("  computed:") || $0.hasPrefix("  verdict:") })
    }

    @Test func deviceIDIsRefusedWhereItCannotApply() throws {
        let token = try runCLI(["tour", Paths.samples.appendingPathComponent("jws/transaction.jws").path, "--print", "--device-id", Self.device])
        #expect(token.status == 2 && token.stdout.isEmpty)
        #expect(token.stderr == "receipt-explorer: --device-id: transaction.jws is a StoreKit 2 transaction, not an app receipt; only a receipt's attribute 5 is a device hash\n")
        let bad = try runCLI(["tour", Paths.samples.appendingPathComponent("typical.receipt").path, "--print", "--device-id", "not-a-device"])
        #expect(bad.status == 2 && bad.stderr.hasPrefix("receipt-explorer: --device-id: 'not-a-device' is neither"))
    }

    // MARK: - signed attributes

    /// typical.receipt's payload signed again by OpenSSL with signed attributes (App Store receipts
    /// have none): the stop names them and asks which tag is hashed.
    @Test(.enabled(if: OpenSSLTool.path != nil, Comment(rawValue: OpenSSLTool.missingReason))) func signedAttributesAreWhatTheSignatureCovers() throws {
        let openssl = try #require(OpenSSLTool.path)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tour-cms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let receipt = try Paths.sample("typical.receipt")
        let payload = Array(receipt[64..<4206])   // manifest: the eContent at 64, 4,142 bytes
        try Data(payload).write(to: dir.appendingPathComponent("payload.der"))
        let pki = Paths.samples.appendingPathComponent("pki")
        let signed = dir.appendingPathComponent("signed.receipt")
        let made = try runTool(openssl, ["cms", "-sign", "-binary", "-nodetach", "-outform", "DER", "-md", "sha256",
                                         "-in", dir.appendingPathComponent("payload.der").path,
                                         "-signer", pki.appendingPathComponent("test-receipt-signer.pem").path,
                                         "-inkey", pki.appendingPathComponent("test-only-receipt-signer.key").path, "-out", signed.path])
        try #require(made.status == 0)
        let result = try runCLI(["tour", signed.path, "--print"])
        #expect(result.status == 0)
        let stop = try #require(Self.stops(result.stdout).first { $0[0].contains("What the signature covers") })
        #expect(stop[0].hasSuffix("What the signature covers: the signed attributes"))
        #expect(stop.contains("  check: The signer hashes these attributes as a SET OF: which octet comes first in what it hashes? [a] A0  [b] 30  [c] 31"))
        #expect(stop.contains("  answer: [c]"))
        #expect(stop.contains("  attribute: contentType: data"))
        // messageDigest is the payload's SHA-256, computed here by OpenSSL.
        let digest = try runTool(openssl, ["dgst", "-sha256", "-hex", dir.appendingPathComponent("payload.der").path]).output
        let hex = String(try #require(digest.split(separator: "=").last)).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try Self.hexBytes(stop, "  attribute: messageDigest: ") == DER.hex(hex))
    }
}
