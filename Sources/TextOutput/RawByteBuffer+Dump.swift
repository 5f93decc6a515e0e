import ASN1Lenient
import ByteText

// The dump formats' (tree, openssl, json) rules on ByteText's `RawByteBuffer`, which each line is
// assembled in: padded decimals, upper-case hex, draining to the output in chunks.

extension RawByteBuffer {
    /// `value` in decimal, padded with spaces to `width` columns (reserve `width` + 20).
    @inline(__always)
    mutating func decimal(_ value: UInt, width: Int = 0, leftAlign: Bool = false) {
        let digits = Self.decimalDigitCount(UInt64(value))
        if !leftAlign { putSpaces(width &- digits) }
        Self.writeDecimal(UInt64(value), endingAt: base + (count &+ digits))
        count &+= digits
        if leftAlign { putSpaces(width &- digits) }
    }

    /// Upper-case hex digits of `source`, no separators (reserves its own room).
    @inline(__always)
    mutating func hex(_ source: UnsafeBufferPointer<UInt8>) {
        reserve(source.count &* 2)
        let digits = ("0123456789ABCDEF" as StaticString).utf8Start
        for b in source {
            base[count] = digits[Int(b >> 4)]
            base[count &+ 1] = digits[Int(b & 0xF)]
            count &+= 2
        }
    }

    /// Copies the UTF-8 of `text` (reserves its own room).
    @inline(__always)
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            reserve(utf8.count)
            if let start = utf8.baseAddress { put(start, count: utf8.count) }
        }
    }

    /// Hands the bytes to `out` once a chunk is full (or always, with `force`).
    @inline(__always)
    mutating func drain(to out: OutputWriter, force: Bool = false) {
        if force || count >= OutputWriter.chunkSize {
            out.write(raw: raw)
            count = 0
        }
    }

    /// Copies `bytes` (reserves its own room).
    @inline(__always)
    mutating func append(_ bytes: [UInt8]) {
        reserve(bytes.count)
        bytes.withUnsafeBufferPointer { put($0.baseAddress!, count: $0.count) }
    }
}
