import ASN1Lenient
import Platform
import ByteText

/// Bytes being assembled by an output format. A value type with mutating methods, so the hot
/// loops of the writers pay no dynamic exclusivity checks (which a class property would).
public struct TextBuffer: Sendable {
    public var bytes: [UInt8] = []

    public init(capacity: Int = OutputWriter.chunkSize + 4096) { bytes.reserveCapacity(capacity) }

    public var count: Int { bytes.count }

    @inline(__always)
    public mutating func write(_ text: String) { bytes.append(contentsOf: text.utf8) }

    @inline(__always)
    public mutating func write(bytes more: [UInt8]) { bytes.append(contentsOf: more) }

    @inline(__always)
    public mutating func write(byte: UInt8) { bytes.append(byte) }

    /// Writes `count` copies of `byte`.
    @inline(__always)
    public mutating func write(repeating byte: UInt8, count: Int) {
        var n = count
        while n > 0 {
            bytes.append(byte)
            n -= 1
        }
    }

    /// Writes an integer in decimal, right-aligned in `width` columns (left-aligned when
    /// `leftAlign`), padded with spaces; never truncated.
    @inline(__always)
    public mutating func write(int value: Int, width: Int = 0, leftAlign: Bool = false) {
        let magnitude = UInt64(value.magnitude)
        let digits = RawByteBuffer.decimalDigitCount(magnitude)
        let total = digits + (value < 0 ? 1 : 0)
        if !leftAlign && total < width { write(repeating: 0x20, count: width - total) }
        if value < 0 { bytes.append(0x2D) }
        let start = bytes.count
        write(repeating: 0x30, count: digits)
        bytes.withUnsafeMutableBufferPointer { RawByteBuffer.writeDecimal(magnitude, endingAt: $0.baseAddress! + (start + digits)) }
        if leftAlign && total < width { write(repeating: 0x20, count: width - total) }
    }

    /// Writes bytes as upper-case hex digits, no separators.
    @inline(__always)
    public mutating func writeHex<C: Collection>(_ source: C) where C.Element == UInt8 {
        for b in source { Hex.append(b, to: &bytes, .upper) }
    }
}

/// Where output goes: a file descriptor written in 64 KB chunks, or memory (tests, the UI).
///
/// Formats assemble lines in a `TextBuffer` and hand it over with `drain(_:)` once it holds a
/// chunk, so a dump of a million nodes builds no `String` per node in its hot path. The
/// convenience `write` methods append to an internal buffer for code that is not hot.
public final class OutputWriter {
    public enum Destination: Sendable {
        case standardOutput
        case standardError
        case fileDescriptor(Int32)
        /// Everything is kept; read it back with `text` / `collected`.
        case memory
    }

    public static let chunkSize = 64 * 1024

    /// Bytes not yet flushed.
    public var buffer = TextBuffer()
    public let destination: Destination
    /// Everything written so far (memory destination only).
    public private(set) var collected: [UInt8] = []
    /// Set when a write to the file descriptor failed (for example a closed pipe).
    public private(set) var failed = false

    public init(_ destination: Destination) {
        self.destination = destination
    }

    deinit { flush() }

    /// Writes `text` out at once, whole (a message, a report made in one piece); as for every
    /// writer, a failed write (a closed pipe) is dropped.
    public static func write(_ text: String, to destination: Destination) {
        let writer = OutputWriter(destination)
        writer.write(text)
        writer.flush()
    }

    /// Writes `bytes` straight out, not through the buffer: a batch line of a 50 MB receipt is
    /// 104 MB (issue 32).
    public static func write(bytes: [UInt8], to destination: Destination) {
        let writer = OutputWriter(destination)
        bytes.withUnsafeBytes { writer.write(raw: $0) }
    }

    /// Writes `raw` straight out: a piece of a batch line its worker writes in its turn.
    public static func write(raw: UnsafeRawBufferPointer, to destination: Destination) {
        OutputWriter(destination).write(raw: raw)
    }

    /// The text written so far (memory destination), decoded as UTF-8.
    public var text: String {
        flush()
        return String(decoding: collected, as: UTF8.self)
    }

    /// Takes the bytes of `local` (and clears it), writing out once a chunk is full.
    @inline(__always)
    public func drain(_ local: inout TextBuffer, force: Bool = false) {
        guard force || local.bytes.count >= Self.chunkSize else { return }
        flush()
        emit(local.bytes)
        local.bytes.removeAll(keepingCapacity: true)
    }

    public func write(_ text: String) {
        buffer.write(text)
        lineDone()
    }

    public func write(bytes: [UInt8]) {
        buffer.write(bytes: bytes)
        lineDone()
    }

    public func write(byte: UInt8) { buffer.write(byte: byte) }

    public func write(repeating byte: UInt8, count: Int) { buffer.write(repeating: byte, count: count) }

    public func write(int value: Int, width: Int = 0, leftAlign: Bool = false) {
        buffer.write(int: value, width: width, leftAlign: leftAlign)
    }

    public func writeHex<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        buffer.writeHex(bytes)
        lineDone()
    }

    /// Flushes when the buffer holds a full chunk.
    @inline(__always)
    public func lineDone() {
        if buffer.bytes.count >= Self.chunkSize { flush() }
    }

    public func flush() {
        guard !buffer.bytes.isEmpty else { return }
        emit(buffer.bytes)
        buffer.bytes.removeAll(keepingCapacity: true)
    }

    /// Flushes pending bytes, then writes `raw` straight out (formats that assemble their lines
    /// in their own raw buffer hand over whole chunks this way).
    public func write(raw: UnsafeRawBufferPointer) {
        flush()
        emit(raw)
    }

    private func emit(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { emit($0) }
    }

    private func emit(_ raw: UnsafeRawBufferPointer) {
        guard raw.count > 0 else { return }
        let fd: Int32
        switch destination {
        case .memory:
            collected.append(contentsOf: raw)
            return
        case .standardOutput: fd = 1
        case .standardError: fd = 2
        case .fileDescriptor(let descriptor): fd = descriptor
        }
        guard !failed else { return }
        var offset = 0
        while offset < raw.count {
            let n = systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                failed = true
                return
            }
            offset += n
        }
    }
}
