import ASN1Lenient
import Foundation
import ReceiptKit

// Parses one file a given number of times and prints the node count: a minimal process for
// profilers (valgrind --tool=callgrind, perf) and for /usr/bin/time.
//
//   parse-once FILE [--repeat N] [--no-guess] [--analyze [--no-validate] [--root CERT]]
var args = Array(CommandLine.arguments.dropFirst())
guard let path = args.first else {
    FileHandle.standardError.write(Data("usage: parse-once FILE [--repeat N] [--no-guess]\n".utf8))
    exit(2)
}
var repeats = 1
var options = ParseOptions()
var analyze = false
var validate = true
var roots: [[UInt8]] = []
var i = 1
while i < args.count {
    switch args[i] {
    case "--repeat": i += 1; repeats = Int(args[i]) ?? 1
    case "--no-guess": options.guessEncapsulation = false
    case "--analyze": analyze = true
    case "--no-validate": validate = false
    case "--root": i += 1; roots.append([UInt8](FileManager.default.contents(atPath: args[i]) ?? Data()))
    default: break
    }
    i += 1
}
guard let data = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("parse-once: cannot read \(path)\n".utf8))
    exit(2)
}
let bytes = [UInt8](data)

/// CPU time of this thread (user + system, page faults included), steadier than wall time on a shared machine.
func threadCPUNanos() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

var nodes = 0
var walls: [Double] = []
var cpus: [Double] = []
for _ in 0..<repeats {
    let wall0 = DispatchTime.now().uptimeNanoseconds, cpu0 = threadCPUNanos()
    if analyze {
        let analysis = ReceiptAnalyzer.analyze(bytes: bytes, options: AnalysisOptions(validate: validate, roots: roots, parseOptions: options))
        nodes = analysis.tree.count
    } else {
        nodes = ASN1Parser.parse(bytes, options: options).count
    }
    walls.append(Double(DispatchTime.now().uptimeNanoseconds - wall0))
    cpus.append(Double(threadCPUNanos() - cpu0))
}
func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}
let wall = median(walls), cpu = median(cpus)
// Medians over the repeats (each parse's result is freed before the next).
print("\(nodes) nodes, \(bytes.count) bytes, median of \(repeats): \(String(format: "%.2f", wall / 1e6)) ms/parse wall, "
    + "\(String(format: "%.2f", cpu / 1e6)) ms CPU, \(String(format: "%.1f", Double(bytes.count) / cpu * 1e3)) MB/s and "
    + "\(String(format: "%.1f", cpu / Double(max(nodes, 1)))) ns/node (CPU)")
