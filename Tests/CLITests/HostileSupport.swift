import Foundation
import Testing
import Platform

/// One run of the binary for the hostile-input tests: exit status, stderr, where stdout went, and the
/// child's own peak memory (`wait4`'s rusage of that child alone; see `Hostile.spawner`).
struct HostileRun {
    /// Exit status; -1 when the child was killed by a signal (see `signal`).
    var status: Int32
    var signal: Int32?
    var timedOut: Bool
    var stderr: String
    /// stdout went to this file (nil when it was discarded to /dev/null).
    var stdoutFile: URL?
    var stdoutSize: Int
    /// ru_maxrss of the child, in MiB (the field is KiB on Linux, bytes on macOS: `ResourceUsage`).
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

    /// The 100 MB and 50 MB cases run at full size only with HOSTILE_BIG=1, given by hand (neither
    /// CI nor Scripts/sanitize.sh sets it); otherwise the same cases and assertions run at
    /// `smallSize` to keep `swift test` fast.
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
    /// under AddressSanitizer: ×4 plus 768 MiB — its shadow memory (1/8 of everything mapped),
    /// redzones around every allocation (so the overhead grows with the allocations, not the bytes)
    /// and the 256 MiB allocator quarantine, which holds freed memory for as long as it has room.
    /// It varies from run to run: the 2 MB nested-header dump measured 450 MiB under ASan against
    /// 25.6 MiB without, and on 2026-11-30 the 8 MiB dense JSON measured 682.2 and then 732.4 MiB
    /// (its plain bound 55.1) and 8 MiB of base64-like text 714.6 (plain bound 62): ×3 + 512 was
    /// outgrown. The plain build holds the real bounds; this one only catches a blow-up.
    static func bound(base: Double, perInputByte: Double = 0, inputBytes: Int = 0) -> Double {
        let plain = base + perInputByte * Double(inputBytes) / 1_048_576
        return sanitized ? plain * 4 + 768 : plain
    }

    static func file(_ bytes: [UInt8], name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// Writes a large file in 1 MiB chunks; `fill` gets each chunk and the chunk's offset.
    static func largeFile(name: String, size: Int, fill: (inout [UInt8], Int) -> Void) throws -> URL {
        let url = directory.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
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

    /// The helper that starts the binary. Peak RSS cannot be taken from our own `posix_spawn` child:
    /// Linux keeps the larger of the pre-exec and post-exec high-water marks across execve, and a
    /// spawned (CLONE_VM) child's pre-exec memory is this test process's — every run would report the
    /// test runner's size. python3 (small) forks the binary and reports `wait4`'s ru_maxrss for it.
    static let spawner = """
        import os, signal, sys
        out, err, report, timeout = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
        cmd = sys.argv[5:]
        pid = os.fork()
        if pid == 0:
            os.dup2(os.open("/dev/null", os.O_RDONLY), 0)
            os.dup2(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 1)
            os.dup2(os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 2)
            try:
                os.execv(cmd[0], cmd)
            finally:
                os._exit(127)
        timed_out = [0]
        def expire(*_):
            timed_out[0] = 1
            os.kill(pid, signal.SIGKILL)
        signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        while True:
            try:
                _, status, usage = os.wait4(pid, 0)
                break
            except InterruptedError:
                continue
        signal.setitimer(signal.ITIMER_REAL, 0)
        code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1
        sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
        with open(report, "w") as f:
            f.write(f"{code} {sig} {usage.ru_maxrss} {timed_out[0]}\\n")
        """

    /// Runs the binary (through `spawner`): stdin from /dev/null, stdout to a file (or /dev/null),
    /// stderr to a file; kills it after `timeout` seconds.
    static func run(_ arguments: [String], discardStdout: Bool = false, timeout: Double = 300) throws -> HostileRun {
        let binary = try #require(cliBinary, "receipt-explorer binary not found next to the test bundle")
        let python = try #require(findTool("python3"), "python3 is needed to measure the child's memory")
        let tag = UUID().uuidString.prefix(8)
        let outURL = discardStdout ? nil : directory.appendingPathComponent("stdout-\(tag)")
        let errURL = directory.appendingPathComponent("stderr-\(tag)")
        let reportURL = directory.appendingPathComponent("report-\(tag)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", spawner, outURL?.path ?? "/dev/null", errURL.path, reportURL.path, String(timeout),
                             binary.path] + arguments
        // NO_COLOR and no terminal: plain text, as a pipe would get it.
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let start = Date()
        try process.run()
        process.waitUntilExit()
        let report = ((try? String(contentsOf: reportURL, encoding: .utf8)) ?? "").split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        remove(reportURL)
        try #require(report.count == 4, "the spawner failed (status \(process.terminationStatus))")
        let status = Int32(report[0]), signal = Int32(report[1]), maxrss = report[2], timedOut = report[3] != 0
        let signalled = signal != 0
        let seconds = Date().timeIntervalSince(start)
        let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        remove(errURL)
        let size = outURL.flatMap { (try? FileManager.default.attributesOfItem(atPath: $0.path))?[.size] as? Int } ?? 0
        let result = HostileRun(status: signalled ? -1 : status, signal: signalled ? signal : nil,
                                timedOut: timedOut, stderr: stderr, stdoutFile: outURL, stdoutSize: size,
                                peakMiB: Double(ResourceUsage.bytes(fromMaxResidentSet: maxrss)) / 1_048_576, seconds: seconds)
        log(arguments, result)
        return result
    }

    /// With HOSTILE_LOG=path, one line per run (arguments, status, peak MiB, seconds, input size) is
    /// appended there: the measurements behind docs/robustness.md.
    static func log(_ arguments: [String], _ run: HostileRun) {
        guard let path = ProcessInfo.processInfo.environment["HOSTILE_LOG"] else { return }
        let input = arguments.last.flatMap { (try? FileManager.default.attributesOfItem(atPath: $0))?[.size] as? Int } ?? 0
        let shown = arguments.map { $0.hasPrefix(directory.path) ? String($0.dropFirst(directory.path.count + 1)) : $0 }
        let line = "\(shown.joined(separator: " ").debugDescription)\tstatus \(run.status)\(run.signal.map { " signal \($0)" } ?? "")\tpeak \(String(format: "%.1f", run.peakMiB)) MiB\t\(String(format: "%.2f", run.seconds)) s\tinput \(input) bytes\n"
        if let handle = FileHandle(forWritingAtPath: path) {
            handle.seekToEndOfFile()
            handle.write(Data(line.utf8))
            try? handle.close()
        } else {
            _ = FileManager.default.createFile(atPath: path, contents: Data(line.utf8))
        }
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
