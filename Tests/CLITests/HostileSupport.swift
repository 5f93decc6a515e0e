import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// One run of the binary for the hostile-input tests: exit status, stderr, where stdout went, and the
/// child's own peak memory (`wait4`'s rusage, so other tests' children never pollute it).
struct HostileRun {
    /// Exit status; -1 when the child was killed by a signal (see `signal`).
    var status: Int32
    var signal: Int32?
    var timedOut: Bool
    var stderr: String
    /// stdout went to this file (nil when it was discarded to /dev/null).
    var stdoutFile: URL?
    var stdoutSize: Int
    /// ru_maxrss of the child, in MiB.
    var peakMiB: Double
    var seconds: Double

    /// The first `limit` bytes of stdout.
    func stdoutBytes(limit: Int = 16 << 20) -> [UInt8] {
        guard let url = stdoutFile, let handle = try? FileHandle(forReadingFrom: url) else { return [] }
        defer { try? handle.close() }
        return Array((try? handle.read(upToCount: limit)) ?? Data())
    }

    var stdout: String { String(decoding: stdoutBytes(), as: UTF8.self) }

    var summary: String {
        "status \(status)\(signal.map { " signal \($0)" } ?? "")\(timedOut ? " TIMED OUT" : ""), peak \(String(format: "%.1f", peakMiB)) MiB, \(String(format: "%.2f", seconds)) s, stdout \(stdoutSize) bytes, stderr \(stderr.debugDescription.prefix(400))"
    }
}

enum Hostile {
    /// One scratch directory per test process; removed by `cleanUp` in each test that made big files.
    static let directory: URL = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }()

    /// The 100 MB and 50 MB cases run at full size only with HOSTILE_BIG=1 (Scripts/sanitize.sh and
    /// CI set it); otherwise the same cases and assertions run at `smallSize` to keep `swift test` fast.
    static let big = ProcessInfo.processInfo.environment["HOSTILE_BIG"] == "1"
    static let smallSize = 8 << 20

    /// True when the binary was built with AddressSanitizer (`swift test --sanitize=address`): its
    /// shadow memory and quarantine add a large, input-independent overhead to every RSS figure.
    static let sanitized: Bool = {
        if let value = ProcessInfo.processInfo.environment["HOSTILE_SANITIZER"] { return !value.isEmpty }
        guard let binary = cliBinary, let data = try? Data(contentsOf: binary, options: .alwaysMapped) else { return false }
        return data.range(of: Data("__asan_init".utf8)) != nil
    }()

    /// Memory bound for a run: `base` MiB for the runtime plus `perInputByte` × the input size;
    /// under AddressSanitizer: ×3 plus 256 MiB (its shadow memory and allocator quarantine).
    static func bound(base: Double, perInputByte: Double = 0, inputBytes: Int = 0) -> Double {
        let plain = base + perInputByte * Double(inputBytes) / 1_048_576
        return sanitized ? plain * 3 + 256 : plain
    }

    static func file(_ bytes: [UInt8], name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// Writes a large file in 1 MiB chunks; `fill` gets each chunk and the chunk's offset.
    static func largeFile(name: String, size: Int, fill: (inout [UInt8], Int) -> Void) throws -> URL {
        let url = directory.appendingPathComponent(name)
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var offset = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while offset < size {
            let n = min(chunk.count, size - offset)
            if n < chunk.count { chunk = [UInt8](repeating: 0, count: n) }
            fill(&chunk, offset)
            try handle.write(contentsOf: chunk)
            offset += n
        }
        return url
    }

    /// 1,234,567 (how the binary prints sizes).
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return out
    }

    static func remove(_ url: URL) { try? FileManager.default.removeItem(at: url) }

    /// Runs the binary with posix_spawn: stdin from /dev/null, stdout to a file (or /dev/null), stderr
    /// to a file. Waits with `wait4` for the child's own rusage; kills it after `timeout` seconds.
    static func run(_ arguments: [String], discardStdout: Bool = false, timeout: Double = 300) throws -> HostileRun {
        let binary = try #require(cliBinary, "receipt-explorer binary not found next to the test bundle")
        let tag = UUID().uuidString.prefix(8)
        let outURL = discardStdout ? nil : directory.appendingPathComponent("stdout-\(tag)")
        let errURL = directory.appendingPathComponent("stderr-\(tag)")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outURL?.path ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // NO_COLOR and no terminal: plain text, as a pipe would get it.
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        let argv = ([binary.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let start = Date()
        let spawned = posix_spawn(&pid, binary.path, &actions, nil, argv, envp)
        try #require(spawned == 0, "posix_spawn failed: \(spawned)")
        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        while true {
            let r = wait4(pid, &status, WNOHANG, &usage)
            if r == pid { break }
            if r < 0 && errno != EINTR { Issue.record("wait4 failed: errno \(errno)"); break }
            if Date().timeIntervalSince(start) > timeout && !timedOut {
                timedOut = true
                kill(pid, SIGKILL)
            }
            usleep(5_000)
        }
        let seconds = Date().timeIntervalSince(start)
        let signalled = status & 0x7F != 0
        let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        remove(errURL)
        let size = outURL.flatMap { (try? FileManager.default.attributesOfItem(atPath: $0.path))?[.size] as? Int } ?? 0
        return HostileRun(status: signalled ? -1 : (status >> 8) & 0xFF, signal: signalled ? status & 0x7F : nil,
                          timedOut: timedOut, stderr: stderr, stdoutFile: outURL, stdoutSize: size,
                          peakMiB: Double(usage.ru_maxrss) / 1024, seconds: seconds)
    }

    /// Problems that would let input bytes drive a terminal: a raw ESC, BEL or NUL byte; text that is
    /// not valid UTF-8 (a lone 0x9B byte is CSI on 8-bit terminals); the C1 control U+009B; the bidi
    /// override U+202E. Empty when the text is safe.
    static func terminalProblems(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        for (name, byte) in [("ESC", UInt8(0x1B)), ("BEL", 0x07), ("NUL", 0x00)] {
            if let i = bytes.firstIndex(of: byte) { problems.append("raw \(name) (0x\(String(byte, radix: 16))) at byte \(i)") }
        }
        guard let text = strictUTF8(bytes) else {
            problems.append("output is not valid UTF-8")
            return problems
        }
        for scalar in text.unicodeScalars where scalar.value == 0x9B || scalar.value == 0x202E || scalar.value == 0x9D {
            problems.append("raw U+\(String(scalar.value, radix: 16, uppercase: true))")
        }
        return problems
    }

    /// Strict UTF-8 decoding of bytes that may contain NUL (reported separately); nil when invalid.
    static func strictUTF8(_ bytes: [UInt8]) -> String? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var scalars = String.UnicodeScalarView()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): scalars.append(s)
            case .emptyInput: return String(scalars)
            case .error: return nil
            }
        }
    }
}
