import Foundation
import TestSupport

/// Scripts/storekit-standin.py, started on 127.0.0.1 (a free port) by the test that uses it and
/// stopped by it: its own throwaway key, request log and served bodies in a fresh directory.
final class StandInServer {
    static let script = Paths.packageRoot.appendingPathComponent("Scripts/storekit-standin.py")
    /// python3 with the `cryptography` package (.ci/run installs it).
    static let available: Bool = {
        guard let python = findTool("python3") else { return false }
        return (try? runTool(python, ["-c", "import cryptography"]).status) == 0
    }()
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"
    static let bundleID = "com.example.standin"
    static let root = Paths.samples.appendingPathComponent("pki/test-ec-root.cer").path

    let process = Process()
    let directory: URL
    let port: Int
    let keyPath: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("standin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        process.executableURL = URL(fileURLWithPath: findTool("python3")!)
        process.arguments = [Self.script.path, "--workdir", directory.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line is {"port", "key", …}; read byte by byte so nothing past it is consumed.
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), let b = byte.first, b != 0x0A { line.append(b) }
        let info = try JSONSerialization.jsonObject(with: line) as? [String: Any] ?? [:]
        guard let port = info["port"] as? Int, let key = info["key"] as? String else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
        keyPath = key
    }

    deinit { stop() }

    /// SIGKILL: the test process blocks SIGTERM in its threads and children inherit the mask, so
    /// `terminate()` alone can leave the server running (and `waitUntilExit` waiting).
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The options every call takes: the stand-in's key, issuer and bundle id, sandbox, its URL, its test root.
    func options(_ path: String = "") -> [String] {
        ["--key", keyPath, "--issuer", Self.issuer, "--bundle-id", Self.bundleID, "--environment", "sandbox",
         "--base-url", baseURL + path, "--root", Self.root]
    }

    struct Request {
        var method: String
        var path: String
        var query: [[String]]
        var body: String?
        var headers: [String: String]
        var tokenHeader: [String: Any]
        var claims: [String: Any]
        var status: Int?
        var served: String?
        var authorization: String?
    }

    /// Every request so far, in order.
    func requests() throws -> [Request] {
        let log = directory.appendingPathComponent("requests.jsonl")
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { line in
            let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            return Request(method: o["method"] as? String ?? "", path: o["path"] as? String ?? "", query: o["query"] as? [[String]] ?? [],
                           body: o["body"] as? String, headers: o["headers"] as? [String: String] ?? [:],
                           tokenHeader: o["token_header"] as? [String: Any] ?? [:], claims: o["claims"] as? [String: Any] ?? [:],
                           status: o["status"] as? Int, served: o["served"] as? String, authorization: o["authorization"] as? String)
        }
    }

    /// The bytes the server sent for a logged request.
    func served(_ request: Request) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent("served").appendingPathComponent(request.served ?? "-"))
    }
}
