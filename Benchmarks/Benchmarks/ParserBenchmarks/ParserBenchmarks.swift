import ASN1Lenient
import Benchmark
import BenchSupport
import ReceiptKit

// package-benchmark suite: receipt-explorer's parser vs apple/swift-asn1 on the same inputs, with
// wall clock, throughput and malloc metrics (the malloc interposer counts every allocation).
//
//   cd Benchmarks && swift package --disable-sandbox benchmark
//   cd Benchmarks && swift package --disable-sandbox benchmark --filter "payload.*"
//
// The large payload is generated on first use into Benchmarks/.inputs/ (Scripts/gen-payload.py);
// the real receipt is read from ../shared/corpus at run time. bench-report (Sources/bench-report)
// prints the same comparison as one table with ratios and bytes per node.

/// Arena bytes per node (node array capacity × stride + diagnostics + roots), × 10 so that the
/// integer metric keeps one decimal.
let arenaMetric = BenchmarkMetric.custom("arena bytes/node ×10", polarity: .prefersSmaller, useScalingFactor: false)

func runAll(_ docs: [[UInt8]], _ body: ([UInt8]) throws -> Int) rethrows -> Int {
    var n = 0
    for d in docs { n += try body(d) }
    return n
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal, .mallocBytesCount, .peakMemoryResidentDelta]
    Benchmark.defaultConfiguration = .init(metrics: metrics, warmupIterations: 1,
                                           maxDuration: .seconds(3), maxIterations: 25)

    var inputs: [BenchInput] = []
    for load in [Inputs.payload, Inputs.realReceipt, Inputs.certificateChain] {
        do { inputs.append(try load()) } catch { print("input not available: \(error)") }
    }

    for input in inputs {
        let docs = input.documents
        // Small inputs are repeated so that one iteration is long enough to time well.
        let scale: BenchmarkScalingFactor = input.totalBytes < 10_000 ? .kilo : .one

        Benchmark("\(input.name) / receipt-explorer",
                  configuration: .init(metrics: metrics + [arenaMetric], scalingFactor: scale)) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(runAll(docs, Parsers.ours)) }
            benchmark.stopMeasurement()
            let trees = docs.map { ASN1Parser.parse($0) }.map(ArenaFootprint.init)
            let bytes = trees.reduce(0) { $0 + $1.bytes }, nodes = trees.reduce(0) { $0 + $1.nodes }
            benchmark.measurement(arenaMetric, bytes * 10 / max(nodes, 1))
        }
        Benchmark("\(input.name) / receipt-explorer, no encapsulation guess",
                  configuration: .init(metrics: metrics, scalingFactor: scale)) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(runAll(docs, Parsers.oursNoGuess)) }
        }
        Benchmark("\(input.name) / swift-asn1 BER.parse",
                  configuration: .init(metrics: metrics, scalingFactor: scale)) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try runAll(docs, Parsers.swiftASN1)) }
        }
        Benchmark("\(input.name) / swift-asn1 BER.parse + OCTET STRING descent",
                  configuration: .init(metrics: metrics, scalingFactor: scale)) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try runAll(docs, Parsers.swiftASN1Descending)) }
        }
    }

    // Issue 3: parse + decode + validate of the 10,000-purchase sample (target < 100 ms).
    if let url = try? Inputs.largeReceiptPath(), let bytes = try? Inputs.read(url) {
        let roots = Inputs.testRoot()
        Benchmark("large-10000.receipt / ReceiptAnalyzer.analyze (parse + decode + validate)",
                  configuration: .init(metrics: metrics, maxIterations: 15)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(ReceiptAnalyzer.analyze(bytes: bytes, options: AnalysisOptions(validate: true, roots: roots)))
            }
        }
    }
}
