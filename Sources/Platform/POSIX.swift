// Small POSIX calls with Swift types: the same names and meanings on Linux and macOS
// (write(2), open(2), isatty(3), getenv(3), setlocale(3), strerror(3)).
/// Small POSIX calls the adapter needs, with Swift types.
public enum POSIX {
    public static let standardInput: Int32 = 0
    public static let standardOutput: Int32 = 1

    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    public static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// Takes the character set (and so UTF-8 support) from LANG / LC_*; curses needs it for wide
    /// characters.
    public static func adoptEnvironmentLocale() { _ = setlocale(LC_ALL, "") }

    /// The text of the current `errno`.
    public static func lastError() -> String { String(cString: strerror(errno)) }

    public static var interrupted: Bool { errno == EINTR }

    /// Writes all of `bytes` to `fd`, retrying after signals. Returns nil or a reason.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> String? {
        var offset = 0
        return bytes.withUnsafeBytes { buffer -> String? in
            while offset < buffer.count {
                let n = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return lastError()
                }
                offset += n
            }
            return nil
        }
    }

    /// A new file (never an existing one), for writing; nil and a reason when it cannot be made.
    public static func createNewFile(_ path: String) -> (fd: Int32?, error: String?) {
        let fd = systemOpen(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        return fd >= 0 ? (fd, nil) : (nil, lastError())
    }

    /// A file only its owner can read or write, for writing from its start: made, or an existing
    /// one emptied and its permissions narrowed to the owner's (open's mode applies only to a new
    /// file). Nil and a reason when it cannot be opened.
    public static func createPrivateFile(_ path: String) -> (fd: Int32?, error: String?) {
        let fd = systemOpen(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return (nil, lastError()) }
        guard fchmod(fd, 0o600) == 0 else {
            let reason = lastError()
            _ = systemClose(fd)
            return (nil, reason)
        }
        return (fd, nil)
    }

    public static func close(_ fd: Int32) -> String? {
        systemClose(fd) == 0 ? nil : lastError()
    }
}

/// The process's environment. `environ` is a plain global in Glibc; Darwin does not export it to
/// programs (only to the main executable's link), so crt_externs.h's `_NSGetEnviron()` reaches it.
public enum ProcessEnvironment {
    public static func current() -> [String: String] {
        var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        #if canImport(Darwin)
        entry = _NSGetEnviron().pointee
        #else
        entry = environ
        #endif
        var result: [String: String] = [:]
        while let pointer = entry?.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") { result[String(text[..<equals])] = String(text[text.index(after: equals)...]) }
            entry = entry.map { $0 + 1 }
        }
        return result
    }
}

/// The running executable's path: the /proc/self/exe link on Linux; macOS has no /proc, and
/// dyld's `_NSGetExecutablePath` (mach-o/dyld.h) gives it there.
public enum ExecutablePath {
    public static func current() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        #if canImport(Darwin)
        var size = UInt32(buffer.count)
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        let length = buffer.firstIndex(of: 0) ?? buffer.count
        #else
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        #endif
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
