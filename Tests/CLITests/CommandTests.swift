import Foundation
import Testing
import TestSupport

/// The binary's promises: exit statuses, one-line errors, colour rules, escaping, input formats.
@Suite struct CommandTests {
    static let truncatedCorpusFile = Paths.corpus.appendingPathComponent("receipts/negative/truncated-sandbox-com.belive.app.ios-456bytes.receipt")
    static var validFile: URL {
        corpusReceipts().first ?? Paths.samples.appendingPathComponent("typical.receipt")
    }

    // MARK: Exit statuses

    @Test(arguments: ["tree", "openssl", "json"])
    func validInputExitsZero(_ format: String) throws {
        let result = try runCLI(["dump", "--format", format, Self.validFile.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(!result.stdout.isEmpty)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: truncatedCorpusFile.path), "../shared/corpus is absent"),
          arguments: ["tree", "openssl", "json"])
    func truncatedCorpusFileExitsOneAndStillPrints(_ format: String) throws {
        let result = try runCLI(["dump", "--format", format, Self.truncatedCorpusFile.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains(format == "tree" ? "OBJECT IDENTIFIER 1.2.840.113549.1.7.2 (signedData)"
                                       : format == "json" ? "\"code\": \"truncated-content\"" : ":pkcs7-signedData"))
    }

    @Test func dumpOfAReceiptShowsReceiptFindingsUnderTheirNodes() throws {
        // samples/README.md: attribute 2's value is an IA5String (tag 0x16 at offset 305).
        let result = try runCLI(["dump", Paths.samples.appendingPathComponent("malformed-wrong-type.receipt").path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("error receipt-attribute-wrong-type"))
    }

    @Test func junkAfterTheReceiptIsAWarningOnly() throws {
        // samples/README.md: DE AD BE EF appended at offset 7686.
        let result = try runCLI(["dump", Paths.samples.appendingPathComponent("malformed-trailing-bytes.receipt").path])
        #expect(result.status == 0, "stdout: \(result.stdout.suffix(400))")
        #expect(result.stdout.contains("warning trailing-data bytes 7686-7689: 4 byte(s) follow the top-level element, which ends at offset 7686; they do not read as ASN.1"))
    }

    @Test func handBuiltErrorExitsOne() throws {
        // SEQUENCE claiming 5 content octets, 3 present.
        let file = try temporaryFile([0x30, 0x05, 0x02, 0x01, 0x01])
        let result = try runCLI(["dump", file.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("error truncated-content byte 1: the length claims 5 content octets but the input ends after 3"))
    }

    @Test func derNotesAloneExitZero() throws {
        // Indefinite length: legal BER, a "der" note, not an error.
        let file = try temporaryFile([0x30, 0x80, 0x02, 0x01, 0x01, 0x00, 0x00])
        let result = try runCLI(["dump", file.path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("der indefinite-length byte 1"))
    }

    @Test func missingFileExitsTwoWithOneLine() throws {
        let result = try runCLI(["dump", "/nonexistent/x.receipt"])
        #expect(result.status == 2)
        #expect(result.stderr == "receipt-explorer: cannot read '/nonexistent/x.receipt': No such file or directory\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func directoryExitsTwo() throws {
        let result = try runCLI(["explain", "/tmp"])
        #expect(result.status == 2)
        #expect(result.stderr == "receipt-explorer: cannot read '/tmp': it is a directory\n")
    }

    @Test func emptyFileExitsTwo() throws {
        let file = try temporaryFile([], name: "empty.receipt")
        let result = try runCLI(["dump", file.path])
        #expect(result.status == 2)
        #expect(result.stderr == "receipt-explorer: 'empty.receipt' is empty (0 bytes)\n")
    }

    @Test(arguments: [["dump", "--bogus", "x"], ["dump"], ["dump", "--format", "xml", "x"], ["dump", "--color", "sometimes", "x"],
                      ["explain", "x", "--offset", "12z"], ["nonsense-command"]])
    func usageErrorsExitTwo(_ arguments: [String]) throws {
        let result = try runCLI(arguments)
        #expect(result.status == 2, "\(arguments): status \(result.status), stderr \(result.stderr)")
        // An unknown word is taken as the FILE of the default (explore) command, which refuses
        // without a terminal; everything else is ArgumentParser's own "Error: …" and usage.
        #expect(arguments == ["nonsense-command"] ? !result.stderr.isEmpty : result.stderr.hasPrefix("Error: "))
        #expect(result.stdout.isEmpty)
    }

    @Test func helpExitsZeroAndDocumentsExitStatus() throws {
        let result = try runCLI(["dump", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Exit status: 0 = no error-severity diagnostic; 1 = the input has errors"))
        let root = try runCLI(["--help"])
        #expect(root.status == 0)
        #expect(root.stdout.contains("dump"))
        #expect(root.stdout.contains("explain"))
    }

    /// Every command that reads a FILE names every form the loader detects (the root help's
    /// sentence and each argument's help once listed receipts only, long after JWS landed).
    @Test(arguments: ["dump", "explain", "json", "verify", "explore", "tour", "diff", "timeline"])
    func fileHelpNamesEveryInputForm(command: String) throws {
        let result = try runCLI([command, "--help"])
        #expect(result.status == 0)
        let words = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("DER/BER, base64, PEM, verifyReceipt JSON, a StoreKit 2 JWS or JSON carrying tokens, or text with one of these in it (a log line, JSON, a HAR capture, a form body)"))
    }

    /// The root help names every kind of input, pastes, `--key` and external purchase tokens: a
    /// newcomer reading `--help` learns what the tool opens without the manual.
    @Test func rootHelpNamesEveryKindOfInput() throws {
        let root = try runCLI(["--help"])
        let words = root.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("OVERVIEW: Explore, explain and verify App Store purchase data: app receipts, StoreKit 2 and developer-signed JWS, external purchase tokens, any DER/BER."))
        #expect(words.contains("an app receipt (PKCS#7, DER or Xcode's BER)"))
        #expect(words.contains("a StoreKit 2 JWS (a transaction, renewal info, an app transaction, a notification's signedPayload or a Retention Messaging request)"))
        #expect(words.contains("every App Store Server API response by name: transaction, refund and notification history, subscription statuses, order lookup, app transaction, Advanced Commerce, test notification status"))
        #expect(words.contains("your Retention Messaging replies, whose promotional offer signatures (V2 JWS, and V1 checked with --key) are verified"))
        #expect(words.contains("a developer-signed JWS (a promotional offer signature, an introductory-offer eligibility token, an Advanced Commerce request, an App Store Server API bearer token)"))
        #expect(words.contains("--key KEY: the .p8 or a PEM public key"))
        #expect(words.contains("an external purchase token (base64url JSON); an iOS 6 style transaction receipt (recognised and named, not read); a certificate or any other DER/BER."))
        #expect(words.contains("Pastes: when the whole input is none of these, the data is found inside it"))
    }

    // MARK: explain

    @Test func explainOffsetOutOfRangeExitsTwo() throws {
        let file = try temporaryFile([0x30, 0x03, 0x02, 0x01, 0x05])
        let result = try runCLI(["explain", file.path, "--offset", "5"])
        #expect(result.status == 2)
        #expect(result.stderr == "receipt-explorer: offset 5 is past the end of the input (5 bytes; valid offsets are 0-4)\n")
    }

    @Test func explainOffsetAcceptsHexAndPicksTheInnermostElement() throws {
        let file = try temporaryFile([0x30, 0x03, 0x02, 0x01, 0x05], name: "tiny.der")
        let result = try runCLI(["explain", file.path, "--offset", "0x4"])
        #expect(result.status == 0)
        #expect(result.stdout == """
            # tiny.der: raw DER/BER, 5 bytes; other ASN.1 (not a receipt or a certificate)
            path: SEQUENCE at 0 > INTEGER at 2

            INTEGER at offset 2 (depth 1, 3 bytes)
              bytes            02 01 05
              identifier       0x02 = 0b00000010: class bits 00 → UNIVERSAL; bit 6 = 0 → primitive; tag bits 00010 = 2 → INTEGER
              length           0x01 = 0b00000001: bit 8 = 0 → short form: 1 content octet
              content          1 octet: two's-complement big-endian integer: 5

            """)
    }

    @Test func explainWholeFileListsEveryElement() throws {
        let file = try temporaryFile([0x30, 0x03, 0x02, 0x01, 0x05], name: "tiny.der")
        let result = try runCLI(["explain", file.path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("SEQUENCE at offset 0 (depth 0, 5 bytes)\n"))
        #expect(result.stdout.contains("\n\nINTEGER at offset 2 (depth 1, 3 bytes)\n"))
        #expect(result.stdout.contains("content          3 octets holding 1 element: the SEQUENCE's components, in order\n"))
    }

    /// Past --max-elements the explanations stop with a line saying how many were left out and
    /// from where, and the findings of the elements left out are still printed, one line each.
    @Test func explainStopsAtMaxElementsButKeepsTheFindings() throws {
        // SEQUENCE { INTEGER 5, INTEGER 00 05 (not minimal) }: the finding is on the third element.
        let file = try temporaryFile([0x30, 0x07, 0x02, 0x01, 0x05, 0x02, 0x02, 0x00, 0x05], name: "cap.der")
        let capped = try runCLI(["explain", file.path, "--max-elements", "2"])
        #expect(capped.status == 1)
        #expect(!capped.stdout.contains("INTEGER at offset 5"))
        #expect(capped.stdout.hasSuffix("""
              content          1 octet: two's-complement big-endian integer: 5

            # 1 more element from offset 5 on is not explained (1 diagnostic among them, listed below): \
            the first 2 are; use --offset N for one element, --max-elements 0 for all

            error integer-not-minimal byte 7: redundant leading 0x00 octet: the INTEGER is not in its shortest form

            """), "\(capped.stdout)")
        let all = try runCLI(["explain", file.path, "--max-elements", "0"])
        #expect(all.status == 1)
        #expect(all.stdout.contains("INTEGER at offset 5 (depth 1, 4 bytes)\n"))
        #expect(!all.stdout.contains("not explained"))
        let negative = try runCLI(["explain", file.path, "--max-elements=-1"])
        #expect(negative.status == 2)
        #expect(negative.stderr.contains("--max-elements must be 0 (all) or more"))
    }

    // MARK: Colour

    static let sgr = "\u{1B}["

    @Test func colourIsOffWhenPipedAndOnWhenForced() throws {
        let file = Self.validFile.path
        let piped = try runCLI(["dump", file], environment: ["NO_COLOR": nil])
        #expect(!piped.stdout.contains(Self.sgr), "auto must not colour a pipe")
        let forced = try runCLI(["dump", "--color", "always", file], environment: ["NO_COLOR": nil])
        #expect(forced.stdout.contains(Self.sgr + "1m"))
        let forcedDespiteNoColor = try runCLI(["dump", "--color", "always", file], environment: ["NO_COLOR": "1"])
        #expect(forcedDespiteNoColor.stdout.contains(Self.sgr), "an explicit --color always wins over NO_COLOR")
        let never = try runCLI(["dump", "--color", "never", file])
        #expect(!never.stdout.contains(Self.sgr))
        #expect(forced.stdout.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression) == piped.stdout)
    }

    /// A terminal cannot be faked through a pipe: the binary runs under util-linux `script`, which
    /// gives it a pseudo-terminal as stdout (BSD `script` on macOS takes other flags).
    @Test(.enabled(if: Host.isLinux && findTool("script") != nil, "needs util-linux script(1)"))
    func autoColoursATerminalUnlessNoColorIsSet() throws {
        let script = try #require(findTool("script"))
        let binary = try #require(cliBinary).path
        let file = try temporaryFile([0x30, 0x03, 0x02, 0x01, 0x05])
        func underTerminal(_ env: String) throws -> String {
            try runTool(script, ["-q", "-e", "-c", "\(env) '\(binary)' dump '\(file.path)'", "/dev/null"]).output
        }
        #expect(try underTerminal("env -u NO_COLOR").contains(Self.sgr))
        #expect(try !underTerminal("env NO_COLOR=1").contains(Self.sgr))
        #expect(try underTerminal("env NO_COLOR=").contains(Self.sgr), "an empty NO_COLOR does not count")
    }

    // MARK: Escaping hostile strings

    @Test(arguments: ["tree", "openssl", "json"])
    func hostileStringsAreEscaped(_ format: String) throws {
        // UTF8String "a ESC[31m b U+202E c BEL d NUL e CR f" inside a SEQUENCE.
        let text: [UInt8] = Array("a".utf8) + [0x1B] + Array("[31mb".utf8) + [0xE2, 0x80, 0xAE] + Array("c".utf8)
            + [0x07] + Array("d".utf8) + [0x00] + Array("e".utf8) + [0x0D] + Array("f".utf8) + [0xC2, 0x9B] + Array("g".utf8)
        let der = [0x30, UInt8(text.count + 2), 0x0C, UInt8(text.count)] + text
        let file = try temporaryFile(der)
        let result = try runCLI(["dump", "--format", format, "--color", "never", file.path])
        #expect(result.status == 0)
        for b in result.stdoutBytes where b < 0x20 && b != 0x0A {
            Issue.record("control byte 0x\(String(b, radix: 16)) in \(format) output")
        }
        #expect(!result.stdoutBytes.contains(0x7F))
        #expect(!String(decoding: result.stdoutBytes, as: UTF8.self).unicodeScalars.contains { $0.value == 0x202E || (0x80...0x9F).contains($0.value) })
        switch format {
        case "json":
            #expect(result.stdout.contains(#""value": "a\u001b[31mb\u202ec\u0007d\u0000e\rf\u009bg""#))
        default:
            #expect(result.stdout.contains(#"a\x1b[31mb\u{202E}c\x07d\x00e\rf\x9bg"#))
        }
    }

    @Test func hostileSampleIsEscapedInEveryFormat() throws {
        let file = Paths.samples.appendingPathComponent("malformed-hostile-strings.receipt")
        for format in ["tree", "openssl", "json"] {
            let result = try runCLI(["dump", "--format", format, "--color", "always", file.path])
            // The only ESC bytes allowed are our own SGR colour sequences (tree format).
            let withoutSGR = result.stdout.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            #expect(!withoutSGR.utf8.contains { $0 < 0x20 && $0 != 0x0A }, "\(format)")
            #expect(!withoutSGR.unicodeScalars.contains { $0.value == 0x202E }, "\(format)")
        }
    }

    // MARK: Input encodings through the binary

    @Test func stdinAndEncodedInputsGiveTheSameTree() throws {
        let typical = Paths.samples.appendingPathComponent("typical.receipt")
        let raw = try #require(FileManager.default.contents(atPath: typical.path))
        let reference = try runCLI(["dump", "--format", "openssl", typical.path]).stdout
        let viaStdin = try runCLI(["dump", "--format", "openssl", "-"], stdin: raw)
        #expect(viaStdin.status == 0)
        #expect(viaStdin.stdout == reference)
        let base64 = Data(raw.base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed]).utf8)
        let viaBase64Stdin = try runCLI(["dump", "-"], stdin: base64)
        #expect(viaBase64Stdin.stdout.hasPrefix("# stdin: decoded from base64: \(grouped(raw.base64EncodedString().count)) characters → \(grouped(raw.count)) bytes; a PKCS#7 App Store receipt\n"))
        for encoded in ["typical.b64", "typical.pem", "typical.json"] {
            let url = Paths.samples.appendingPathComponent(encoded)
            let result = try runCLI(["dump", "--format", "openssl", url.path])
            #expect(result.status == 0, "\(encoded): \(result.stderr)")
            #expect(result.stdout == reference, "\(encoded)")
        }
    }

    @Test func strayCharacterInBase64ExitsTwoWithItsPosition() throws {
        var text = Array("MIIB\nMIIB\nMI#B\n".utf8)
        text += Array(repeating: UInt8(ascii: "A"), count: 40)
        let file = try temporaryFile(text, name: "pasted.txt")
        let result = try runCLI(["dump", file.path])
        #expect(result.status == 2)
        #expect(result.stderr == "receipt-explorer: cannot decode 'pasted.txt': base64: unexpected character '#' at text offset 12 (line 3, column 3)\n")
    }

    func grouped(_ n: Int) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.groupingSeparator = ","
        formatter.usesGroupingSeparator = true
        return formatter.string(from: NSNumber(value: n)) ?? String(n)
    }
}
