import ASN1Lenient
import ByteText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit
import TextLoader

/// The `json` command's document: a `receipt` object shaped like Apple's verifyReceipt response
/// (numbers as strings, `_ms` epoch-millisecond strings, dates `2015-05-23 12:18:09 Etc/GMT`, `_pst`
/// forms in America/Los_Angeles, flags "true"/"false", absent fields omitted), beside it
/// `validation`, `verdict`, `unlisted_attributes`, `findings` and `source` (input offset and
/// length of every field's value bytes: `bundle_id`, `in_app[0]`, `in_app[0].product_id`, …).
/// Keys are sorted so the output is stable.
public enum ReceiptJSON {
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

    /// The document as pretty-printed JSON with sorted keys. Characters a terminal would act on
    /// (bidi overrides, zero-width characters, C1 controls) are written as `\u` escapes too.
    /// Written by `streamed` (ReceiptJSONStream.swift), the one writer of this document (no
    /// dictionaries: docs/performance.md "Batch json"); ReceiptJSONTests hold the exact bytes.
    public static func text(_ a: ReceiptAnalysis, input: InputInfo? = nil, words: StepText = .plain) -> String {
        String(decoding: streamed(a, input: input, words: words, compact: false), as: UTF8.self)
    }

    /// A batch `json` line: the compact document with `"source"` and `"line"`.
    public static func batchLine(_ a: ReceiptAnalysis, input: InputInfo? = nil, words: StepText = .plain,
                                 source: BatchSourceFields) -> String {
        String(decoding: streamed(a, input: input, words: words, compact: true, batchSource: source), as: UTF8.self)
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

    static func write(_ value: Any, indent: Int, into out: inout [UInt8]) {
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
                write(d[key]!, indent: indent + 2, into: &out)
                if n < keys.count - 1 { out.append(0x2C) }
            }
            out.append(0x0A)
            out += [UInt8](repeating: 0x20, count: indent)
            out.append(0x7D)
        case let a as [Any]:
            if a.isEmpty { out += [0x5B, 0x5D]; return }
            out.append(0x5B)
            for (n, element) in a.enumerated() {
                out.append(0x0A)
                out += [UInt8](repeating: 0x20, count: indent + 2)
                write(element, indent: indent + 2, into: &out)
                if n < a.count - 1 { out.append(0x2C) }
            }
            out.append(0x0A)
            out += [UInt8](repeating: 0x20, count: indent)
            out.append(0x5D)
        default:
            out += Array("null".utf8)
        }
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
        default:
            write(value, indent: 0, into: &out)  // scalars are written the same either way
        }
    }

    static func writeString(_ s: String, into out: inout [UInt8]) {
        // Native strings are contiguous UTF-8: a plain one (the usual case) is scanned and copied
        // through a pointer, which is most of what a batch `json` line costs.
        let copied = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for b in bytes where b < 0x20 || b >= 0x7F || b == 0x22 || b == 0x5C { return false }
            out.append(0x22)
            out.append(contentsOf: bytes)
            out.append(0x22)
            return true
        }
        if copied == true { return }
        out.append(0x22)
        var plain = true
        for b in s.utf8 where b < 0x20 || b >= 0x7F || b == 0x22 || b == 0x5C {
            plain = false
            break
        }
        if plain {
            out += s.utf8
        } else {
            for scalar in s.unicodeScalars {
                switch scalar.value {
                case 0x22: out += [0x5C, 0x22]
                case 0x5C: out += [0x5C, 0x5C]
                case 0x0A: out += [0x5C, 0x6E]
                case 0x0D: out += [0x5C, 0x72]
                case 0x09: out += [0x5C, 0x74]
                case let v where v < 0x20 || v == 0x7F || TerminalSafe.mustEscape(scalar):
                    for unit in String(scalar).utf16 { out += Array(("\\u" + PlainText.zeroPadded(Int(unit), width: 4, radix: 16)).utf8) }
                default:
                    out += Array(String(scalar).utf8)
                }
            }
        }
        out.append(0x22)
    }

    // MARK: - shared with the token documents (JWSJSON)

    static func hex(_ bytes: [UInt8]) -> String {
        Hex.string(bytes, .lower)
    }

    static func findingObject(_ d: Diagnostic) -> [String: Any] {
        ["severity": d.severity.description, "code": d.code.rawValue, "message": d.message, "offset": d.offset, "length": d.length]
    }
}
