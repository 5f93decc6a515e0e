import Foundation
import Testing
import TestSupport

/// Exit statuses of the loader's decisions through the real binary (issue 8): 0 = the input is
/// fine, 1 = the input has errors (parser or loader diagnostics, pinned to byte ranges), 2 = the
/// input cannot be loaded at all. Inputs go through standard input, so the name is "stdin".
@Suite struct LoaderExitTests {
    static let issue8Crash: [UInt8] = [0x3F] + [UInt8](repeating: 0x80, count: 300)
        + DER.hex("01 88 7F FF FF FF FF FF FE FF") + [UInt8](repeating: 0x41, count: 3000)

    func run(_ arguments: [String], _ input: [UInt8]) throws -> CLIResult {
        try runCLI(arguments + ["-"], stdin: Data(input))
    }

    /// The issue 8 crash file killed every command with SIGILL; now each one says why it cannot
    /// decode the file and exits 2.
    @Test(arguments: [["dump"], ["dump", "--format", "openssl"], ["dump", "--format", "json"], ["json"], ["verify"]])
    func issue8CrashFileExitsCleanly(_ command: [String]) throws {
        let result = try run(command, Self.issue8Crash)
        #expect(result.status == 2)
        #expect(result.stderr == "receipt-explorer: cannot decode 'stdin': base64: unexpected character '?' at text offset 0 (line 1, column 1)\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func oneByteSequenceIsATruncatedElement() throws {
        let result = try run(["dump", "--color", "never"], [0x30])
        #expect(result.status == 1)
        #expect(result.stdout.contains("truncated-length"))
        #expect(!result.stderr.contains("base64"))
    }

    @Test(arguments: [
        ("JSON array", Array("[\"MAMCAQU=\"]\n".utf8), "input-unrecognized-text"),
        ("UTF-16 text", [0xFF, 0xFE] + Array("MAMCAQU=".utf8).flatMap { byte -> [UInt8] in [byte, 0x00] }, "input-unrecognized-text"),
        ("NUL padding", Array("MAMCAQU=\n".utf8) + [UInt8](repeating: 0, count: 23), "input-unrecognized-text"),
        ("mostly unread", DER.int(5) + [UInt8](repeating: 0x01, count: 10), "input-mostly-unread"),
    ])
    func unrecognisedInputHasErrors(_ what: String, _ input: [UInt8], _ code: String) throws {
        for command in [["dump", "--color", "never"], ["dump", "--format", "json"], ["json"]] {
            let result = try run(command, input)
            #expect(result.status == 1, "\(what) via \(command): \(result.stderr)")
            // `json` prints the receipt document; the dumps list every diagnostic.
            if command[0] == "dump" { #expect(result.stdout.contains(code), "\(what) via \(command)") }
        }
    }

    @Test func recognisedInputStillExitsZero() throws {
        let result = try run(["dump", "--color", "never"], Array("MAMCAQU=\n".utf8))
        #expect(result.status == 0)
        #expect(result.stdout.contains("INTEGER"))
    }

    /// A file over the 512 MiB input limit is refused before it is read (a sparse file: no disk
    /// is used), exit 2, naming its size and what to do instead; every command that reads it whole.
    @Test(arguments: [["dump"], ["verify"], ["json"], ["explain", "--offset", "0"], ["redact", "-o", "-"]])
    func aFileOverTheInputLimitIsRefused(_ command: [String]) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("over-limit-\(UUID().uuidString).log")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(truncate(url.path, 600_000_000) == 0)
        let result = try runCLI(Array(command.prefix(1)) + [url.path] + Array(command.dropFirst()))
        #expect(result.status == 2)
        #expect(result.stderr == "receipt-explorer: cannot read '\(url.path)': it is 600,000,000 bytes, over the input limit of 512 MiB (536,870,912 bytes); read a large log line by line with --lines, or cut out the part that holds the data\n")
        #expect(result.stdout.isEmpty)
    }
}
