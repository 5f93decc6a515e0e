import Foundation
import Testing
import TestSupport

/// Issue 30 item 1: one way in. A `--lines` line is read as a file holding that line, a paste is
/// found by every command (redact included), where the data was found is said in the user's words,
/// and the small findings of the same trial.
@Suite(.enabled(if: cliBinary != nil, "the receipt-explorer binary is not built"))
struct OneWayInTests {
    static let token = (try? String(contentsOf: Paths.samples.appendingPathComponent("jws/transaction.jws"), encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""

    /// What comes before the token on line 4 of the log (63 characters: the token starts at character 64).
    static let prefix = "2026-11-28T10:00:00.000Z INFO [store] verify signedTransaction="

    /// A log whose line 4 holds the token after `prefix`.
    static func log(_ directory: URL) throws -> URL {
        #expect(prefix.count == 63)
        let text = "start\nnothing here\nstill nothing\n" + Self.prefix + token + " done\nend\n"
        let url = directory.appendingPathComponent("app.log")
        try Data(text.utf8).write(to: url)
        return url
    }

    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oneway-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("a --lines line is read as a file holding it: a log line, a curl line and a quoted token verify as the file does")
    func linesFindTheData() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = [
            "2026-11-28 INFO got token=" + Self.token + " ok",
            "curl -X POST https://example.com/verify -d '{\"signedTransaction\":\"" + Self.token + "\"}'",
            "\"" + Self.token + "\"",
            Self.token,
        ]
        let file = dir.appendingPathComponent("lines.txt")
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        let single = try runCLI(["verify", "--quiet", "--root", Paths.samples.appendingPathComponent("pki/test-ec-root.cer").path,
                                 Paths.samples.appendingPathComponent("jws/transaction.jws").path])
        let batch = try runCLI(["verify", "--quiet", "--root", Paths.samples.appendingPathComponent("pki/test-ec-root.cer").path, "--lines", file.path])
        let got = batch.stdout.split(separator: "\n").map(String.init)
        #expect(got.count == 4, "\(batch.stdout)\(batch.stderr)")
        for line in got { #expect(line == single.stdout.trimmingCharacters(in: .newlines), "\(line)") }
        #expect(!batch.stdout.contains("cannot decode"))
        // The token's first 3,000 characters on a line: a cut-off token, as in a file, not base64 ASN.1.
        let cut = dir.appendingPathComponent("cut.txt")
        try Data(String(Self.token.prefix(3000)).utf8).write(to: cut)
        let asFile = try runCLI(["verify", "--format", "json", cut.path])
        let asLine = try runCLI(["verify", "--format", "json", "--lines", cut.path])
        let fileKind = try #require(try JSONSerialization.jsonObject(with: Data(asFile.stdout.utf8)) as? [String: Any])
        let lineKind = try #require(try JSONSerialization.jsonObject(with: Data(asLine.stdout.utf8)) as? [String: Any])
        #expect((fileKind["subject"] as? [String: Any])?["kind"] as? String == (lineKind["subject"] as? [String: Any])?["kind"] as? String)
        #expect(!asLine.stdout.contains("APPLICATION 27"), "\(asLine.stdout)")
    }

    @Test("where a pasted token was found is said in the user's words, never as file bytes it is not")
    func foundInTheUsersWords() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try Self.log(dir)
        let words = "characters \(Self.prefix.count + 1)-\(Self.prefix.count + Self.token.count) of line 4 of app.log"
        #expect(words == "characters 64-4619 of line 4 of app.log")
        let dump = try runCLI(["dump", log.path])
        #expect(dump.stdout.contains("found at \(words): a compact JWS"), "\(dump.stdout.prefix(400))")
        #expect(dump.stdout.contains("\(words) (layer 0)"))
        #expect(!dump.stdout.contains("file bytes 0-"))
        let verify = try runCLI(["verify", log.path])
        #expect(verify.stdout.contains(words))
        // The same line given with --lines: line 4 of app.log, its characters 62 to the end of the token.
        let lines = try runCLI(["verify", "--format", "json", "--lines", log.path])
        let fourth = try #require(lines.stdout.split(separator: "\n").dropFirst(3).first)
        #expect(fourth.contains(words), "\(fourth.prefix(300))")
        // A clean file keeps its file bytes.
        let clean = try runCLI(["dump", Paths.samples.appendingPathComponent("jws/transaction.jws").path])
        #expect(clean.stdout.contains("file bytes 0-\(Self.token.count - 1) (layer 0)"))
    }

    @Test("redact reads a paste through the one way in (the log line is found, not refused as base64)")
    func redactReadsAPaste() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try Self.log(dir)
        let r = try runCLI(["redact", log.path, "-o", dir.appendingPathComponent("copy.log").path, "--seed", "x"])
        #expect(!r.stderr.contains("unexpected character"), "\(r.stderr)")
        #expect(r.stdout.contains("a StoreKit 2 transaction"), "\(r.stdout)\(r.stderr)")
    }

    @Test("--lines on empty input says there are no inputs, exit 2 (verify and json)", arguments: ["verify", "json"])
    func noInputs(_ command: String) throws {
        let empty = try runCLI([command, "--lines", "-"], stdin: Data())
        #expect(empty.status == 2)
        #expect(empty.stdout.isEmpty)
        #expect(empty.stderr == "receipt-explorer: no inputs: --lines read no line from standard input\n")
    }

    @Test("an ELF file's first element is [APPLICATION 69] in verify as in dump (the whole high tag number)")
    func highTagNumber() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let elf = dir.appendingPathComponent("a.out")
        try Data([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00] + [UInt8](repeating: 0, count: 56)).write(to: elf)
        let dump = try runCLI(["dump", elf.path])
        let verify = try runCLI(["verify", elf.path])
        #expect(dump.stdout.contains("[APPLICATION 69]"), "\(dump.stdout)")
        #expect(verify.stdout.contains("a [APPLICATION 69], a SEQUENCE was expected"), "\(verify.stdout)")
        #expect(!verify.stdout.contains("APPLICATION 31"))
    }

    @Test("text is never read as ASN.1: 'hello world' and base64 of text are the Text kind", arguments: [
        Array("hello world\n".utf8), Array(Data("hello world, this is not a receipt\n".utf8).base64EncodedString().utf8),
    ])
    func textIsText(_ bytes: [UInt8]) throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("note.txt")
        try Data(bytes).write(to: file)
        let verify = try runCLI(["verify", "--format", "json", file.path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any])
        #expect((object["subject"] as? [String: Any])?["kind"] as? String == "text", "\(verify.stdout.prefix(300))")
        let dump = try runCLI(["dump", file.path])
        #expect(!dump.stdout.contains("truncated-length"), "\(dump.stdout)")
        #expect(!dump.stdout.contains("SEQUENCE"))
    }

    @Test("a content type OID padded with 0x80 says so, instead of 'signedData …, signedData … was expected'")
    func paddedOID() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("oid-leading-0x80.der")
        // SEQUENCE { OID 2A 86 48 86 F7 0D 01 07 80 02 } : 1.2.840.113549.1.7.2 with its last arc padded.
        try Data([0x30, 0x0C, 0x06, 0x0A, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x80, 0x02]).write(to: file)
        let verify = try runCLI(["verify", file.path])
        #expect(verify.stdout.contains("the content type OBJECT IDENTIFIER prints as signedData (1.2.840.113549.1.7.2) but is not its encoding: "
            + "the subidentifier at offset 12 starts with 0x80, a padding octet DER forbids, so its bytes are not signedData's (2A 86 48 86 F7 0D 01 07 02)"),
            "\(verify.stdout)")
        #expect(!verify.stdout.contains("signedData (1.2.840.113549.1.7.2) was expected"))
    }

    @Test("--lines ERROR objects follow docs/verify-schema.json", .enabled(if: jsonschemaPython, "python3 with jsonschema is not installed"))
    func errorObjectsFollowTheSchema() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = dir.appendingPathComponent("lines.txt")
        // An empty line, broken base64, a blank line, and a FILE that is not there.
        try Data("\nMIIBIjAN=BgkqhkiG\n   \n".utf8).write(to: lines)
        let r = try runCLI(["verify", "--format", "json", "--lines", lines.path, dir.appendingPathComponent("missing").path])
        let objects = r.stdout.split(separator: "\n")
        #expect(objects.count == 4, "\(r.stdout)")
        var files: [URL] = []
        for (i, object) in objects.enumerated() {
            let url = dir.appendingPathComponent("\(i).json")
            try Data(object.utf8).write(to: url)
            files.append(url)
        }
        #expect(objects.filter { $0.hasPrefix("{\"error\"") }.count == 4, "\(r.stdout)")
        let check = try VerifySchemaTests.validate(files)
        #expect(check.status == 0, "\(check.output)")
    }

    @Test("timeline: the same auto-renew change from a renewal info and its notification is one event naming both")
    func renewalStatusOnce() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let notification = Paths.samples.appendingPathComponent("timeline/n08-auto-renew-disabled.jws")
        let text = try String(contentsOf: notification, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        // The notification's own signedRenewalInfo, as a document of its own.
        let payload = String(text.split(separator: ".")[1])
        var base64 = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let decoded = try #require(Data(base64Encoded: base64))
        let json = try #require(try JSONSerialization.jsonObject(with: decoded) as? [String: Any])
        let renewal = try #require((json["data"] as? [String: Any])?["signedRenewalInfo"] as? String)
        let renewalFile = dir.appendingPathComponent("renewal.jws")
        try Data(renewal.utf8).write(to: renewalFile)
        let r = try runCLI(["timeline", notification.path, renewalFile.path])
        let events = r.stdout.split(separator: "\n").filter { $0.contains("automatic renewal") }
        #expect(events.count == 1, "\(r.stdout)")
        #expect(r.stdout.contains("[1]") && r.stdout.contains("[2]"))
    }
}

/// The one way in is the only one: outside it (`DocumentCore/Input`, the loader step it calls,
/// `DocumentCore/Paste/PasteLoader.swift`, and TextLoader itself) no source reads an input file
/// or calls a loader. `Redact/` re-loads its own copies to check them (issue 30 item 4's file).
struct OneWayInSourceTests {
    static let allowed = ["Sources/TextLoader/", "Sources/DocumentCore/Input/", "Sources/DocumentCore/Paste/PasteLoader.swift",
                          "Sources/DocumentRedact/"]
    static let patterns = ["InputLoader.", "PasteLoader.", "FileManager.default.contents", "readInput("]

    @Test("no command, feature or view reads an input or calls a loader itself")
    func onePlace() throws {
        let root = Paths.packageRoot
        let sources = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 100)
        var offenders: [String] = []
        for file in files {
            let relative = String(file.path.dropFirst(root.path.count + 1))
            if Self.allowed.contains(where: { relative.hasPrefix($0) }) { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                for pattern in Self.patterns where code.contains(pattern) { offenders.append("\(relative):\(number + 1): \(line)") }
            }
        }
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
    }
}
