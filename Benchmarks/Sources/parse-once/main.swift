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
var nodes = 0
let start = DispatchTime.now().uptimeNanoseconds
for _ in 0..<repeats {
    if analyze {
        let analysis = ReceiptAnalyzer.analyze(bytes: bytes, options: AnalysisOptions(validate: validate, roots: roots, parseOptions: options))
        nodes = analysis.tree.count
    } else {
        nodes = ASN1Parser.parse(bytes, options: options).count
    }
}
let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(repeats)
print("\(nodes) nodes, \(bytes.count) bytes, \(String(format: "%.2f", elapsed / 1e6)) ms/parse, \(String(format: "%.1f", Double(bytes.count) / elapsed * 1e3)) MB/s")
