import ASN1Lenient
import ReceiptKit
import ByteText

/// Writes JSON straight into one byte buffer, in the exact bytes of `ReceiptJSON.serialize` (pretty
/// or compact): the caller gives members in sorted key order. Building a `[String: Any]` first and
/// serializing it cost most of a batch `json` run (a dictionary and a dynamic cast per value, a
/// string per date); reports with a fixed shape write through this instead, and values of no fixed
/// shape (`Any`) still go through `ReceiptJSON.serialize`'s writers, into the same buffer.
struct JSONStreamWriter {
    var out: [UInt8] = []
    let compact: Bool
    /// The indentation of the innermost open container's members (pretty only).
    private var indent = 0
    private var depth = 0
    /// No member written yet in the innermost open container.
    private var first = true

    init(compact: Bool, capacity: Int = 1 << 14) {
        self.compact = compact
        out.reserveCapacity(capacity)
    }

    // MARK: structure

    mutating func openObject() { open(0x7B) }
    mutating func closeObject() { close(0x7D) }
    mutating func openArray() { open(0x5B) }
    mutating func closeArray() { close(0x5D) }

    /// Starts a member: `"key": ` (a comma and the line break before it when it is not the first).
    /// The key is one of ours, plain ASCII that needs no escape, so its bytes are copied as they
    /// are: escaping each constant key like any string was a fifth of a batch `json` line's cost.
    mutating func key(_ key: StaticString) {
        assert(Self.isPlain(key), "a constant key must need no escape")
        key.withUTF8Buffer { member(quote: true, $0) }
    }

    /// Starts a member whose key is already a JSON string, quotes included (`JSONFieldKeys.quoted`).
    mutating func key(quoted: [UInt8]) {
        quoted.withUnsafeBufferPointer { member(quote: false, $0) }
    }

    /// Starts a member whose key comes from the data (a product id): escaped like any string.
    mutating func key(escaping key: String) {
        separate()
        ReceiptJSON.writeString(key, into: &out)
        if compact { out.append(0x3A) } else { out.append(0x3A); out.append(0x20) }
    }

    /// The separator, the key (in quotes when `quote`) and the colon in one append: the writer's
    /// most frequent step (a receipt's line has about a thousand keys), a byte at a time cost more.
    private mutating func member(quote: Bool, _ key: UnsafeBufferPointer<UInt8>) {
        // As `separate`: nothing before a member at the top level (depth 0).
        let comma = depth > 0 && !first
        let lineBreak = depth > 0 && !compact
        if depth > 0 { first = false }
        let length = 1 + (lineBreak ? 1 + indent : 0) + key.count + 2 + 2
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer in
            guard var p = buffer.baseAddress else { return }
            if comma { p.pointee = 0x2C; p += 1 }
            if lineBreak {
                p.pointee = 0x0A
                p += 1
                p.initialize(repeating: 0x20, count: indent)
                p += indent
            }
            if quote { p.pointee = 0x22; p += 1 }
            if let base = key.baseAddress { p.initialize(from: base, count: key.count) }
            p += key.count
            if quote { p.pointee = 0x22; p += 1 }
            p.pointee = 0x3A
            p += 1
            if !compact { p.pointee = 0x20; p += 1 }
            out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: buffer.baseAddress.map { p - $0 } ?? 0))
        }
    }

    /// No byte of `s` needs a JSON or terminal escape (0x20...0x7E, neither `"` nor `\`).
    static func isPlain(_ s: StaticString) -> Bool {
        s.withUTF8Buffer { $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C } }
    }

    /// Starts an array element.
    mutating func element() { separate() }

    private mutating func separate() {
        guard depth > 0 else { return }
        if !first { out.append(0x2C) }
        first = false
        if !compact {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(0x20, count: indent))  // one append, not one a space
        }
    }

    private mutating func open(_ bracket: UInt8) {
        out.append(bracket)
        depth += 1
        indent += 2
        first = true
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        indent -= 2
        if !first && !compact {
            out.append(0x0A)
            for _ in 0..<indent { out.append(0x20) }
        }
        out.append(bracket)
        first = false
    }

    // MARK: values

    mutating func string(_ s: String) { ReceiptJSON.writeString(s, into: &out) }

    /// A constant string of ours (`"passed"`, `"in_app"`): plain ASCII, copied without a look.
    mutating func constant(_ s: StaticString) {
        assert(Self.isPlain(s), "a constant string must need no escape")
        s.withUTF8Buffer { text in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count + 2) { buffer in
                buffer[0] = 0x22
                for (i, b) in text.enumerated() { buffer[i + 1] = b }
                buffer[text.count + 1] = 0x22
                out.append(contentsOf: UnsafeBufferPointer(buffer))
            }
        }
    }

    mutating func int(_ value: Int) { int64(Int64(value)) }

    mutating func int64(_ value: Int64) {
        if value < 0 {
            guard value != .min else { out += String(value).utf8; return }
            out.append(0x2D)
            digits(UInt64(-value))
        } else {
            digits(UInt64(value))
        }
    }

    /// `"02030298d8"`: `ReceiptJSON.hex`, quoted.
    mutating func hex(_ bytes: ArraySlice<UInt8>) {
        out.append(0x22)
        for b in bytes { Hex.append(b, to: &out, .lower) }
        out.append(0x22)
    }

    mutating func bool(_ value: Bool) { out += (value ? "true" : "false").utf8 }

    /// A value of no fixed shape, as `ReceiptJSON.serialize` writes it.
    mutating func any(_ value: Any) {
        if compact { ReceiptJSON.writeCompact(value, into: &out) } else { ReceiptJSON.write(value, indent: indent, into: &out) }
    }

    /// `"1432383489000"`: `ReceiptDate.millisecondsString`, quoted.
    mutating func millisecondsString(_ d: ReceiptDate) {
        out.append(0x22)
        int64(d.epochMilliseconds)
        out.append(0x22)
    }

    /// `"2015-05-23 12:18:09 Etc/GMT"`: `ReceiptDate.gmtString`, without the intermediate strings.
    mutating func gmtString(_ d: ReceiptDate) {
        civil(d.epochMilliseconds, offsetSeconds: 0, zone: " Etc/GMT", or: { d.gmtString })
    }

    /// `"2015-05-23 05:18:09 America/Los_Angeles"`: `ReceiptDate.pstString`.
    mutating func pstString(_ d: ReceiptDate) {
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
        out.append(0x22)
        fixed(y, 4); out.append(0x2D); fixed(m, 2); out.append(0x2D); fixed(d, 2); out.append(0x20)
        fixed(h, 2); out.append(0x3A); fixed(mi, 2); out.append(0x3A); fixed(s, 2)
        zone.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(0x22)
    }

    /// `value` in exactly `width` decimal digits (0 ≤ value < 10^width).
    private mutating func fixed(_ value: Int, _ width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var v = value
        while divisor > 0 {
            out.append(UInt8(0x30 + v / divisor))
            v %= divisor
            divisor /= 10
        }
    }

    private mutating func digits(_ value: UInt64) {
        guard value >= 10 else { out.append(UInt8(0x30 + value)); return }
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        withUnsafeMutableBytes(of: &scratch) { buffer in
            var v = value
            var i = buffer.count
            while v > 0 {
                i -= 1
                buffer[i] = UInt8(0x30 + v % 10)
                v /= 10
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[i...]).assumingMemoryBound(to: UInt8.self))
        }
    }
}
