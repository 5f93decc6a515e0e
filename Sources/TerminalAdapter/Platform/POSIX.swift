// The one place the adapter names its C library. Linux (Glibc) and macOS (Darwin) both provide
// every call used here under the same POSIX names (write(2), open(2), isatty(3), getenv(3),
// setlocale(3), strerror(3)); only the module differs, and `Darwin.write` vs `Glibc.write` must never
// be spelled out elsewhere.
#if canImport(Glibc)
import Glibc
private let cWrite = Glibc.write
private let cOpen: @Sendable (UnsafePointer<CChar>, Int32, mode_t) -> Int32 = { Glibc.open($0, $1, $2) }
#elseif canImport(Darwin)
import Darwin
private let cWrite = Darwin.write
private let cOpen: @Sendable (UnsafePointer<CChar>, Int32, mode_t) -> Int32 = { Darwin.open($0, $1, $2) }
#endif

/// Small POSIX calls the adapter needs, with Swift types.
enum POSIX {
    static let standardInput: Int32 = 0
    static let standardOutput: Int32 = 1

    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// Takes the character set (and so UTF-8 support) from LANG / LC_*; curses needs it for wide
    /// characters.
    static func adoptEnvironmentLocale() { _ = setlocale(LC_ALL, "") }

    /// The text of the current `errno`.
    static func lastError() -> String { String(cString: strerror(errno)) }

    static var interrupted: Bool { errno == EINTR }

    /// Writes all of `bytes` to `fd`, retrying after signals. Returns nil or a reason.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> String? {
        var offset = 0
        return bytes.withUnsafeBytes { buffer -> String? in
            while offset < buffer.count {
                let n = cWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
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
    static func createNewFile(_ path: String) -> (fd: Int32?, error: String?) {
        let fd = cOpen(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        return fd >= 0 ? (fd, nil) : (nil, lastError())
    }

    static func close(_ fd: Int32) -> String? {
        #if canImport(Glibc)
        return Glibc.close(fd) == 0 ? nil : lastError()
        #else
        return Darwin.close(fd) == 0 ? nil : lastError()
        #endif
    }
}
