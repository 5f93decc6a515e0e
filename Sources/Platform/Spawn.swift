/// Starting a program and waiting for it with posix_spawn(3). Its two state types are structs that
/// Swift zero-initialises on Glibc but optional pointers (`void *` typedefs) on Darwin, which
/// `posix_spawn_file_actions_init` allocates: the declarations below are the only difference.
public enum Spawn {
    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// A file opened read-only (`/dev/null` for none).
        case file(String)
        /// These bytes, written to a pipe the child reads.
        case bytes([UInt8])
    }

    /// Runs `path` with `arguments` (argv[0] is `path`) and exactly `environment`, stdout to
    /// `outputPath` (created or truncated; stderr goes there too) and waits for it. Signals are
    /// unblocked and at their default actions in the child. Returns the exit status (128 + the
    /// signal's number when a signal ended it, as a shell says) or the reason it could not start.
    public static func run(_ path: String, _ arguments: [String], environment: [String: String],
                           input: Input = .file("/dev/null"), outputPath: String = "/dev/null") -> Result<Int32, SpawnFailure> {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        var pipeEnds: [Int32] = [-1, -1]
        switch input {
        case let .file(inputPath):
            posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
        case .bytes:
            guard pipe(&pipeEnds) == 0 else { return .failure(SpawnFailure(path: path, code: errno)) }
            // Close-on-exec in this process, so no other child inherits them; dup2 clears it on fd 0.
            _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        if case let .bytes(bytes) = input {
            close(pipeEnds[0])
            if spawned == 0 { writeIgnoringPipeSignal(pipeEnds[1], bytes) }
            close(pipeEnds[1])
        }
        guard spawned == 0 else { return .failure(SpawnFailure(path: path, code: spawned)) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return .success(shellStatus(status))
    }

    /// A wait status as a shell's `$?`: the exit code, or 128 + the signal (the layout of
    /// WIFEXITED / WEXITSTATUS / WTERMSIG, macros Swift does not import, is the same on both).
    public static func shellStatus(_ status: Int32) -> Int32 {
        (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Writes all of `bytes`; a child that exits without reading them ends the write with EPIPE
    /// rather than this process with SIGPIPE.
    private static func writeIgnoringPipeSignal(_ fd: Int32, _ bytes: [UInt8]) {
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; return }
                offset += n
            }
        }
    }
}

/// posix_spawn's error number and the program it could not start.
public struct SpawnFailure: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let code: Int32
    public var description: String { "cannot start \(path): \(String(cString: strerror(code)))" }
}
