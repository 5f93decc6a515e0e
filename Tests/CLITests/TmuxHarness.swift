import Foundation
import Platform
import Testing

/// tmux, when installed (`.ci/run` installs it); the end-to-end tests skip without it.
let tmuxPath: String? = findTool("tmux")

/// Runs the real `receipt-explorer` binary inside a detached tmux session on a private tmux server
/// (`tmux -S <temp dir>/tmux.sock`, so a developer's own tmux is never touched and no socket is left
/// behind), through a small shell wrapper
/// that records `stty -g` before and after the run and the exit status. Screens are read with
/// `capture-pane -p`; every wait polls with a deadline instead of sleeping.
final class TmuxHarness {
    let socket: String
    let session = "explorer"
    let directory: URL
    private(set) var started = false

    /// How long a wait polls before it gives up. A wait returns as soon as its screen appears, so
    /// a long limit costs nothing when all is well; under a sanitizer, with the whole suite running
    /// in parallel on two cores, the instrumented binary can take many seconds to draw.
    static let patience: Double = ProcessInfo.processInfo.environment["HOSTILE_SANITIZER"].map { $0.isEmpty ? 20 : 90 } ?? 20

    /// - Parameters:
    ///   - arguments: the binary's arguments (relative paths are relative to the package root).
    ///   - stdoutToFile: redirect the binary's stdout to a file (stdin stays the terminal).
    init(arguments: [String], width: Int = 120, height: Int = 40, environment: [String: String] = [:],
         stdoutToFile: Bool = false) throws {
        let tmux = try #require(tmuxPath, "tmux is not installed")
        let binary = try #require(cliBinary, "receipt-explorer binary not found next to the test bundle")
        let id = UUID().uuidString.prefix(8).lowercased()
        directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("tmux-e2e-\(id)")
        socket = directory.appendingPathComponent("tmux.sock").path
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

        // TERM=screen as tmux's default-terminal has long been; newer tmux (and Homebrew's) says
        // tmux-256color, which macOS's terminfo lacks (the explorer then draws as screen-256color and
        // says so: `unknownTerminalFallsBack`). A UTF-8 locale that exists here (`Locales.utf8`).
        var env = ["LC_ALL": Locales.utf8, "LANG": Locales.utf8, "TERM": "screen"]
        for (key, value) in environment { env[key] = value }
        let exports = env.keys.sorted().map { "export \($0)=\(Self.quote(env[$0]!))" }.joined(separator: "\n")
        let command = ([binary.path] + arguments).map(Self.quote).joined(separator: " ")
            + (stdoutToFile ? " > \(Self.quote(file("stdout").path))" : "")
            + " 2> \(Self.quote(file("stderr").path))"
        let script = """
            #!/bin/sh
            # Job control, as in an interactive shell: the binary gets its own foreground process
            # group, so Ctrl-Z really stops it (in an orphaned group the kernel would discard the
            # stop) and the shell sees it stopped (status 128 + SIGTSTP: 148 on Linux, 146 on macOS),
            # records `stty -g` and resumes it
            # with `fg` once the test creates the file "resume".
            set -m
            trap ':' INT QUIT TSTP
            ulimit -c 0
            cd \(Self.quote(cliPackageRoot.path)) || exit 99
            echo $$ > \(Self.quote(file("wrapper.pid").path))
            stty -g > \(Self.quote(file("stty.before").path))
            \(exports)
            \(command)
            status=$?
            while [ $status -eq \(SignalNumbers.stoppedJobStatus) ]; do
                # Written whole, then renamed: the test must never read a half-written file.
                stty -g > \(Self.quote(file("stty.suspended.tmp").path)) && mv \(Self.quote(file("stty.suspended.tmp").path)) \(Self.quote(file("stty.suspended").path))
                while [ ! -e \(Self.quote(file("resume").path)) ]; do sleep 0.05; done
                rm -f \(Self.quote(file("resume").path))
                fg > /dev/null
                status=$?
            done
            stty -g > \(Self.quote(file("stty.after").path))
            echo $status > \(Self.quote(file("status.tmp").path))
            mv \(Self.quote(file("status.tmp").path)) \(Self.quote(file("status").path))
            exec sleep 600
            """
        let wrapper = file("run.sh")
        try script.write(to: wrapper, atomically: true, encoding: .utf8)
        let result = try Self.run(tmux, ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)",
                                         "-s", session, "/bin/sh " + Self.quote(wrapper.path)])
        try #require(result.status == 0, "tmux new-session failed: \(result.output)")
        started = true
    }

    deinit { close() }

    func close() {
        guard started, let tmux = tmuxPath else { return }
        started = false
        _ = try? Self.run(tmux, ["-S", socket, "kill-server"])
        try? FileManager.default.removeItem(at: directory)
    }

    func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    // MARK: Driving

    /// `send-keys` with tmux key names (`j`, `Enter`, `Tab`, `Escape`, `C-c`, …).
    func send(_ keys: String...) throws {
        let result = try Self.run(tmuxPath!, ["-S", socket, "send-keys", "-t", session] + keys)
        try #require(result.status == 0, "send-keys failed: \(result.output)")
    }

    /// Any other tmux command on this server (`show-buffer`, `set-option …`); returns its output.
    @discardableResult
    func command(_ arguments: String...) throws -> String {
        let result = try Self.run(tmuxPath!, ["-S", socket] + arguments)
        try #require(result.status == 0, "tmux \(arguments.joined(separator: " ")) failed: \(result.output)")
        return result.output
    }

    /// Types text literally.
    func type(_ text: String) throws {
        let result = try Self.run(tmuxPath!, ["-S", socket, "send-keys", "-t", session, "-l", text])
        try #require(result.status == 0, "send-keys -l failed: \(result.output)")
    }

    /// A left click at (x, y), 0-based, in the X10 mouse encoding ncurses reads for TERM=screen.
    func click(x: Int, y: Int) throws {
        try type("\u{1B}[M" + String(UnicodeScalar(UInt8(32 + 0))) + String(UnicodeScalar(UInt8(33 + x)))
                 + String(UnicodeScalar(UInt8(33 + y))))
    }

    /// The process state letter of `pid` from /proc ("S" sleeping, "T" stopped, …).
    static func processState(_ pid: pid_t) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init)
    }

    func resize(width: Int, height: Int) throws {
        let result = try Self.run(tmuxPath!, ["-S", socket, "resize-window", "-t", session, "-x", "\(width)", "-y", "\(height)"])
        try #require(result.status == 0, "resize-window failed: \(result.output)")
    }

    /// The visible screen, one line per row without the final newline (tmux trims trailing spaces).
    func screen() -> String {
        var text = (try? Self.run(tmuxPath!, ["-S", socket, "capture-pane", "-p", "-t", session]).output) ?? ""
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Polls the screen until `predicate` holds; returns the matching screen, or records an issue
    /// (with the last screen) and returns nil after `timeout`.
    ///
    /// A matching screen is returned once it has settled: a slow machine can show a frame half
    /// drawn (tmux renders the bytes it has), whose first rows already match while the rest is the
    /// frame before (CI once read a help page that way). So a match is looked at again `quiet`
    /// seconds later and returned when unchanged; when the next look no longer matches, the match
    /// was a passing state and is returned as it was; a screen that keeps changing while it matches
    /// is returned after a second.
    @discardableResult
    func waitForScreen(_ what: String, timeout: Double = TmuxHarness.patience, quiet: Double = 0.05,
                       sourceLocation: SourceLocation = #_sourceLocation, _ predicate: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        var matching: (screen: String, since: Date)?
        repeat {
            last = screen()
            if predicate(last) {
                if let m = matching, m.screen == last || Date().timeIntervalSince(m.since) > 1 { return last }
                matching = (last, matching?.since ?? Date())
                Thread.sleep(forTimeInterval: quiet)
                continue
            }
            if let m = matching { return m.screen }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        if let m = matching { return m.screen }
        Issue.record("timed out after \(timeout) s waiting for \(what); the screen was:\n\(last)\nstderr: \(stderr())",
                     sourceLocation: sourceLocation)
        return nil
    }

    /// Waits until the screen's lines include one equal to `line`.
    @discardableResult
    func waitForLine(_ line: String, timeout: Double = TmuxHarness.patience, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        waitForScreen("the line \"\(line)\"", timeout: timeout, sourceLocation: sourceLocation) {
            $0.split(separator: "\n", omittingEmptySubsequences: false).contains { $0 == line }
        }
    }

    /// Waits until the screen contains `text`.
    @discardableResult
    func waitForText(_ text: String, timeout: Double = TmuxHarness.patience, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        waitForScreen("\"\(text)\"", timeout: timeout, sourceLocation: sourceLocation) { $0.contains(text) }
    }

    /// The binary's exit status once the wrapper recorded it (nil on timeout). 128+N: signal N.
    func waitForExit(timeout: Double = TmuxHarness.patience) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let text = try? String(contentsOf: file("status"), encoding: .utf8),
               let status = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return status
            }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return nil
    }

    var sttyBefore: String? { try? String(contentsOf: file("stty.before"), encoding: .utf8) }
    /// `stty -g` while the binary was stopped by Ctrl-Z (the wrapper records it, then waits for `resume()`).
    /// The shell may print "Stopped" before the wrapper has recorded the modes, so this waits for the
    /// file (nil after the harness's patience).
    var sttySuspended: String? {
        let deadline = Date().addingTimeInterval(TmuxHarness.patience)
        repeat {
            if let text = try? String(contentsOf: file("stty.suspended"), encoding: .utf8) { return text }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return nil
    }
    /// Lets the wrapper `fg` the stopped binary.
    func resume() throws { try Data().write(to: file("resume")) }
    var sttyAfter: String? { try? String(contentsOf: file("stty.after"), encoding: .utf8) }
    func stderr() -> String { (try? String(contentsOf: file("stderr"), encoding: .utf8)) ?? "" }
    func stdout() -> String { (try? String(contentsOf: file("stdout"), encoding: .utf8)) ?? "" }

    /// The running binary's pid: the wrapper shell's child (found through /proc, no pgrep needed).
    func binaryPID(timeout: Double = TmuxHarness.patience) -> pid_t? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let text = try? String(contentsOf: file("wrapper.pid"), encoding: .utf8),
               let wrapper = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
               let child = Self.children(of: wrapper).first {
                return child
            }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return nil
    }

    // MARK: Helpers

    static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name -> pid_t? in
            guard let pid = pid_t(name),
                  let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After "pid (comm) ": state, then ppid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, pid_t(fields[1]) == parent else { return nil }
            return pid
        }
    }

    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Runs tmux without a terminal and waits for it. posix_spawn + waitpid instead of Foundation's
    /// Process (whose exit monitoring hung here once the tmux client had forked its server): a
    /// blocking waitpid, a clean signal mask and default signal actions for tmux (and so for the
    /// server and the binary it starts), and output through a file rather than a pipe that the
    /// long-lived server could keep open.
    static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil
        environment["TMUX_PANE"] = nil
        // capture-pane writes UTF-8 only for a UTF-8 client locale (else box drawing becomes "_").
        environment["LC_ALL"] = Locales.utf8
        let status = try Spawn.run(path, arguments, environment: environment, outputPath: output.path).get()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return (status, text)
    }
}

extension String {
    /// The screen's last non-empty line: the status bar.
    var statusBar: String {
        split(separator: "\n", omittingEmptySubsequences: true).last.map(String.init) ?? ""
    }

    var firstLine: String { split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? "" }
}
