import Foundation
import Testing
import TestSupport
@testable import ASN1Lenient
@testable import ByteText
@testable import TextLoader

/// Input detection and decoding: every encoding with exact notes and byte counts, and every
/// failure as one precise line.
@Suite struct InputLoaderTests {
    static let samples = Paths.samples

    /// samples/typical.receipt (committed), or nil when the samples are not there.
    static func typical() -> [UInt8]? {
        (try? Data(contentsOf: samples.appendingPathComponent("typical.receipt"))).map { Array($0) }
    }

    /// A real receipt from ../shared/corpus, or typical.receipt when the corpus is absent.
    static func realReceipt() -> [UInt8]? {
        let corpus = Paths.receipts.appendingPathComponent("production-net.shinyfrog.bear-2019-09-26-1iap.receipt")
        if let data = try? Data(contentsOf: corpus) { return Array(data) }
        return typical()
    }

    static let tiny: [UInt8] = [0x30, 0x03, 0x02, 0x01, 0x05]

    func decode(_ text: String, name: String = "t.txt") throws -> LoadedInput {
        try InputLoader.decode(Array(text.utf8), name: name)
    }

    func failure(_ text: String, name: String = "t.txt") -> String? {
        failure(Array(text.utf8), name: name)
    }

    func failure(_ raw: [UInt8], name: String = "t.txt") -> String? { decodeError(raw, name: name) }

    /// Expected base64 character count (padded) for `n` bytes, grouped.
    func characters(_ n: Int) -> String { NumberText.grouped((n + 2) / 3 * 4) }

    // MARK: Raw

    @Test func rawDERIsPassedThrough() throws {
        let loaded = try InputLoader.decode(Self.tiny, name: "tiny.der")
        #expect(loaded.encoding == .binary)
        #expect(loaded.bytes == Self.tiny)
        #expect(loaded.name == "tiny.der")
        #expect(loaded.note == "raw DER/BER, 5 bytes")
    }

    @Test func realReceiptIsRaw() throws {
        let raw = try #require(Self.realReceipt())
        let loaded = try InputLoader.decode(raw, name: "r.receipt")
        #expect(loaded.encoding == .binary)
        #expect(loaded.bytes == raw)
        #expect(loaded.note == "raw DER/BER, \(NumberText.grouped(raw.count)) bytes")
    }

    @Test func randomBinaryIsRaw() throws {
        var generator = SystemRandomNumberGenerator()
        let raw = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(try InputLoader.decode(raw, name: "x").encoding == .binary)
    }

    // MARK: Base64

    @Test func base64OnOneLine() throws {
        let loaded = try decode("MAMCAQU=")
        #expect(loaded.encoding == .base64)
        #expect(loaded.bytes == Self.tiny)
        #expect(loaded.note == "decoded from base64: 8 characters → 5 bytes")
    }

    @Test func base64WithoutPaddingAndURLSafe() throws {
        #expect(try decode("MAMCAQU").bytes == Self.tiny)
        #expect(try decode("MAMCAQU").note == "decoded from base64: 7 characters → 5 bytes")
        let url = try decode("-_-_")
        #expect(url.bytes == [0xFB, 0xFF, 0xBF])
        #expect(url.note == "decoded from base64url: 4 characters → 3 bytes")
    }

    @Test func base64AsPastedFromLogs() throws {
        let raw = try #require(Self.realReceipt())
        let encoded = Data(raw).base64EncodedString(options: [.lineLength64Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        let loaded = try decode("\n\t  " + encoded + "  \r\n\n", name: "log.txt")
        #expect(loaded.encoding == .base64)
        #expect(loaded.bytes == raw)
        #expect(loaded.note == "decoded from base64: \(characters(raw.count)) characters → \(NumberText.grouped(raw.count)) bytes")
        #expect(loaded.name == "log.txt")
    }

    @Test func base64OfTypicalHasExactNote() throws {
        let raw = try #require(Self.typical())
        let loaded = try decode(Data(raw).base64EncodedString())
        #expect(loaded.bytes == raw)
        if raw.count == 7686 {
            #expect(loaded.note == "decoded from base64: 10,248 characters → 7,686 bytes")
        }
    }

    @Test func strayCharacterIsReportedWithItsPosition() {
        var lines = Array(repeating: String(repeating: "A", count: 76), count: 11)
        lines.append("AAAA#AAA")
        let text = lines.joined(separator: "\n")
        // 11 lines of 76 characters plus 11 line breaks: '#' is at 11 * 77 + 4 = 851.
        #expect(failure(text, name: "log.txt") == "cannot decode 'log.txt': base64: unexpected character '#' at text offset 851 (line 12, column 5)")
    }

    @Test func strayCharacterPastAThousandUsesSeparators() {
        let text = String(repeating: "A", count: 1234) + "!" + String(repeating: "A", count: 100)
        #expect(failure(text) == "cannot decode 't.txt': base64: unexpected character '!' at text offset 1,234 (line 1, column 1,235)")
    }

    @Test func nonASCIIAndControlStraysAreNamed() {
        #expect(failure("AAAAé" + String(repeating: "A", count: 60)) == "cannot decode 't.txt': base64: unexpected character U+00E9 'é' at text offset 4 (line 1, column 5)")
        var raw = Array(repeating: UInt8(ascii: "Q"), count: 80)
        raw[40] = 0x00
        #expect(failure(raw) == "cannot decode 't.txt': base64: unexpected byte 0x00 at text offset 40 (line 1, column 41)")
        raw[40] = 0xFF
        #expect(failure(raw) == "cannot decode 't.txt': base64: unexpected byte 0xFF (not UTF-8) at text offset 40 (line 1, column 41)")
        #expect(failure("AAAA\u{202E}AAAA" + String(repeating: "A", count: 60)) == "cannot decode 't.txt': base64: unexpected character U+202E at text offset 4 (line 1, column 5)")
    }

    /// `InputError.message` is printed as it is, so a hostile file name is escaped where it is
    /// inserted, exactly once.
    @Test func fileNameInAMessageIsEscapedOnce() {
        #expect(failure([], name: "a\u{1B}[2J\u{202E}b") == "'a\\x1b[2J\\u{202E}b' is empty (0 bytes)")
        #expect(failure("   ", name: "c\u{07}") == "'c\\x07' contains only whitespace (3 bytes)")
    }

    @Test func paddingErrors() {
        #expect(failure("MAMC=AQU") == "cannot decode 't.txt': base64: unexpected '=' padding after 0 character(s) of a group of four at text offset 4 (line 1, column 5)")
        #expect(failure("MAMCAQ==AAAA") == "cannot decode 't.txt': base64: unexpected character 'A' after the '=' padding at text offset 8 (line 1, column 9)")
        #expect(failure("MAMCA") == "cannot decode 't.txt': base64: the text ends with an incomplete group: 1 character cannot encode a byte at text offset 5 (line 1, column 6)")
    }

    // MARK: PEM

    func pem(_ raw: [UInt8], label: String) -> String {
        "-----BEGIN \(label)-----\n" + Data(raw).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed]) + "\n-----END \(label)-----\n"
    }

    @Test(arguments: ["PKCS7", "CMS", "CERTIFICATE"])
    func pemArmour(_ label: String) throws {
        let raw = try #require(Self.realReceipt())
        let loaded = try decode("Some text before the block\n" + pem(raw, label: label), name: "r.pem")
        #expect(loaded.encoding == .pem)
        #expect(loaded.bytes == raw)
        #expect(loaded.note == "decoded from PEM (\(label)): \(characters(raw.count)) base64 characters → \(NumberText.grouped(raw.count)) bytes")
    }

    @Test func pemHeadersAndSecondBlock() throws {
        let text = "-----BEGIN PKCS7-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: none\n\nMAMCAQU=\n-----END PKCS7-----\n" + pem([0x05, 0x00], label: "PKCS7")
        let loaded = try decode(text)
        #expect(loaded.bytes == Self.tiny)
        #expect(loaded.note == "decoded from PEM (PKCS7): 8 base64 characters → 5 bytes (first of 2 PEM blocks)")
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(try InputLoader.decode(bom + Array("MAMCAQU=\n".utf8), name: "b").bytes == Self.tiny)
        #expect(try InputLoader.decode(bom + Array("-----BEGIN CMS-----\nMAMCAQU=\n-----END CMS-----\n".utf8), name: "p").bytes == Self.tiny)
        #expect(try InputLoader.decode(bom + Array("{\"receipt-data\": \"MAMCAQU=\"}".utf8), name: "j").bytes == Self.tiny)
    }

    @Test func pemCRLF() throws {
        let loaded = try decode("-----BEGIN CMS-----\r\nMAMC\r\nAQU=\r\n-----END CMS-----\r\n")
        #expect(loaded.bytes == Self.tiny)
    }

    @Test func pemErrors() {
        #expect(failure("-----BEGIN PKCS7-----\nMAMCAQU=\n", name: "r.pem") == "cannot decode 'r.pem': PEM: '-----BEGIN PKCS7-----' at line 1 has no matching '-----END PKCS7-----' line")
        #expect(failure("x\n-----BEGIN PKCS7-----\nMAMC\nAQ*U=\n-----END PKCS7-----\n", name: "r.pem") == "cannot decode 'r.pem': PEM PKCS7: base64: unexpected character '*' at text offset 31 (line 4, column 3)")
    }

    // MARK: verifyReceipt JSON

    @Test func verifyReceiptBody() throws {
        let raw = try #require(Self.realReceipt())
        let b64 = Data(raw).base64EncodedString().replacingOccurrences(of: "/", with: "\\/")
        let loaded = try decode("{\"password\": \"secret\", \"receipt-data\": \"\(b64)\", \"exclude-old-transactions\": true}", name: "body.json")
        #expect(loaded.encoding == .verifyReceiptJSON)
        #expect(loaded.bytes == raw)
        #expect(loaded.note == "decoded from verifyReceipt JSON (\"receipt-data\"): \(characters(raw.count)) base64 characters → \(NumberText.grouped(raw.count)) bytes")
    }

    @Test func verifyReceiptErrors() {
        #expect(failure("{\"receipt\": \"MAMCAQU=\", \"status\": 0}", name: "b.json") == "cannot decode 'b.json': the JSON has no \"receipt-data\" field (its keys are \"receipt\", \"status\"); expected a verifyReceipt request body {\"receipt-data\": \"<base64>\"}")
        #expect(failure("{\"receipt-data\": 42}", name: "b.json") == "cannot decode 'b.json': \"receipt-data\" is a number, not a base64 string")
        #expect(failure("{\"receipt-data\": \"MAMC AQU=\\n\"}", name: "b.json") == nil)
        #expect(failure("{\"receipt-data\": \"MAMC%AQU=\"}", name: "b.json") == "cannot decode 'b.json': \"receipt-data\" is not base64: base64: unexpected character '%' at text offset 4 (line 1, column 5)")
        #expect(failure("{\"receipt-data\": ", name: "b.json")?.hasPrefix("cannot decode 'b.json': it starts with '{' but is not valid JSON") == true)
        #expect(failure("{}", name: "b.json") == "cannot decode 'b.json': the JSON has no \"receipt-data\" field (it has no keys); expected a verifyReceipt request body {\"receipt-data\": \"<base64>\"}")
    }

    // MARK: Committed samples in every encoding

    @Test(arguments: [("typical.b64", InputEncoding.base64), ("typical.pem", .pem), ("typical.json", .verifyReceiptJSON)])
    func committedEncodedSamplesDecodeToTypical(_ file: String, _ encoding: InputEncoding) throws {
        let raw = try Paths.sample("typical.receipt")
        let loaded = try InputLoader.load(path: Self.samples.appendingPathComponent(file).path)
        #expect(loaded.encoding == encoding)
        #expect(loaded.bytes == raw)
        #expect(loaded.name == file)
        #expect(loaded.note.hasSuffix("\(characters(raw.count))\(encoding == .base64 ? "" : " base64") characters → \(NumberText.grouped(raw.count)) bytes"), "\(loaded.note)")
    }

    // MARK: Files

    func loadFailure(_ path: String) -> String? {
        do {
            _ = try InputLoader.load(path: path)
            return nil
        } catch {
            return (error as? InputError)?.message ?? "\(error)"
        }
    }

    func temporary(_ bytes: [UInt8], _ name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("input-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test func fileErrorsAreOneClearLine() throws {
        #expect(loadFailure("/nonexistent/dir/x.receipt") == "cannot read '/nonexistent/dir/x.receipt': No such file or directory")
        #expect(loadFailure("/tmp") == "cannot read '/tmp': it is a directory")
        #expect(loadFailure(try temporary([], "empty.receipt")) == "'empty.receipt' is empty (0 bytes)")
        #expect(loadFailure(try temporary(Array(" \n\t\n".utf8), "blank.txt")) == "'blank.txt' contains only whitespace (4 bytes)")
    }

    @Test(.enabled(if: getuid() != 0, "root reads anything"))
    func unreadableFile() throws {
        let path = try temporary(Self.tiny, "secret.der")
        chmod(path, 0)
        #expect(loadFailure(path) == "cannot read '\(path)': Permission denied")
    }

    @Test func loadUsesTheFileName() throws {
        let path = try temporary(Self.tiny, "tiny.der")
        let loaded = try InputLoader.load(path: path)
        #expect(loaded.name == "tiny.der")
        #expect(loaded.bytes == Self.tiny)
    }

    // MARK: The decoder itself

    @Test func base64DecoderRoundTripsEveryLength() throws {
        for n in 0..<70 {
            let raw = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let text = Array(Data(raw).base64EncodedString().utf8)
            if n == 0 {
                #expect(Base64Text.decode(text) == .failure(Base64Text.Failure(offset: 0, problem: "no base64 characters")))
                continue
            }
            guard case .success(let decoded) = Base64Text.decode(text) else {
                Issue.record("length \(n) failed")
                continue
            }
            #expect(decoded.bytes == raw)
            #expect(decoded.characters == text.count)
        }
    }

    @Test func lineAndColumn() {
        let text = Array("ab\ncd\n\nef".utf8)
        #expect(Base64Text.lineAndColumn(text, offset: 0) == (1, 1))
        #expect(Base64Text.lineAndColumn(text, offset: 4) == (2, 2))
        #expect(Base64Text.lineAndColumn(text, offset: 7) == (4, 1))
    }
}
