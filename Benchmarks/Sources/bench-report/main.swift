import ASN1Lenient
import BenchSupport
import DocumentCore
import Foundation
import ReceiptKit
import TextLoader

// A plain benchmark driver that prints Markdown tables with ratios (docs/performance.md quotes it).
// It complements the package-benchmark suite (Benchmarks/ParserBenchmarks), which reports the same
// comparisons with malloc counts and percentiles.
//
//   swift run -c release bench-report [--section parse|analyze|ui|lab|jws|all] [--runs N]
//                                     [--payload FILE] [--inputs payload,receipt,certs] [--kv]
//
// --kv prints `key=value` lines (one per measurement) for scripts such as Scripts/bench-dump.sh.

struct Options {
    var sections: Set<String> = ["parse", "analyze", "ui"]
    var runs = 7
    var payload: String?
    var inputs: Set<String> = ["payload", "receipt", "certs"]
    var keyValue = false
}

func parseArguments() -> Options {
    var options = Options()
    var args = CommandLine.arguments.dropFirst().makeIterator()
    while let arg = args.next() {
        switch arg {
        case "--section":
            let value = args.next() ?? "all"
            options.sections = value == "all" ? ["parse", "analyze", "ui", "lab", "jws"] : Set(value.split(separator: ",").map(String.init))
        case "--runs": options.runs = Int(args.next() ?? "") ?? options.runs
        case "--payload": options.payload = args.next()
        case "--inputs": options.inputs = Set((args.next() ?? "").split(separator: ",").map(String.init))
        case "--kv": options.keyValue = true
        case "-h", "--help":
            print("usage: bench-report [--section parse|analyze|ui|lab|jws|all] [--runs N] [--payload FILE] [--inputs payload,receipt,certs] [--kv]")
            exit(0)
        default:
            FileHandle.standardError.write(Data("bench-report: unknown argument \(arg)\n".utf8))
            exit(2)
        }
    }
    return options
}

let options = parseArguments()
// nonisolated(unsafe): bench-report is single-threaded top-level code; only the main thread appends and prints.
nonisolated(unsafe) var keyValues: [(String, String)] = []
func kv(_ key: String, _ value: String) { keyValues.append((key, value)) }
func say(_ text: String) { if !options.keyValue { print(text) } }

func runAll(_ docs: [[UInt8]], _ body: ([UInt8]) throws -> Int) rethrows -> Int {
    var n = 0
    for d in docs { n += try body(d) }
    return n
}

// MARK: - Parse: ours vs swift-asn1

func parseSection() throws {
    var inputs: [(key: String, input: BenchInput)] = []
    if options.inputs.contains("payload") {
        if let path = options.payload {
            let bytes = try Inputs.read(URL(fileURLWithPath: path))
            inputs.append(("payload", BenchInput(name: "payload \(Inputs.megabytes(bytes.count)) MB", documents: [bytes])))
        } else {
            inputs.append(("payload", try Inputs.payload()))
        }
    }
    if options.inputs.contains("receipt") {
        do { inputs.append(("receipt", try Inputs.realReceipt())) } catch {
            say("(real receipt not available: \(error); is ../shared/corpus there?)")
        }
    }
    if options.inputs.contains("certs") {
        do { inputs.append(("certs", try Inputs.certificateChain())) } catch {
            say("(certificate chain not available: \(error))")
        }
    }

    say("## Parse: receipt-explorer vs swift-asn1 (median of \(options.runs) runs; load average \(Measure.loadAverage()) on \(ProcessInfo.processInfo.activeProcessorCount) cores)\n")
    var table = Table(["input", "parser", "nodes", "wall ms", "CPU ms", "MB/s", "ns/node", "heap B/node", "vs swift-asn1"],
                      rightAligned: [2, 3, 4, 5, 6, 7, 8])
    var notes: [String] = []
    for (key, input) in inputs {
        let docs = input.documents
        let bytes = Double(input.totalBytes)
        struct Row { let name: String; let id: String; let nodes: Int; let time: Timing; let heap: Int }
        var rows: [Row] = []
        func add(_ name: String, _ id: String, _ body: @escaping ([UInt8]) throws -> Int,
                 retained: () throws -> Int) rethrows {
            let nodes = try runAll(docs, body)
            let time = try Measure.time(runs: options.runs) { try runAll(docs, body) }
            rows.append(Row(name: name, id: id, nodes: nodes, time: time, heap: try retained()))
        }
        add("receipt-explorer (offsets, diagnostics, encapsulation)", "ours", Parsers.ours) {
            Measure.retainedHeap { docs.map { ASN1Parser.parse($0) } }
        }
        add("receipt-explorer, no encapsulation guess", "ours-noguess", Parsers.oursNoGuess) {
            Measure.retainedHeap { docs.map { ASN1Parser.parse($0, options: ParseOptions(guessEncapsulation: false)) } }
        }
        try add("swift-asn1 BER.parse", "swiftasn1", Parsers.swiftASN1) {
            try Measure.retainedHeap { try docs.map { try BERParse.parse($0) } }
        }
        try add("swift-asn1 BER.parse + OCTET STRING descent", "swiftasn1-descend", Parsers.swiftASN1Descending) {
            try Measure.retainedHeap { try docs.map { try BERParse.parseDescending($0) } }
        }
        let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
        for row in rows {
            let wall = row.time.median
            let ms = row.time.cpuMedian > 0 ? row.time.cpuMedian : wall
            let mbps = bytes / (ms / 1e9) / 1e6
            let nsPerNode = ms / Double(row.nodes)
            let heapPerNode = Double(row.heap) / Double(row.nodes)
            // Compare like with like: the same nodes walked.
            var versus = ""
            switch row.id {
            case "ours": versus = byID["swiftasn1-descend"].map { Format.ratio($0.time.cpuMedian, ms) } ?? ""
            case "ours-noguess": versus = byID["swiftasn1"].map { Format.ratio($0.time.cpuMedian, ms) } ?? ""
            default: versus = ""
            }
            table.add([input.name, row.name, Format.grouped(row.nodes), Format.ms(wall), Format.ms(ms), Format.fixed(mbps, 0),
                       Format.fixed(nsPerNode, 1), Format.fixed(heapPerNode, 1), versus])
            kv("parse.\(key).\(row.id).nodes", String(row.nodes))
            kv("parse.\(key).\(row.id).wall_ms", Format.fixed(wall / 1e6, 3))
            kv("parse.\(key).\(row.id).cpu_ms", Format.fixed(ms / 1e6, 3))
            kv("parse.\(key).\(row.id).mb_per_s", Format.fixed(mbps, 1))
            kv("parse.\(key).\(row.id).ns_per_node", Format.fixed(nsPerNode, 2))
            kv("parse.\(key).\(row.id).heap_bytes_per_node", Format.fixed(heapPerNode, 1))
        }
        // The arena, computed rather than sampled.
        let trees = docs.map { ASN1Parser.parse($0) }
        let footprints = trees.map(ArenaFootprint.init)
        let arenaBytes = footprints.reduce(0) { $0 + $1.bytes }
        let nodes = footprints.reduce(0) { $0 + $1.nodes }
        let capacity = footprints.reduce(0) { $0 + $1.nodeCapacity }
        let diagnostics = footprints.reduce(0) { $0 + $1.diagnostics }
        let stride = footprints.first?.nodeStride ?? 0
        notes.append("- \(input.name): \(Format.grouped(input.totalBytes)) input bytes, \(Format.grouped(nodes)) nodes "
            + "(\(Format.fixed(bytes / Double(max(nodes, 1)), 2)) input bytes/node); arena = NodeStore.bytesPerNode \(stride) B "
            + "× capacity \(Format.grouped(capacity)) + \(diagnostics) diagnostics + roots = \(Format.grouped(arenaBytes)) B "
            + "= **\(Format.fixed(Double(arenaBytes) / Double(max(nodes, 1)), 1)) B/node** beyond the input "
            + "(\(Format.fixed(Double(arenaBytes) / bytes, 2))× the input size)")
        kv("parse.\(key).input_bytes", String(input.totalBytes))
        kv("parse.\(key).arena_bytes", String(arenaBytes))
        kv("parse.\(key).arena_bytes_per_node", Format.fixed(Double(arenaBytes) / Double(max(nodes, 1)), 2))
        kv("parse.\(key).node_stride", String(stride))
        kv("parse.\(key).diagnostics", String(diagnostics))
    }
    say(table.render())
    say("\nMemory beyond the input (receipt-explorer's tree keeps a reference to the input, not a copy):\n")
    say(notes.joined(separator: "\n"))
    say("\n`CPU ms`: the measuring thread's CPU time (CLOCK_THREAD_CPUTIME_ID), steadier than wall time on a shared machine; MB/s, ns/node and the ratio use it. `heap B/node`: allocator bytes still in use while the result is alive, minus before (glibc mallinfo2), per node of that row."
        + " `vs swift-asn1`: swift-asn1's median time / ours on the same nodes (BER.parse + descent vs ours with encapsulation; BER.parse vs ours without the guess); > 1 means ours is faster.\n")
}

/// Keeps swift-asn1 results alive for the heap measurement.
enum BERParse {
    static func parse(_ bytes: [UInt8]) throws -> Any { try BERParseImpl.parse(bytes) }
    static func parseDescending(_ bytes: [UInt8]) throws -> Any { try BERParseImpl.parseDescending(bytes) }
}

// MARK: - Receipt analysis (issue 3)

func analyzeSection() throws {
    let url = try Inputs.largeReceiptPath()
    let bytes = try Inputs.read(url)
    say("## Receipt: parse + decode + validate of \(url.lastPathComponent) (\(Format.grouped(bytes.count)) bytes; median of \(options.runs) runs; load average \(Measure.loadAverage()))\n")
    var table = Table(["step", "wall ms", "CPU ms", "min wall ms", "max wall ms", "target"], rightAligned: [1, 2, 3, 4])
    let parse = Measure.time(runs: options.runs, minimumNanos: 0) { ASN1Parser.parse(bytes).count }
    let roots = Inputs.testRoot()
    let decodeOnly = Measure.time(runs: options.runs, minimumNanos: 0) {
        ReceiptAnalyzer.analyze(bytes: bytes, options: AnalysisOptions(validate: false)).findings.count + 1
    }
    let full = Measure.time(runs: options.runs, minimumNanos: 0) {
        ReceiptAnalyzer.analyze(bytes: bytes, options: AnalysisOptions(validate: true, roots: roots)).validationSteps.count
    }
    // What every command and the explorer run: load the file, then one Document.open.
    let document = Measure.time(runs: options.runs, minimumNanos: 0) {
        guard let input = try? InputLoader.load(path: url.path) else { return 0 }
        return Document.open(input, options: AnalysisOptions(validate: true, roots: roots)).layers.count
    }
    let analysis = ReceiptAnalyzer.analyze(bytes: bytes, options: AnalysisOptions(validate: true, roots: roots))
    let purchases = analysis.receipt?.inApp.count ?? 0
    table.add(["ASN1Parser.parse (whole file)", Format.ms(parse.median), Format.ms(parse.cpuMedian),
               Format.ms(parse.min), Format.ms(parse.max), ""])
    table.add(["ReceiptAnalyzer.analyze, validate: false (parse + decode + links)", Format.ms(decodeOnly.median),
               Format.ms(decodeOnly.cpuMedian), Format.ms(decodeOnly.min), Format.ms(decodeOnly.max), ""])
    table.add(["ReceiptAnalyzer.analyze, validate: true (parse + decode + validate)", Format.ms(full.median),
               Format.ms(full.cpuMedian), Format.ms(full.min), Format.ms(full.max),
               ""])
    table.add(["InputLoader.load + Document.open, validate: true (what every command runs)", Format.ms(document.median),
               Format.ms(document.cpuMedian), Format.ms(document.min), Format.ms(document.max),
               min(document.median, document.cpuMedian) < 50e6 ? "< 50 ms: met" : "< 50 ms: **missed**"])
    say(table.render())
    let steps = analysis.validationSteps.map { "\($0.id): \($0.status.isPassed ? "passed" : $0.status.isFailed ? "failed" : "not checked")" }
    say("\nvalidate: true runs with `--root samples/pki/test-root.pem` (the samples' TEST root) so that the chain is built and checked to the end.")
    say("\n\(Format.grouped(purchases)) in-app purchases decoded; \(analysis.tree.count) nodes; \(analysis.findings.count) findings; steps: \(steps.joined(separator: ", "))\n")
    kv("analyze.purchases", String(purchases))
    kv("analyze.parse_ms", Format.fixed(parse.median / 1e6, 3))
    kv("analyze.decode_ms", Format.fixed(decodeOnly.median / 1e6, 3))
    kv("analyze.full_ms", Format.fixed(full.median / 1e6, 3))
    kv("analyze.full_cpu_ms", Format.fixed(full.cpuMedian / 1e6, 3))
    kv("analyze.document_ms", Format.fixed(document.median / 1e6, 3))
    kv("analyze.document_cpu_ms", Format.fixed(document.cpuMedian / 1e6, 3))
}

// MARK: - Main

do {
    if options.sections.contains("parse") { try parseSection() }
    if options.sections.contains("analyze") { try analyzeSection() }
    if options.sections.contains("ui") { try uiSection(options: options, say: say, kv: kv) }
    if options.sections.contains("lab") { try labSection(options: options, say: say, kv: kv) }
    if options.sections.contains("jws") { try jwsSection(options: options, say: say, kv: kv) }
} catch {
    FileHandle.standardError.write(Data("bench-report: \(error)\n".utf8))
    exit(1)
}
if options.keyValue {
    for (k, v) in keyValues { print("\(k)=\(v)") }
}
