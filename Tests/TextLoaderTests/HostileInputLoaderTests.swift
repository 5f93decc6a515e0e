import Foundation
import Testing
import TestSupport
@testable import ASN1Lenient
@testable import TextLoader
@testable import TextOutput

/// Hostile inputs at the library level: every fuzzer finding replayed, absurd lengths and nesting,
/// and input loading failures with their exact one-line messages. The same cases through the
/// binary (exit status, peak memory) are in Tests/CLITests/HostileInputTests.swift.
@Suite struct HostileInputLoaderTests {
    static let regressions = Paths.packageRoot.appendingPathComponent("Fuzz/regressions")

    static func regressionFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: regressions.path)) ?? [])
            .filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted()
    }

    /// The invariants the fuzz targets assert (Fuzz/Sources/FuzzParse), as test expectations.
    static func expectInvariants(_ tree: Tree, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(tree.coverageViolations().isEmpty, "\(what): \(tree.coverageViolations())", sourceLocation: sourceLocation)
        for (i, node) in tree.nodes.enumerated() {
            #expect(node.end <= tree.bytes.count && Int(node.subtreeEnd) > i && Int(node.subtreeEnd) <= tree.count,
                    "\(what): node \(i)", sourceLocation: sourceLocation)
        }
        for d in tree.diagnostics {
            #expect(d.offset >= 0 && d.length >= 0 && d.offset + d.length <= tree.bytes.count, "\(what): \(d)",
                    sourceLocation: sourceLocation)
            if let n = d.node?.index { #expect(n < tree.count, "\(what): \(d)", sourceLocation: sourceLocation) }
        }
    }

    // MARK: Fuzzer findings

    @Test func everyFuzzRegressionFileExists() {
        // Guards the replay below against a moved directory silently testing nothing.
        #expect(Self.regressionFiles().count >= 2, "no files in \(Self.regressions.path)")
    }

    /// Each file in Fuzz/regressions/ is an input that once crashed or hung a fuzz target: it must
    /// load (or fail to load with an InputError), parse with every invariant intact, and render.
    @Test(arguments: regressionFiles())
    func fuzzRegressionParses(_ name: String) throws {
        let raw = Array(try Data(contentsOf: Self.regressions.appendingPathComponent(name)))
        let tree = ASN1Parser.parse(raw)
        Self.expectInvariants(tree, name)
        _ = TreeDump.render(tree)
        _ = OpenSSLDump.render(tree)
        _ = JSONDump.render(tree)
        if let loaded = try? InputLoader.decode(raw, name: name) {
            Self.expectInvariants(ASN1Parser.parse(loaded.bytes), name + " (decoded)")
        }
    }

    /// FuzzParse finding 1: an OCTET STRING whose content starts with a header claiming a length
    /// near Int.max overflowed `p + octets + value` in the encapsulation pre-check (a trap).
    @Test func encapsulationPrecheckDoesNotOverflow() {
        let tree = parse("04 0A 16 88 7F FF FF FF FF FF FF FF")
        Self.expectInvariants(tree, "overflow")
        #expect(tree.count == 1)  // not guessed as encapsulated: the inner length does not fit
        #expect(!tree[0].isEncapsulated)
        #expect(tree.diagnostics.isEmpty)
    }

    // MARK: Lengths and nesting

    @Test func lengthOfTwoToTheSixtyThree() {
        let tree = parse("04 88 80 00 00 00 00 00 00 00 41")
        Self.expectInvariants(tree, "2^63")
        #expect(tree.diagnostics.map(\.code) == [ParserCode.lengthOverflow.code])
        #expect(tree.diagnostics.first?.range == 1..<10)
        #expect(tree.diagnostics.first?.message == "a length of 9223372036854775808 is beyond any addressable size")
        #expect(tree[0].contentLength == 1)
    }

    @Test func moreLengthOctetsThanAnyMachineWord() {
        // 9 length octets (one more than a 64-bit word) and the maximum, 126.
        let nine = parse("04 89 01 00 00 00 00 00 00 00 00 41")
        #expect(nine.diagnostics.map(\.code) == [ParserCode.lengthTooManyOctets.code])
        #expect(nine.diagnostics.first?.range == 1..<11)
        let many = ASN1Parser.parse([0x04, 0xFE] + [UInt8](repeating: 0xFF, count: 126) + [0x41])
        Self.expectInvariants(many, "126 length octets")
        #expect(many.diagnostics.map(\.code) == [ParserCode.lengthTooManyOctets.code])
        #expect(many.diagnostics.first?.message == "126 length octets; at most 8 can be represented")
        #expect(many.diagnostics.first?.range == 1..<128)
    }

    @Test func claimedLengthNeverSizesAnAllocation() {
        // 16 bytes claiming 2^62 content octets: the node is clamped to the 6 bytes present.
        let tree = parse("04 88 40 00 00 00 00 00 00 00 41 42 43 44 45 46")
        #expect(tree.diagnostics.map(\.code) == [ParserCode.truncatedContent.code])
        #expect(tree[0].contentLength == 6)
        #expect(tree.nodes.capacity < 1_000)
    }

    @Test func aMillionNestedIndefiniteHeaders() {
        let input: [UInt8] = (0..<2_000_000).map { $0 % 2 == 0 ? 0x30 : 0x80 }
        let tree = ASN1Parser.parse(input)
        Self.expectInvariants(tree, "nested")
        // 257 SEQUENCEs (depth 0...256), then one unparsed region holding the rest.
        #expect(tree.count == 258)
        #expect(tree[257].kind == NodeKind.unparsed)
        #expect(tree[257].contentLength == 2_000_000 - 514)
        let codes = Dictionary(grouping: tree.diagnostics, by: { $0.code }).mapValues { $0.count }
        // The innermost SEQUENCE's content is not parsed, so whether it has an end-of-contents
        // marker is unknown: no missing-eoc for it, only nesting-too-deep.
        #expect(codes == [ParserCode.indefiniteLength.code: 257, ParserCode.missingEOC.code: 256, ParserCode.nestingTooDeep.code: 1])
    }

    @Test func aMillionNestedDefiniteHeaders() {
        // SEQUENCE { SEQUENCE { ... } } with exact 4-octet lengths: 6 bytes per level.
        let levels = 1_000_000
        var input = [UInt8](repeating: 0, count: levels * 6)
        for level in 0..<levels {
            let length = (levels - level - 1) * 6
            input.replaceSubrange(level * 6..<level * 6 + 6,
                                  with: [0x30, 0x84, UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)])
        }
        let tree = ASN1Parser.parse(input)
        Self.expectInvariants(tree, "nested definite")
        #expect(tree.count == 258)
        let codes = Dictionary(grouping: tree.diagnostics, by: { $0.code }).mapValues { $0.count }
        // Each 0x84 length is non-minimal for lengths below 2^24 (the innermost ones).
        #expect(codes[ParserCode.nestingTooDeep.code] == 1)
        #expect(codes[ParserCode.lengthNotMinimal.code] == 257)
        #expect(codes.keys.sorted() == [ParserCode.lengthNotMinimal.code, ParserCode.nestingTooDeep.code])
    }

    // MARK: Input loading

    static func loadError(_ raw: [UInt8], name: String = "input") -> String? { decodeError(raw, name: name) }

    static func loadError(path: String) -> String? {
        do {
            _ = try InputLoader.load(path: path)
            return nil
        } catch let error as InputError {
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func base64WithAStrayCharacter() throws {
        var text = Array(try Data(contentsOf: Paths.samples.appendingPathComponent("typical.b64")))
        // Line 12 (1-based), column 5: 11 full lines of 76 characters + newline before it.
        let offset = 11 * 77 + 4
        text[offset] = UInt8(ascii: "#")
        #expect(Self.loadError(text, name: "typical.b64")
                == "cannot decode 'typical.b64': base64: unexpected character '#' at text offset 851 (line 12, column 5)")
        // A stray ESC is described, never echoed raw.
        text[offset] = 0x1B
        let message = try #require(Self.loadError(text, name: "typical.b64"))
        #expect(!message.utf8.contains(0x1B))
    }

    @Test func jsonWhoseReceiptDataIsNotBase64() {
        let body = Array(#"{"receipt-data": "MIIT!!AA", "password": "x"}"#.utf8)
        #expect(Self.loadError(body, name: "body.json")
                == "cannot decode 'body.json': \"receipt-data\" is not base64: base64: unexpected character '!' at text offset 4 (line 1, column 5)")
        let number = Array(#"{"receipt-data": 12}"#.utf8)
        #expect(Self.loadError(number, name: "body.json") == "cannot decode 'body.json': \"receipt-data\" is a number, not a base64 string")
    }

    @Test func emptyFile() throws {
        #expect(Self.loadError([], name: "empty.bin") == "'empty.bin' is empty (0 bytes)")
    }

    /// Tests run as root, so permission bits stop nothing. /proc/self/mem opens for reading but
    /// every read at offset 0 (an unmapped address) fails with EIO, for root too.
    @Test(.enabled(if: Host.hasProcFS, "needs /proc/self/mem"))
    func unreadableFile() {
        #expect(Self.loadError(path: "/proc/self/mem") == "cannot read '/proc/self/mem': Input/output error")
    }

    @Test func directoryAndMissingPath() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-loader-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(Self.loadError(path: dir.path) == "cannot read '\(dir.path)': it is a directory")
        let missing = dir.appendingPathComponent("missing.receipt").path
        #expect(Self.loadError(path: missing) == "cannot read '\(missing)': No such file or directory")
        // A path through a regular file: ENOTDIR, also for root.
        let file = dir.appendingPathComponent("plain")
        try Data([0x05, 0x00]).write(to: file)
        #expect(Self.loadError(path: file.path + "/x") == "cannot read '\(file.path)/x': Not a directory")
    }
}

/// The per-code diagnostic cap that keeps memory proportional to the input for inputs made of
/// millions of tiny defective elements (100 MB of zero bytes = 50 million stray end-of-contents).
@Suite struct HostileDiagnosticCapTests {
    /// A SEQUENCE whose 100,000 content bytes are zeros: 50,000 stray end-of-contents children
    /// (at the top level, bytes after the first element that do not read cleanly become one
    /// unparsed region instead, so plain zeros no longer make millions of nodes).
    static func wrappedZeros(_ count: Int) -> [UInt8] {
        [0x30, 0x83, UInt8(count >> 16), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)] + [UInt8](repeating: 0, count: count)
    }

    @Test func zeroBytesAreCappedPerCodeWithASummary() {
        let tree = ASN1Parser.parse(Self.wrappedZeros(100_000))
        HostileInputLoaderTests.expectInvariants(tree, "zeros")
        #expect(tree.count == 50_001)
        let stray = tree.diagnostics.filter { $0.code == ParserCode.strayEOC.code }
        #expect(stray.count == 10_001)
        let summary = stray.last
        #expect(summary?.range == 20_005..<20_007)
        #expect(summary?.node == NodeIndex(10_001))
        #expect(summary?.severity == .error)
        #expect(summary?.message == "40000 more stray-eoc diagnostic(s) not listed (at most 10000 per code); the first not listed: an end-of-contents marker outside any indefinite-length element")
    }

    /// Findings worded alike share one message's storage (dense input repeats one finding
    /// thousands of times); the list reads as before.
    @Test func findingsWordedAlikeShareTheirMessage() {
        var cap = DiagnosticCap(maxPerCode: 3)
        func finding(_ text: String, at offset: Int) -> Diagnostic {
            Diagnostic(severity: .error, code: ParserCode.strayEOC.code, message: text, offset: offset, length: 2, node: nil)
        }
        let long = String(repeating: "an attribute of the payload does not start with its type INTEGER ", count: 2)
        for (i, text) in [long, long, "other", long].enumerated() {
            cap.append(finding(String(text.utf8.map { Character(Unicode.Scalar($0)) }), at: i * 2))  // each made afresh
        }
        var messages = cap.diagnostics.map(\.message)
        #expect(messages == [long, long, "other", "1 more stray-eoc diagnostic(s) not listed (at most 3 per code); the first not listed: \(long)"])
        let storage = (0..<3).map { i in messages[i].withUTF8 { UInt(bitPattern: $0.baseAddress) } }
        #expect(storage[0] == storage[1], "the second shares the first's message")
        #expect(storage[0] != storage[2])
        // Taken, the same list is handed over (the listed ones not copied) and the cap lists nothing after.
        let listedStorage = cap.listed.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        #expect(cap.listed.capacity >= 4, "room for the summary after the 3 listed")
        let taken = cap.takeDiagnostics()
        #expect(taken.map(\.message) == messages && cap.listed.isEmpty && cap.diagnostics.count == 1)
        #expect(taken.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == listedStorage)
    }

    /// Plain zeros: one stray end-of-contents, then one unparsed region under the trailing-data
    /// warning. The trailing check used to recurse once per top-level element (a stack overflow
    /// under AddressSanitizer at 50,000 elements); this parse must stay flat.
    @Test func plainZeroBytesAreOneElementAndOneRegion() {
        let tree = ASN1Parser.parse([UInt8](repeating: 0, count: 1_000_000))
        HostileInputLoaderTests.expectInvariants(tree, "plain zeros")
        #expect(tree.count == 2)
        #expect(tree[1].kind == NodeKind.unparsed)
        #expect(tree.diagnostics.map(\.code) == [ParserCode.strayEOC.code, ParserCode.trailingData.code])
    }

    /// Many top-level elements that do read cleanly (NULLs): the trailing check parses them once.
    @Test func manyCleanTopLevelElements() {
        var input: [UInt8] = []
        input.reserveCapacity(400_000)
        for _ in 0..<200_000 { input += [0x05, 0x00] }
        let tree = ASN1Parser.parse(input)
        HostileInputLoaderTests.expectInvariants(tree, "NULLs")
        #expect(tree.count == 200_000)
        #expect(tree.diagnostics.map(\.code) == [ParserCode.trailingData.code])
    }

    @Test func capIsAnOption() {
        let input = Self.wrappedZeros(20)
        let all = ASN1Parser.parse(input, options: ParseOptions(maxDiagnosticsPerCode: 100))
        #expect(all.diagnostics.filter { $0.code == ParserCode.strayEOC.code }.count == 10)
        let capped = ASN1Parser.parse(input, options: ParseOptions(maxDiagnosticsPerCode: 3))
        let stray = capped.diagnostics.filter { $0.code == ParserCode.strayEOC.code }
        #expect(stray.count == 4)
        #expect(stray.last?.message.hasPrefix("7 more stray-eoc diagnostic(s) not listed (at most 3 per code)") == true)
    }
}
