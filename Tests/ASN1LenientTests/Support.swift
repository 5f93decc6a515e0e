import Foundation
import Testing
@testable import ASN1Lenient

/// The package root, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
/// The shared corpus of real receipts, beside the project; absent for people who only cloned it.
let corpusDirectory = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")

func corpusFiles() -> [URL] {
    let dirs = ["receipts", "receipts/negative"].map { corpusDirectory.appendingPathComponent($0) }
    return dirs.flatMap { dir in
        ((try? FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)) ?? [])
            .filter { ["receipt", "p7"].contains($0.pathExtension) }
    }.sorted { $0.path < $1.path }
}

func bytes(_ hex: String) -> [UInt8] {
    let digits = hex.filter { $0.isHexDigit }
    var out: [UInt8] = []
    var i = digits.startIndex
    while i < digits.endIndex {
        let j = digits.index(i, offsetBy: 2)
        out.append(UInt8(digits[i..<j], radix: 16)!)
        i = j
    }
    return out
}

func parse(_ hex: String, options: ParseOptions = ParseOptions()) -> Tree {
    ASN1Parser.parse(bytes(hex), options: options)
}

/// Runs a command and returns its standard output.
func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
