import ASN1Lenient
import ByteText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit
import TextLoader

/// Every command's JSON writer: sorted keys, stable bytes, terminal-safe escapes (`serialize`), and
/// the input object of a `json` document. The receipt's own document (`text`, `batchLine`, the
/// streamed writer) is the app receipt format's (`Formats/AppReceipt/Outputs/ReceiptJSONStream.swift`).
public enum ReceiptJSON {
    /// Where a batch input came from (`BatchSourceFields`).
    public typealias BatchSourceFields = DocumentCore.BatchSourceFields

    /// Describes the input in the document's `input` object.
    public struct InputInfo: Sendable {
        public var name: String
        public var encoding: String
        /// Where the receipt was found in pasted text (`input.found`); nil for a clean input.
        public var origin: PasteOrigin?
        public init(name: String, encoding: String, origin: PasteOrigin? = nil) {
            self.name = name
            self.encoding = encoding
            self.origin = origin
        }
    }

    /// Pretty-printed JSON with keys sorted by their UTF-8 bytes (stable across platforms and
    /// locales; Foundation's sorted writer collates with ICU and is quadratic-feeling on 100k keys).
    /// Besides the escapes JSON requires, every character a terminal would act on is written as
    /// `\u` (ESC and other controls, DEL, C1, bidi overrides, zero-width characters).
    /// `compact`: one line, no spaces (NDJSON, one object per input in batch mode).
    public static func serialize(_ object: Any, compact: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        if compact { writeCompact(object, into: &out) } else { write(object, indent: 0, into: &out) }
        out.append(0x0A)
        return String(decoding: out, as: UTF8.self)
    }

    /// `serialize`'s pretty text handed to `sink` about 64 KB at a time, never whole: a history's
    /// `json` is 20 KB a token.
    public static func stream(_ object: Any, to sink: (UnsafeRawBufferPointer) -> Void) {
        withoutActuallyEscaping(sink) { sink in
            var out: [UInt8] = []
            out.reserveCapacity((1 << 16) + (1 << 12))
            write(object, indent: 0, into: &out) { out in
                guard out.count >= 1 << 16 else { return }
                out.withUnsafeBytes(sink)
                out.removeAll(keepingCapacity: true)
            }
            out.append(0x0A)
            out.withUnsafeBytes(sink)
        }
    }

    /// `spill` runs after each array element: what is written so far may be handed on there.
    package static func write(_ value: Any, indent: Int, into out: inout [UInt8], spill: ((inout [UInt8]) -> Void)? = nil) {
        switch value {
        case let s as String:
            writeString(s, into: &out)
        case let b as Bool:
            out += Array((b ? "true" : "false").utf8)
        case let i as Int:
            out += Array(String(i).utf8)
        case let i as Int64:
            out += Array(String(i).utf8)
        case let d as Double where d.isFinite:  // JWS payload numbers that are not integers
            out += Array(String(d).utf8)
        case let d as [String: Any]:
            if d.isEmpty { out += [0x7B, 0x7D]; return }
            out.append(0x7B)
            let keys = d.keys.sorted()  // our keys are ASCII: byte order
            for (n, key) in keys.enumerated() {
                out.append(0x0A)
                out += [UInt8](repeating: 0x20, count: indent + 2)
                writeString(key, into: &out)
                out += [0x3A, 0x20]
                write(d[key]!, indent: indent + 2, into: &out, spill: spill)
                if n < keys.count - 1 { out.append(0x2C) }
            }
            out.append(0x0A)
            out += [UInt8](repeating: 0x20, count: indent)
            out.append(0x7D)
        case let a as [Any]:
            writeArray(a.count, { a[$0] }, indent: indent, into: &out, spill: spill)
        case let a as JSONLazyArray:
            writeArray(a.count, a.element, indent: indent, into: &out, spill: spill)
        default:
            out += Array("null".utf8)
        }
    }

    private static func writeArray(_ count: Int, _ element: (Int) -> Any, indent: Int, into out: inout [UInt8],
                                   spill: ((inout [UInt8]) -> Void)?) {
        if count == 0 { out += [0x5B, 0x5D]; return }
        out.append(0x5B)
        for n in 0..<count {
            out.append(0x0A)
            out += [UInt8](repeating: 0x20, count: indent + 2)
            write(element(n), indent: indent + 2, into: &out, spill: spill)
            if n < count - 1 { out.append(0x2C) }
            spill?(&out)
        }
        out.append(0x0A)
        out += [UInt8](repeating: 0x20, count: indent)
        out.append(0x5D)
    }

    static func writeCompact(_ value: Any, into out: inout [UInt8]) {
        switch value {
        case let s as String:  // the most common value: tested first, since a failed collection cast is dear
            writeString(s, into: &out)
        case let d as [String: Any]:
            out.append(0x7B)
            for (n, key) in d.keys.sorted().enumerated() {
                if n > 0 { out.append(0x2C) }
                writeString(key, into: &out)
                out.append(0x3A)
                writeCompact(d[key]!, into: &out)
            }
            out.append(0x7D)
        case let a as [Any]:
            out.append(0x5B)
            for (n, element) in a.enumerated() {
                if n > 0 { out.append(0x2C) }
                writeCompact(element, into: &out)
            }
            out.append(0x5D)
        case let a as JSONLazyArray:
            out.append(0x5B)
            for n in 0..<a.count {
                if n > 0 { out.append(0x2C) }
                writeCompact(a.element(n), into: &out)
            }
            out.append(0x5D)
        default:
            write(value, indent: 0, into: &out)  // scalars are written the same either way
        }
    }

    package static func writeString(_ s: String, into out: inout [UInt8]) {
        // One pass over the UTF-8: runs that need no escape are copied whole; only the bytes that
        // might (ASCII specials, the lead byte of a non-ASCII scalar) are looked at one by one. This
        // is most of what a `json` line and the `verify --format json` report cost.
        var text = s
        text.withUTF8 { bytes in
            out.append(0x22)
            var runStart = 0
            var i = 0
            let n = bytes.count
            func flush(to end: Int) {
                if runStart < end { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<end])) }
            }
            func escape(_ scalar: Unicode.Scalar) {
                for unit in String(scalar).utf16 { out += Array(("\\u" + PlainText.zeroPadded(Int(unit), width: 4, radix: 16)).utf8) }
            }
            let raw = UnsafeRawPointer(bytes.baseAddress)
            while i < n {
                // Eight plain bytes at a time (none below 0x20, none from 0x7F up, no `"` or `\`).
                if let raw, n - i >= 8, Self.plainWord(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { i += 8; continue }
                let b = bytes[i]
                if b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C { i += 1; continue }
                flush(to: i)
                if b < 0x80 {
                    switch b {
                    case 0x22: out.append(0x5C); out.append(0x22)
                    case 0x5C: out.append(0x5C); out.append(0x5C)
                    case 0x0A: out.append(0x5C); out.append(0x6E)
                    case 0x0D: out.append(0x5C); out.append(0x72)
                    case 0x09: out.append(0x5C); out.append(0x74)
                    default: escape(Unicode.Scalar(b))  // the other C0 controls and DEL
                    }
                    i += 1
                } else {
                    // A String's UTF-8 is valid: the lead byte gives the length.
                    let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
                    var value = UInt32(b) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                    for k in 1..<length { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
                    if let scalar = Unicode.Scalar(value), TerminalSafe.mustEscape(scalar) {
                        escape(scalar)
                    } else {
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<(i + length)]))
                    }
                    i += length
                }
                runStart = i
            }
            flush(to: n)
            out.append(0x22)
        }
    }

    /// Whether no byte of `bytes` needs an escape (`writeString` would copy them as they are).
    @inline(__always)
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let raw = UnsafeRawPointer(bytes.baseAddress) else { return true }
        var i = 0
        let n = bytes.count
        while n - i >= 8 {
            guard plainWord(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) else { return false }
            i += 8
        }
        while i < n {
            let b = bytes[i]
            guard b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C else { return false }
            i += 1
        }
        return true
    }

    /// Whether none of the eight bytes of `word` needs a look: each is 0x20...0x7E and neither
    /// `"` nor `\` (the classic "has a zero byte" test, `(x - 0x01…) & ~x & 0x80…`, per case).
    @inline(__always)
    static func plainWord(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        let below20 = (word &- 0x2020_2020_2020_2020) & ~word & highs != 0
        return word & highs == 0 && !below20 && !hasZeroByte(word ^ 0x2222_2222_2222_2222)
            && !hasZeroByte(word ^ 0x5C5C_5C5C_5C5C_5C5C) && !hasZeroByte(word ^ 0x7F7F_7F7F_7F7F_7F7F)
    }

    // MARK: - shared with the token documents (JWSJSON)

    package static func hex(_ bytes: [UInt8]) -> String {
        Hex.string(bytes, .lower)
    }

    package static func findingObject(_ d: Diagnostic) -> [String: Any] {
        ["severity": d.severity.description, "code": d.code.rawValue, "message": d.message, "offset": d.offset, "length": d.length]
    }
}

/// Where a batch input came from: written as `"source"` (the file, replacing the byte ranges,
/// as `BatchCheck.addSource` does to the dictionary) and `"line"`.
public struct BatchSourceFields: Sendable {
    public var file: String
    public var line: Int?
    public init(file: String, line: Int?) {
        self.file = file
        self.line = line
    }
}

/// A JSON array whose elements are made as they are written (`ReceiptJSON.write`, `stream`): a
/// body's 10,000 token objects never exist at once, only the one being written.
public struct JSONLazyArray {
    public let count: Int
    public let element: (Int) -> Any

    public init(count: Int, element: @escaping (Int) -> Any) {
        self.count = count
        self.element = element
    }
}
