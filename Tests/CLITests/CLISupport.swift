import Foundation
import Platform
import Testing
import TestSupport

/// The Tmux* suites (another helper's) still say `cliPackageRoot`; everything else uses `Paths`.
let cliPackageRoot = Paths.packageRoot

/// The built `receipt-explorer` binary. `swift test` builds it into the same directory as the test
/// bundle (`.build/<triple>/debug/`), and the test process is that bundle on Linux, so the
/// binary is found next to the running executable; the bundle URL and `.build/debug` are the
/// fallbacks on Darwin.
let cliBinary: URL? = {
    var candidates: [URL] = []
    if let exe = ExecutablePath.current() {
        candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
    }
    let bundle = Bundle.main.bundleURL
    candidates.append(bundle)
    candidates.append(bundle.deletingLastPathComponent())
    // Where `swift build` puts it by default (macOS runs tests through xctest, not the bundle).
    candidates.append(Paths.packageRoot.appendingPathComponent(".build/debug"))
    for directory in candidates {
        let url = directory.appendingPathComponent("receipt-explorer")
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
           FileManager.default.isExecutableFile(atPath: url.path) {
            return url
        }
    }
    return nil
}()

struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var stdoutBytes: [UInt8]
}

/// Runs the binary with `arguments`; `environment` entries are added to (or, with a nil value,
/// removed from) the inherited environment.
func runCLI(_ arguments: [String], environment: [String: String?] = [:], stdin: Data? = nil) throws -> CLIResult {
    let binary = try #require(cliBinary, "receipt-explorer binary not found next to the test bundle")
    return try runProgram(binary, arguments, environment: environment, stdin: stdin)
}

/// Runs any program to completion (stdin is /dev/null unless given) and collects both outputs.
func runProgram(_ executable: URL, _ arguments: [String], environment: [String: String?] = [:],
                stdin: Data? = nil) throws -> CLIResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let input = Pipe()
    process.standardInput = stdin == nil ? FileHandle.nullDevice : input
    try process.run()
    if let stdin {
        input.fileHandleForWriting.write(stdin)
        try input.fileHandleForWriting.close()
    }
    // Read both pipes concurrently so a large output on one cannot block the other.
    // @unchecked: written by the reader before `group.leave()`, read only after `group.wait()`.
    final class Box: @unchecked Sendable { var data = Data() }
    let errBox = Box()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        errBox.data = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    let errData = errBox.data
    process.waitUntilExit()
    return CLIResult(status: process.terminationStatus,
                     stdout: String(decoding: outData, as: UTF8.self),
                     stderr: String(decoding: errData, as: UTF8.self),
                     stdoutBytes: Array(outData))
}

/// Runs any program (openssl) and returns its status and standard output.
func runTool(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

func findTool(_ name: String) -> String? {
    for dir in ["/usr/bin", "/usr/local/bin", "/bin", "/opt/homebrew/bin"] {
        let path = dir + "/" + name
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

/// Real receipts from ../shared/corpus (empty when it is absent).
func corpusReceipts() -> [URL] {
    let dir = Paths.corpus.appendingPathComponent("receipts")
    return ((try? FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)) ?? [])
        .filter { $0.pathExtension == "receipt" }
        .sorted { $0.path < $1.path }
}

/// Committed samples/*.receipt, optionally without the deliberately malformed ones.
func sampleReceipts(includingMalformed: Bool) -> [URL] {
    ((try? FileManager.default.contentsOfDirectory(at: Paths.samples, includingPropertiesForKeys: nil)) ?? [])
        .filter { $0.pathExtension == "receipt" && (includingMalformed || !$0.lastPathComponent.hasPrefix("malformed-")) }
        .sorted { $0.path < $1.path }
}

/// A temporary file holding `bytes`, removed by the caller.
func temporaryFile(_ bytes: [UInt8], name: String = "input.bin") throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url
}

