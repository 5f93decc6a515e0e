#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A byte buffer that the output formats append to, flushed to a file descriptor in 64 KB chunks
/// (or kept in memory for tests and for the terminal UI).
///
/// The writers append bytes and integers directly, so a dump of a million nodes builds no
/// `String` per node in its hot path.
public final class OutputWriter {
    public enum Destination: Sendable {
        case standardOutput
        case standardError
        case fileDescriptor(Int32)
        /// Everything is kept; read it back with `text` / `collected`.
        case memory
    }

    public static let chunkSize = 64 * 1024

    /// Bytes not yet flushed. Formats append to it directly.
    public var buffer: [UInt8] = []
    public let destination: Destination
    /// Everything written so far (memory destination only).
    public private(set) var collected: [UInt8] = []
    /// Set when a write to the file descriptor failed (for example a closed pipe).
    public private(set) var failed = false

    public init(_ destination: Destination) {
        self.destination = destination
        buffer.reserveCapacity(Self.chunkSize + 4096)
    }

    deinit { flush() }

    /// The text written so far (memory destination), decoded as UTF-8.
    public var text: String {
        flush()
        return String(decoding: collected, as: UTF8.self)
    }

    @inline(__always)
    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.chunkSize { flush() }
    }

    @inline(__always)
    public func write(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.chunkSize { flush() }
    }

    @inline(__always)
    public func write(byte: UInt8) { buffer.append(byte) }

    /// Writes `count` copies of `byte`.
    @inline(__always)
    public func write(repeating byte: UInt8, count: Int) {
        if count > 0 { buffer.append(contentsOf: repeatElement(byte, count: count)) }
    }

    /// Writes a non-negative or negative integer in decimal, right-aligned in `width` columns
    /// (or left-aligned when `leftAlign`), padded with spaces; never truncated.
    @inline(__always)
    public func write(int value: Int, width: Int = 0, leftAlign: Bool = false) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var magnitude = value.magnitude
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[count] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                magnitude /= 10
                count += 1
            } while magnitude > 0
            let total = count + (value < 0 ? 1 : 0)
            if !leftAlign && total < width { write(repeating: 0x20, count: width - total) }
            if value < 0 { buffer.append(0x2D) }
            var i = count
            while i > 0 {
                i -= 1
                buffer.append(raw[i])
            }
            if leftAlign && total < width { write(repeating: 0x20, count: width - total) }
        }
    }

    /// Writes bytes as upper-case hex digits, no separators.
    @inline(__always)
    public func writeHex<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        for b in bytes {
            buffer.append(TerminalSafe.hexDigits[Int(b >> 4)])
            buffer.append(TerminalSafe.hexDigits[Int(b & 0xF)])
            if buffer.count >= Self.chunkSize { flush() }
        }
    }

    /// Flushes when the buffer holds a full chunk; formats call this once per line.
    @inline(__always)
    public func lineDone() {
        if buffer.count >= Self.chunkSize { flush() }
    }

    public func flush() {
        guard !buffer.isEmpty else { return }
        let fd: Int32
        switch destination {
        case .memory:
            collected.append(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
            return
        case .standardOutput: fd = 1
        case .standardError: fd = 2
        case .fileDescriptor(let descriptor): fd = descriptor
        }
        if !failed {
            buffer.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = Glibc_write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        failed = true
                        return
                    }
                    offset += n
                }
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

@inline(__always)
private func Glibc_write(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    return Darwin.write(fd, pointer, count)
    #elseif canImport(Musl)
    return Musl.write(fd, pointer, count)
    #else
    return Glibc.write(fd, pointer, count)
    #endif
}

/// Decimal numbers with thousands separators ("5,162"), as every note and message prints them.
public enum NumberText {
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = value < 0 ? "-" : ""
        let first = digits.count % 3 == 0 ? 3 : digits.count % 3
        var i = 0
        for c in digits {
            if i > 0 && (i - first) % 3 == 0 { out.append(",") }
            out.append(c)
            i += 1
        }
        return out
    }
}
