import ASN1Lenient
import ByteText

// The tree dump's hot loop: every line assembled in one `RawByteBuffer` (shared with the openssl and
// json formats), with the common values (small INTEGERs, byte counts, ASCII strings, hex) written
// straight from the input. Anything else goes through `ValueText.summary`, so the text is the same
// either way.

extension TreeDump {
    /// ANSI sequences as static bytes (the same as `ANSIStyle`'s).
    enum SGR {
        static let reset: StaticString = "\u{1B}[0m"
        static let bold: StaticString = "\u{1B}[1m"
        static let dim: StaticString = "\u{1B}[2m"
        static let red: StaticString = "\u{1B}[1;31m"
        static let cyan: StaticString = "\u{1B}[36m"
    }

    /// `UniversalTag.names` as bytes laid end to end, with their offsets.
    static let universalNameBytes: (bytes: [UInt8], starts: [Int]) = {
        var bytes: [UInt8] = []
        var starts: [Int] = []
        for name in UniversalTag.names {
            starts.append(bytes.count)
            bytes.append(contentsOf: name.utf8)
        }
        starts.append(bytes.count)
        return (bytes, starts)
    }()

    struct LineWriter {
        let tree: Tree
        let out: OutputWriter
        let options: Options
        let offsetWidth: Int
        let lengthWidth: Int
        var buf = RawByteBuffer(capacity: OutputWriter.chunkSize + 4096)

        init(tree: Tree, out: OutputWriter, options: Options, offsetWidth: Int, lengthWidth: Int) {
            self.tree = tree
            self.out = out
            self.options = options
            self.offsetWidth = offsetWidth
            self.lengthWidth = lengthWidth
        }

        @inline(__always)
        mutating func style(_ code: StaticString) {
            if options.color { buf.put(code) }
        }

        /// The offset, hl and length columns (dim), then two spaces per depth.
        @inline(__always)
        mutating func columns(offset: Int, headerLength: Int, length: Int?, depth: Int) {
            buf.reserve(offsetWidth &+ lengthWidth &+ 2 &* depth &+ 96)
            style(SGR.dim)
            buf.decimal(UInt(truncatingIfNeeded: offset), width: offsetWidth)
            buf.put("  ")
            buf.decimal(UInt(truncatingIfNeeded: headerLength), width: 2)
            buf.put("  ")
            if let length {
                buf.decimal(UInt(truncatingIfNeeded: length), width: lengthWidth)
            } else {
                buf.putSpaces(lengthWidth &- 3)
                buf.put("inf")
            }
            buf.put("  ")
            style(SGR.reset)
            buf.putSpaces(2 &* depth)
        }

        mutating func eocLine(offset: Int, depth: Int) {
            columns(offset: offset, headerLength: 2, length: 0, depth: depth)
            style(SGR.dim)
            buf.put("EOC")
            style(SGR.reset)
            buf.put(0x0A)
        }

        mutating func line(_ bytes: UnsafeBufferPointer<UInt8>, _ node: Node, _ index: Int) {
            let depth = Int(node.depth)
            columns(offset: Int(node.offset), headerLength: node.headerLength,
                    length: node.isIndefinite ? nil : Int(node.contentLength), depth: depth)
            let unparsed = node.kind == .unparsed
            style(unparsed ? SGR.red : SGR.bold)
            if !unparsed && node.tagClass == .universal && node.tagNumber < UInt32(UniversalTag.names.count) {
                let names = TreeDump.universalNameBytes
                let k = Int(node.tagNumber)
                names.bytes.withUnsafeBufferPointer { all in
                    buf.put(all.baseAddress! + names.starts[k], count: names.starts[k &+ 1] &- names.starts[k])
                }
            } else {
                buf.append(tree.tagName(of: index))
            }
            buf.reserve(16)
            style(SGR.reset)
            let content = UnsafeBufferPointer(rebasing: bytes[node.contentRange])
            var wrote = value(content, node, index)
            if let name = options.names[index] {
                // Terminal-safe as built (`NodeName`): written as it is.
                buf.reserve(16)
                buf.put(" · ")
                style(SGR.cyan)
                buf.append(name.text)
                buf.reserve(8)
                style(SGR.reset)
                wrote = true
            }
            if node.isEncapsulated {
                buf.reserve(16)
                buf.put(wrote ? ", encapsulates:" : " encapsulates:")
            }
            buf.reserve(1)
            buf.put(0x0A)
        }

        /// Writes " " + the value as `ValueText.summary` shows it; false when that is empty.
        mutating func value(_ content: UnsafeBufferPointer<UInt8>, _ node: Node, _ index: Int) -> Bool {
            if node.kind == .unparsed { return bytesSummary(content) }
            if node.isConstructed { return false }
            if node.tagClass != .universal { return bytesSummary(content) }
            buf.reserve(32)
            switch node.tagNumber {
            case 1 where content.count == 1:
                buf.put(content[0] != 0 ? " TRUE" : " FALSE")
                return true
            case 2, 10:
                guard content.count >= 1 && content.count <= 8 else { break }
                var v: Int64 = content[0] & 0x80 != 0 ? -1 : 0
                for octet in content { v = (v << 8) | Int64(octet) }
                buf.put(0x20)
                if v < 0 { buf.put(0x2D) }
                buf.decimal(UInt(v.magnitude))
                return true
            case 4:
                if node.isEncapsulated {
                    buf.put(" (")
                    byteCount(content.count)
                    buf.reserve(1)
                    buf.put(0x29)
                    return true
                }
                return bytesSummary(content)
            case 5:
                return false
            case 12, 18, 19, 20, 21, 22, 25, 26, 27:
                guard isPrintableASCII(content) else { break }
                buf.put(0x20)
                quoted(content)
                return true
            default:
                break
            }
            let text = ValueText.summary(tree, index, limits: options.limits)
            guard !text.isEmpty else { return false }
            buf.reserve(1)
            buf.put(0x20)
            buf.append(text)
            return true
        }

        @inline(__always)
        func isPrintableASCII(_ content: UnsafeBufferPointer<UInt8>) -> Bool {
            for b in content where b < 0x20 || b >= 0x7F { return false }
            return true
        }

        /// "1 byte", "5,162 bytes" (`ValueText.byteCount`).
        mutating func byteCount(_ n: Int) {
            buf.reserve(32)
            if n == 1 {
                buf.put("1 byte")
                return
            }
            if n < 1000 { buf.decimal(UInt(n)) } else { buf.append(NumberText.grouped(n)) }
            buf.reserve(8)
            buf.put(" bytes")
        }

        /// `ValueText.bytesSummary` with its leading space: size, hex (cut after the limit), and
        /// the text when every byte is printable ASCII.
        mutating func bytesSummary(_ content: UnsafeBufferPointer<UInt8>) -> Bool {
            buf.reserve(16)
            if content.isEmpty {
                buf.put(" (0 bytes)")
                return true
            }
            buf.put(" (")
            byteCount(content.count)
            buf.reserve(4)
            buf.put(") ")
            let shown = Swift.min(content.count, options.limits.hexBytes)
            buf.hex(UnsafeBufferPointer(rebasing: content[0..<shown]))
            buf.reserve(8)
            if content.count > shown { buf.put("…") }
            if content.count >= 2 && isPrintableASCII(content) {
                buf.put(0x20)
                quoted(content)
            }
            return true
        }

        /// Printable ASCII quoted as `ValueText.quoted` does: `\` and `"` escaped, cut after the
        /// character limit with "…".
        mutating func quoted(_ content: UnsafeBufferPointer<UInt8>) {
            let shown = Swift.min(content.count, options.limits.characters)
            buf.reserve(2 &* shown &+ 8)
            buf.put(0x22)
            for b in UnsafeBufferPointer(rebasing: content[0..<shown]) {
                if b == 0x5C || b == 0x22 { buf.put(0x5C) }
                buf.put(b)
            }
            buf.put(0x22)
            if content.count > shown { buf.put("…") }
        }
    }
}
