import ASN1Lenient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit
import ByteText

/// Writes JSON straight into one byte buffer, in the exact bytes of `ReceiptJSON.serialize` (pretty
/// or compact): the caller gives members in sorted key order. Building a `[String: Any]` first and
/// serializing it cost most of a batch `json` run (a dictionary and a dynamic cast per value, a
/// string per date); reports with a fixed shape write through this instead, and values of no fixed
/// shape (`Any`) still go through `ReceiptJSON.serialize`'s writers, into the same buffer.
package struct JSONStreamWriter: ~Copyable {
    /// The document so far, in a buffer this writer owns. Appending to an `[UInt8]` checked
    /// uniqueness and capacity through a call per append, which cost more than the bytes written
    /// (a receipt's line makes several thousand appends).
    private var out: RawByteBuffer
    let compact: Bool
    /// The indentation of the innermost open container's members (pretty only).
    private var indent = 0
    private var depth = 0
    /// No member written yet in the innermost open container.
    private var first = true

    /// Where the document goes as it is written, when it is not kept whole: a full buffer is handed
    /// over and reused instead of growing (`json` of a 20,000-purchase receipt writes 60 MB).
    private let sink: ((UnsafeRawBufferPointer) -> Void)?
    /// Kept whole (no sink), a document past `spillFrom` bytes: the buffer's bytes each time it
    /// fills, in an array with room for the size expected, which `finishLine` hands over as it is.
    /// The buffer copied into an array at the end held a 50 MB receipt's 104 MB batch line twice,
    /// and growing it by doubling held it twice on the way (issue 32).
    private var spilled: [UInt8] = []
    /// The size the caller expects (`capacity`): the spilled array's first room.
    private let expected: Int
    /// Where a document kept whole leaves the buffer for `spilled`.
    static let spillFrom = 1 << 20

    /// `capacity`: the size expected (without a sink), or the size of the pieces handed to `sink`.
    package init(compact: Bool, capacity: Int = 1 << 14, sink: ((UnsafeRawBufferPointer) -> Void)? = nil) {
        self.compact = compact
        self.sink = sink
        expected = capacity
        out = RawByteBuffer(capacity: max(sink == nil ? min(capacity, Self.spillFrom) : capacity, 64))
    }

    deinit { out.deallocate() }

    /// The bytes written so far (a copy).
    var bytes: [UInt8] { spilled + out.bytes }

    /// Ends the document with a line break and hands its bytes over.
    package consuming func finishLine() -> [UInt8] {
        byte(0x0A)
        if spilled.isEmpty { return out.bytes }
        spilled.append(contentsOf: out.raw)
        return spilled
    }

    /// Ends the document with a line break and hands the rest of it to the sink.
    package consuming func finishStreamedLine() {
        byte(0x0A)
        if let sink { sink(out.raw) }
    }

    // MARK: bytes

    /// Room for `n` more bytes: with a sink, what is written goes out first. Every store takes its
    /// pointer after this, so handing the bytes over here is safe.
    @inline(__always)
    private mutating func reserve(_ n: Int) {
        if out.capacity &- out.count < n { makeRoom(n) }
    }

    @inline(never)
    private mutating func makeRoom(_ n: Int) {
        if let sink, out.count > 0 {
            sink(out.raw)
            out.count = 0
        } else if sink == nil, out.count >= Self.spillFrom {
            if spilled.isEmpty { spilled.reserveCapacity(max(expected, 2 * out.count)) }
            spilled.append(contentsOf: out.raw)
            out.count = 0
        }
        out.reserve(n)  // grows only for one piece larger than the buffer, or up to `spillFrom`
    }

    @inline(__always)
    private mutating func byte(_ b: UInt8) {
        reserve(1)
        out.put(b)
    }

    @inline(__always)
    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        out.putCopying(source, count: bytes.count)
    }

    private mutating func append(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { append($0) } }

    @inline(__always)
    private mutating func spaces(_ n: Int) {
        reserve(n &+ 7)  // `putSpaces` stores eight at a time
        out.putSpaces(n)
    }

    // MARK: structure

    package mutating func openObject() { open(0x7B) }
    package mutating func closeObject() { close(0x7D) }
    package mutating func openArray() { open(0x5B) }
    package mutating func closeArray() { close(0x5D) }

    /// Starts a member: `"key": ` (a comma and the line break before it when it is not the first).
    /// The key is one of ours, plain ASCII that needs no escape, so its bytes are copied as they
    /// are: escaping each constant key like any string was a fifth of a batch `json` line's cost.
    package mutating func key(_ key: StaticString) {
        assert(Self.isPlain(key), "a constant key must need no escape")
        key.withUTF8Buffer { member(quote: true, $0) }
    }

    /// Starts a member whose key is already a JSON string, quotes included (`JSONFieldKeys.quoted`).
    package mutating func key(quoted: [UInt8]) {
        quoted.withUnsafeBufferPointer { member(quote: false, $0) }
    }

    /// Starts a member whose key comes from the data (a product id): escaped like any string.
    package mutating func key(escaping key: String) {
        separate()
        string(key)
        colon()
    }

    private mutating func colon() {
        if compact { byte(0x3A) } else { byte(0x3A); byte(0x20) }
    }

    /// The separator, the key (in quotes when `quote`) and the colon: the writer's most frequent
    /// step (a receipt's line has about a thousand keys).
    private mutating func member(quote: Bool, _ key: UnsafeBufferPointer<UInt8>) {
        guard depth > 0, let source = key.baseAddress else {  // as `separate`, then the key
            separate()
            if quote { byte(0x22) }
            append(key)
            if quote { byte(0x22) }
            return colon()
        }
        // One capacity test, then the bytes: `,` `\n` and the indentation (pretty), the key, `:`.
        let lineBreak = !compact
        reserve(key.count + indent + 6)
        var p = out.base + out.count
        if !first { p.pointee = 0x2C; p += 1 }
        first = false
        if lineBreak {
            p.pointee = 0x0A
            p += 1
            var i = 0
            while indent - i >= 8 { UnsafeMutableRawPointer(p + i).storeBytes(of: 0x2020_2020_2020_2020 as UInt64, as: UInt64.self); i += 8 }
            while i < indent { p[i] = 0x20; i += 1 }
            p += indent
        }
        if quote { p.pointee = 0x22; p += 1 }
        let n = key.count
        RawByteBuffer.copySmall(source, p, n)
        p += n
        if quote { p.pointee = 0x22; p += 1 }
        p.pointee = 0x3A
        p += 1
        if lineBreak { p.pointee = 0x20; p += 1 }
        out.count = p - out.base
    }

    /// No byte of `s` needs a JSON or terminal escape (0x20...0x7E, neither `"` nor `\`).
    static func isPlain(_ s: StaticString) -> Bool {
        s.withUTF8Buffer { $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C } }
    }

    /// Starts an array element.
    package mutating func element() { separate() }

    private mutating func separate() {
        guard depth > 0 else { return }
        if !first { byte(0x2C) }
        first = false
        if !compact {
            byte(0x0A)
            spaces(indent)
        }
    }

    private mutating func open(_ bracket: UInt8) {
        byte(bracket)
        depth += 1
        indent += 2
        first = true
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        indent -= 2
        if !first && !compact {
            byte(0x0A)
            spaces(indent)
        }
        byte(bracket)
        first = false
    }

    // MARK: values

    /// `ReceiptJSON.writeString`'s bytes: copied whole when no byte needs a look (most strings),
    /// else escaped by it.
    package mutating func string(_ s: String) {
        var text = s
        let copied = text.withUTF8 { bytes -> Bool in
            guard ReceiptJSON.isPlain(bytes) else { return false }
            quoted(bytes)
            return true
        }
        if copied { return }
        var escaped: [UInt8] = []
        ReceiptJSON.writeString(s, into: &escaped)
        append(escaped)
    }

    /// A constant string of ours (`"passed"`, `"in_app"`): plain ASCII, copied without a look.
    package mutating func constant(_ s: StaticString) {
        assert(Self.isPlain(s), "a constant string must need no escape")
        s.withUTF8Buffer { quoted($0) }
    }

    /// `bytes` in quotes, one capacity test: the caller knows they need no escape.
    @inline(__always)
    private mutating func quoted(_ bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        reserve(n + 2)
        out.put(0x22)
        if let source = bytes.baseAddress { out.putCopying(source, count: n) }
        out.put(0x22)
    }

    /// A value that is already JSON text (a string quoted once, as `JSONFieldKeys.quoted`).
    package mutating func value(quoted json: UnsafeBufferPointer<UInt8>) { append(json) }

    /// The string `decoded()` returns, for bytes that decode to themselves when they are all plain
    /// ASCII (UTF-8, Latin-1 and the ASN.1 string types all do): such bytes are copied as they are,
    /// without building the `String`; any other byte calls `decoded()` and escapes its text.
    package mutating func string(_ bytes: UnsafeBufferPointer<UInt8>, decoded: () -> String) {
        if ReceiptJSON.isPlain(bytes) { quoted(bytes) } else { string(decoded()) }
    }

    @inline(__always)
    package mutating func int(_ value: Int) { int64(Int64(value)) }

    @inline(__always)
    package mutating func int64(_ value: Int64) {
        if value < 0 {
            guard value != .min else { append(Array(String(value).utf8)); return }
            byte(0x2D)
            digits(UInt64(-value))
        } else {
            digits(UInt64(value))
        }
    }

    /// `"02030298d8"`: `ReceiptJSON.hex`, quoted.
    package mutating func hex(_ bytes: ArraySlice<UInt8>) {
        reserve(bytes.count * 2 + 2)
        byte(0x22)
        Hex.lowerDigits.withUnsafeBufferPointer { digits in
            for b in bytes {
                out.put(digits[Int(b >> 4)])
                out.put(digits[Int(b & 0x0F)])
            }
        }
        byte(0x22)
    }

    package mutating func bool(_ value: Bool) { (value ? "true" : "false" as StaticString).withUTF8Buffer { append($0) } }

    /// A value of no fixed shape, as `ReceiptJSON.serialize` writes it.
    package mutating func any(_ value: Any) {
        var written: [UInt8] = []
        if compact { ReceiptJSON.writeCompact(value, into: &written) } else { ReceiptJSON.write(value, indent: indent, into: &written) }
        append(written)
    }

    /// `"2015-05-23T12:18:09.000Z"`: `VerificationJSON.date`, quoted, written in place for years
    /// 0000–9999 (a 120-purchase receipt's report has hundreds of dates).
    mutating func isoDate(_ d: Date) {
        let ms = ReceiptDate(d).epochMilliseconds
        reserve(26)
        out.base[out.count] = 0x22
        guard let n = ISO8601Text.write(epochMilliseconds: ms, fraction: .always, into: out.base + out.count + 1) else {
            return string(VerificationJSON.date(d))
        }
        out.base[out.count + 1 + n] = 0x22
        out.count += n + 2
    }

    /// `"1432383489000"`: `ReceiptDate.millisecondsString`, quoted.
    package mutating func millisecondsString(_ d: ReceiptDate) { quotedInt(d.epochMilliseconds) }

    /// `"170200"`: `String(value)` in quotes, as `verifyReceipt` writes numbers, without the `String`.
    package mutating func quotedInt(_ value: Int64) {
        byte(0x22)
        int64(value)
        byte(0x22)
    }

    /// `"2015-05-23 12:18:09 Etc/GMT"`: `ReceiptDate.gmtString`, without the intermediate strings.
    package mutating func gmtString(_ d: ReceiptDate) {
        civil(d.epochMilliseconds, offsetSeconds: 0, zone: " Etc/GMT", or: { d.gmtString })
    }

    /// `"2015-05-23 05:18:09 America/Los_Angeles"`: `ReceiptDate.pstString`.
    package mutating func pstString(_ d: ReceiptDate) {
        civil(d.epochMilliseconds, offsetSeconds: d.losAngelesOffsetSeconds, zone: " America/Los_Angeles", or: { d.pstString })
    }

    /// `ReceiptDate.civil` digit by digit for years 0000–9999; other instants take `general`'s string.
    private mutating func civil(_ ms: Int64, offsetSeconds: Int, zone: StaticString, or general: () -> String) {
        // 0000-01-01 and 10000-01-01 in ms, with a day's margin for the offset.
        guard ms > -62_167_219_200_000 + 86_400_000, ms < 253_402_300_800_000 - 86_400_000 else { return string(general()) }
        let seconds = (ms >= 0 ? ms / 1000 : (ms - 999) / 1000) + Int64(offsetSeconds)
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        let (y, m, d) = GregorianCalendar.date(days: Int(days))
        let h = Int(rest / 3600), mi = Int(rest % 3600 / 60), s = Int(rest % 60)
        // `"YYYY-MM-DD hh:mm:ss` is 20 bytes, stored after one capacity test.
        reserve(22 + zone.utf8CodeUnitCount)
        let p = out.base + out.count
        p[0] = 0x22
        RawByteBuffer.twoDigits(y / 100, p + 1); RawByteBuffer.twoDigits(y % 100, p + 3); p[5] = 0x2D
        RawByteBuffer.twoDigits(m, p + 6); p[8] = 0x2D
        RawByteBuffer.twoDigits(d, p + 9); p[11] = 0x20
        RawByteBuffer.twoDigits(h, p + 12); p[14] = 0x3A
        RawByteBuffer.twoDigits(mi, p + 15); p[17] = 0x3A
        RawByteBuffer.twoDigits(s, p + 18)
        out.count += 20
        out.put(zone)
        out.put(0x22)
    }

    /// `value` in decimal.
    private mutating func digits(_ value: UInt64) {
        reserve(20)
        out.putDecimal(value)
    }
}
