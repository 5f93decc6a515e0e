import Foundation
import Testing
import TestSupport

/// Issue 30 item 6, the ways in: every sample kind × every way in × every command that reads input,
/// through the real binary. Each cell must read the input as the raw file's cell of the same command
/// does: the same exit status (so no refusal the raw file does not have), the same kind and, for
/// `verify`, the same verdict. A new kind is a row of `kinds`, a new way in a case of `Way` (and its
/// line in `Way.input`), a new command a row of `commands`. Cells that cannot apply say why
/// (`Kind.cannot`, `Command.lines`); every other cell is asserted.
@Suite(.enabled(if: cliBinary != nil, "the receipt-explorer binary is not built"))
struct ConformanceMatrixTests {
    /// A row: one kind of input, as samples/ holds it.
    struct Kind: Sendable {
        var name: String
        /// Relative to samples/.
        var sample: String
        /// Not text: a log line, a JSON log and a `--lines` line carry its base64.
        var binary: Bool
        /// Cells of this row that cannot apply, with why.
        var cannot: [Way: String] = [:]
    }

    /// A column: one way the data comes in.
    enum Way: String, CaseIterable, Sendable {
        case raw = "raw file"
        case base64 = "base64 file"
        case logLine = "inside a log line"
        case jsonLog = "inside a JSON log object"
        case stdin = "standard input"
        case line = "one --lines line"
    }

    /// A command that reads input: its arguments for one input, and whether it takes `--lines`.
    struct Command: Sendable {
        var name: String
        var lines: Bool
        var arguments: @Sendable (_ input: String, _ scratch: URL) -> [String]
    }

    /// A JSON body of tokens: in a log the paste finder finds its first token, not the body.
    static let jsonBody: [Way: String] = [
        .logLine: "the paste finder finds data (a token, base64 of DER), not a JSON body: inside a log line it finds the body's first token",
        .jsonLog: "the paste finder finds data (a token, base64 of DER), not a JSON body: inside a JSON log it finds the body's first token",
    ]

    static let kinds: [Kind] = [
        Kind(name: "receipt", sample: "typical.receipt", binary: true),
        Kind(name: "Xcode receipt", sample: "xcode-ber.receipt", binary: true),
        Kind(name: "transaction", sample: "jws/transaction.jws", binary: false),
        Kind(name: "renewal info", sample: "jws/renewal-info.jws", binary: false),
        Kind(name: "app transaction", sample: "jws/app-transaction.jws", binary: false),
        Kind(name: "notification with nested tokens", sample: "jws/notification.jws", binary: false),
        Kind(name: "history body", sample: "jws/transaction-history.json", binary: false, cannot: jsonBody),
        Kind(name: "developer-signed token", sample: "developer/promotional-offer.jws", binary: false),
        Kind(name: "refund history", sample: "apple/refund-history.json", binary: false, cannot: jsonBody),
        Kind(name: "notification history", sample: "apple/notification-history.json", binary: false, cannot: jsonBody),
        Kind(name: "Retention Messaging request", sample: "apple/retention-request.json", binary: false, cannot: [
            .logLine: "the paste finder finds data (a token), not a JSON body: inside a log line it finds the request's token, the same kind",
            .jsonLog: "the paste finder finds data (a token), not a JSON body: inside a JSON log it finds the request's token, the same kind",
        ]),
        Kind(name: "Retention Messaging reply (V2 offer)", sample: "apple/retention-promotional-offer-v2.json", binary: false, cannot: [
            .logLine: "the paste finder finds data (a token), not a JSON body: inside a log line it finds the offer's developer-signed token",
            .jsonLog: "the paste finder finds data (a token), not a JSON body: inside a JSON log it finds the offer's developer-signed token",
        ]),
        Kind(name: "offer signature (V1)", sample: "apple/offer-signature-v1.json", binary: false, cannot: [
            .logLine: "the paste finder finds data (base64 of DER), not a JSON object: inside a log line it finds the signature's DER",
            .jsonLog: "the paste finder finds data (base64 of DER), not a JSON object: inside a JSON log it finds the signature's DER",
        ]),
        Kind(name: "external purchase token", sample: "external/external-purchase-token.txt", binary: false),
        Kind(name: "certificate", sample: "pki/test-root.cer", binary: true),
        Kind(name: "other DER", sample: "developer/test-developer-key-TESTKEY001.pub.pem", binary: false, cannot: [
            .logLine: "PEM armour needs its own lines: a log line cannot hold it (its base64 alone is another input)",
            .jsonLog: "PEM armour inside a JSON string is not searched for (only base64 of DER and tokens are)",
            .line: "PEM armour is several lines; one --lines line cannot hold it",
        ]),
        Kind(name: "text", sample: "pki/README.md", binary: false),
    ]

    static let commands: [Command] = [
        Command(name: "dump", lines: false) { input, _ in ["dump", input] },
        Command(name: "explain", lines: false) { input, _ in ["explain", input] },
        Command(name: "json", lines: true) { input, _ in ["json", input] },
        Command(name: "verify", lines: true) { input, _ in ["verify", "--format", "json", input] },
        Command(name: "redact", lines: false) { input, scratch in ["redact", input, "-o", scratch.appendingPathComponent("copy").path, "--seed", "matrix"] },
        Command(name: "timeline", lines: false) { input, _ in ["timeline", input] },
        Command(name: "diff", lines: false) { input, scratch in ["diff", input, input == "-" ? scratch.appendingPathComponent("same").path : input] },
        Command(name: "tour", lines: false) { input, _ in ["tour", "--print", input] },
    ]

    /// What a cell's output says about its reading.
    struct Reading: Equatable, CustomStringConvertible {
        var status: Int32
        /// The kind as the command names it (JSON `kind`, or the document summary the text outputs print).
        var kind: String?
        /// `verify`: valid and the reasons' codes.
        var verdict: String?
        var description: String { "exit \(status), kind \(kind ?? "-"), verdict \(verdict ?? "-")" }
    }

    /// One run of the binary.
    struct Cell: Sendable {
        var kind: Int
        var way: Way
        var command: Int
        var arguments: [String]
        var stdin: Data?
        var scratch: URL
    }

    /// The bytes each way in gives the binary for `sample`, written under `directory`; nil when the
    /// row says the way cannot apply.
    static func input(_ kind: Kind, _ way: Way, sample: [UInt8], directory: URL) throws -> (path: String, stdin: Data?)? {
        if kind.cannot[way] != nil { return nil }
        let oneLine = Self.oneLine(kind, sample)
        func write(_ bytes: [UInt8], _ name: String) throws -> String {
            let url = directory.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return url.path
        }
        switch way {
        case .raw: return (Paths.samples.appendingPathComponent(kind.sample).path, nil)
        case .base64: return (try write(Array(Data(sample).base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed]).utf8) + [0x0A], "input.b64"), nil)
        case .logLine:
            let line = "2026-11-28T10:00:00.123Z INFO  [store] client sent: " + oneLine + " (app 1.2, build 77)\n"
            return (try write(Array(line.utf8), "app.log"), nil)
        case .jsonLog:
            let object: [String: Any] = ["ts": "2026-11-28T10:00:00Z", "level": "info", "msg": "client sent", "data": oneLine]
            let json = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            return (try write(Array(json) + [0x0A], "app.ndjson"), nil)
        case .stdin: return ("-", Data(sample))
        case .line: return (try write(Array((oneLine + "\n").utf8), "lines.txt"), nil)
        }
    }

    /// The sample as one line of text: base64 for binary kinds, the text with its line breaks as spaces otherwise.
    static func oneLine(_ kind: Kind, _ sample: [UInt8]) -> String {
        if kind.binary { return Data(sample).base64EncodedString() }
        return String(decoding: sample, as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
    }

    static func reading(_ command: String, _ result: CLIResult) -> Reading {
        var reading = Reading(status: result.status)
        switch command {
        case "json", "verify":
            // One input prints one (pretty) document; --lines one compact object per line.
            let first = result.stdout.split(separator: "\n").first.map(String.init) ?? ""
            guard let object = ((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)))
                    ?? (try? JSONSerialization.jsonObject(with: Data(first.utf8)))) as? [String: Any] else { break }
            if command == "verify" {
                reading.kind = (object["subject"] as? [String: Any])?["kind"] as? String
                if let verdict = object["verdict"] as? [String: Any] {
                    let reasons = (verdict["reasons"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
                    reading.verdict = "\(verdict["valid"] as? Bool ?? false) \(reasons.joined(separator: ","))"
                }
                if let error = object["error"] as? [String: Any] { reading.kind = "error \(error["code"] ?? "")" }
            } else {
                // The top-level members (a receipt's and a token's differ) and the token kind.
                let keys = object.keys.filter { !["input", "source", "line"].contains($0) }.sorted().joined(separator: ",")
                reading.kind = "\(object["kind"] as? String ?? "-") {\(keys)}"
            }
        case "dump", "tour":
            // "# name: loader note; summary": the summary is what the document is.
            let header = result.stdout.split(separator: "\n").first.map(String.init) ?? ""
            reading.kind = header.range(of: "; ", options: .backwards).map { String(header[$0.upperBound...]) }
        case "redact":
            // "name → copy: summary"
            let first = result.stdout.split(separator: "\n").first.map(String.init) ?? ""
            reading.kind = first.range(of: ": ").map { String(first[$0.upperBound...]) }
        case "timeline":
            // "  [1] name: summary"
            let line = result.stdout.split(separator: "\n").first { $0.hasPrefix("  [1] ") }.map(String.init) ?? ""
            reading.kind = line.range(of: ": ").map { String(line[$0.upperBound...]) }
        default:
            break
        }
        return reading
    }

    @Test("every kind × every way in × every command reads the input as the raw file does")
    func matrix() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("matrix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var cells: [Cell] = []
        var skipped: [String] = []
        for (k, kind) in Self.kinds.enumerated() {
            let sample = try [UInt8](Data(contentsOf: Paths.samples.appendingPathComponent(kind.sample)))
            for way in Way.allCases {
                for (c, command) in Self.commands.enumerated() {
                    if way == .line && !command.lines { continue }  // only verify and json read --lines
                    let scratch = root.appendingPathComponent("\(k)-\(way)-\(c)")
                    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
                    guard let input = try Self.input(kind, way, sample: sample, directory: scratch) else {
                        skipped.append("\(kind.name) \(way.rawValue): \(kind.cannot[way] ?? "")")
                        continue
                    }
                    if input.path == "-" { try Data(sample).write(to: scratch.appendingPathComponent("same")) }
                    var arguments = command.arguments(input.path, scratch)
                    if way == .line { arguments.insert("--lines", at: 1) }
                    cells.append(Cell(kind: k, way: way, command: c, arguments: arguments, stdin: input.stdin, scratch: scratch))
                }
            }
        }
        let results = try Self.runAll(cells)
        var raw: [String: Reading] = [:]
        for (cell, result) in zip(cells, results) where cell.way == .raw {
            raw["\(cell.kind) \(cell.command)"] = Self.reading(Self.commands[cell.command].name, result)
        }
        for (cell, result) in zip(cells, results) where cell.way != .raw {
            let kind = Self.kinds[cell.kind], command = Self.commands[cell.command].name
            guard let expected = raw["\(cell.kind) \(cell.command)"] else { continue }
            var got = Self.reading(command, result)
            // `--lines` reports each line on its own (an invalid line is exit 1, not the run's refusal).
            if cell.way == .line, got.status == 1, expected.status == 0 || expected.status == 1 { got.status = expected.status }
            let where_ = "\(kind.name) × \(cell.way.rawValue) × \(command): \(cell.arguments.joined(separator: " "))\n\(result.stderr)"
            #expect(got == expected, "\(where_)")
        }
        // The same kind across commands: json's token kind is verify's subject kind.
        for k in Self.kinds.indices {
            let json = raw["\(k) 2"]?.kind?.split(separator: " ").first.map(String.init)
            let verify = raw["\(k) 3"]?.kind
            if let json, json != "-" { #expect(json == verify, "\(Self.kinds[k].name): json says \(json), verify \(verify ?? "-")") }
        }
        // Every cell that cannot apply says why (none is dropped silently).
        #expect(skipped.allSatisfy { !$0.hasSuffix(": ") }, "\(skipped)")
        #expect(cells.count > 400, "\(cells.count) cells")
    }

    /// Runs every cell, eight at a time (the binary spends most of its time starting up).
    static func runAll(_ cells: [Cell]) throws -> [CLIResult] {
        final class Box: @unchecked Sendable { var results: [CLIResult?]; init(_ n: Int) { results = Array(repeating: nil, count: n) } }
        let box = Box(cells.count)
        let lock = NSLock()
        let gate = DispatchSemaphore(value: 8)
        let group = DispatchGroup()
        for (i, cell) in cells.enumerated() {
            gate.wait()
            group.enter()
            DispatchQueue.global().async {
                defer { gate.signal(); group.leave() }
                let result = (try? runCLI(cell.arguments, stdin: cell.stdin)) ?? CLIResult(status: -1, stdout: "", stderr: "did not run", stdoutBytes: [])
                lock.lock(); box.results[i] = result; lock.unlock()
            }
        }
        group.wait()
        return box.results.map { $0! }
    }
}
