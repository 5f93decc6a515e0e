import ByteText
import ASN1Lenient

/// `dump --format openssl`: the line shape of `openssl asn1parse -inform DER -i`.
///
/// ```
///     0:d=0  hl=4 l=5155 cons: SEQUENCE
///     4:d=1  hl=2 l=   9 prim:  OBJECT            :pkcs7-signedData
///    52:d=5  hl=2 l=inf  cons:      OCTET STRING
///   441:d=6  hl=2 l=   0 prim:       EOC
/// ```
///
/// Each line is `%5d:d=%-2d hl=%d l=%4d ` (or `l=inf  ` for an indefinite length), `prim: ` or
/// `cons: `, one space of indentation per depth, the tag name left-aligned in 18 columns, then the
/// value. Like OpenSSL it does not descend into OCTET STRING or BIT STRING content (encapsulated
/// children are skipped) and prints an `EOC` line where a BER end-of-contents marker closes an
/// indefinite length. On valid input the offset, depth, hl, l, prim/cons and tag columns are
/// identical to OpenSSL's (the test suite compares them on every sample and corpus receipt).
///
/// The value column follows OpenSSL's rules (`:255` for BOOLEAN TRUE, INTEGER as sign + hex of the
/// magnitude, OBJECT by OpenSSL's long name or dotted, strings and times verbatim, OCTET STRING as
/// text when printable else `[HEX DUMP]:`, nothing for BIT STRING, BMPString, NULL and
/// non-universal tags). Where it differs:
/// - Text from the input is escaped (`TerminalSafe`): OpenSSL writes control characters, escape
///   sequences and newlines raw, which can corrupt a terminal; here `\n` stays on one line.
/// - Object names come from a table of OpenSSL 3.0 long names for the arcs seen in receipts and
///   certificates; an OID outside those arcs that OpenSSL happens to know is printed dotted.
/// - Where OpenSSL prints `:BAD INTEGER` / `:BAD OBJECT` it follows with a multi-line hex dump;
///   here the marker stays on its line. Where OpenSSL stops with "Error in encoding", this goes
///   on: an unreadable region is printed as an `UNPARSED` line and every diagnostic goes to the
///   diagnostics list (the command prints it on stderr).
public enum OpenSSLDump {
    public static func write(_ tree: Tree, to out: OutputWriter) {
        out.flush()
        var writer = LineWriter(tree: tree, out: out)
        writer.run()
    }

    /// The whole listing as a string (tests, small inputs).
    public static func render(_ tree: Tree) -> String {
        let out = OutputWriter(.memory)
        write(tree, to: out)
        return out.text
    }

    /// OpenSSL's `ASN1_tag2str` names for universal tags 0-30; others print as `<ASN1 n>`.
    static let universalNames: [String] = [
        "EOC", "BOOLEAN", "INTEGER", "BIT STRING", "OCTET STRING", "NULL", "OBJECT", "OBJECT DESCRIPTOR",
        "EXTERNAL", "REAL", "ENUMERATED", "<ASN1 11>", "UTF8STRING", "<ASN1 13>", "<ASN1 14>", "<ASN1 15>",
        "SEQUENCE", "SET", "NUMERICSTRING", "PRINTABLESTRING", "T61STRING", "VIDEOTEXSTRING", "IA5STRING",
        "UTCTIME", "GENERALIZEDTIME", "GRAPHICSTRING", "VISIBLESTRING", "GENERALSTRING", "UNIVERSALSTRING",
        "<ASN1 29>", "BMPSTRING",
    ]

    /// Universal tag names padded to OpenSSL's `%-18s`, as bytes.
    static let paddedUniversalNames: [[UInt8]] = universalNames.map { padded($0) }

    static func padded(_ name: String) -> [UInt8] {
        var bytes = Array(name.utf8)
        if bytes.count < 18 { bytes.append(contentsOf: repeatElement(0x20, count: 18 - bytes.count)) }
        return bytes
    }

    /// The tag column as OpenSSL prints it (unpadded).
    public static func tagName(_ node: Node) -> String {
        if node.kind == .unparsed { return "UNPARSED" }
        switch node.tagClass {
        case .universal:
            return node.tagNumber < universalNames.count ? universalNames[Int(node.tagNumber)] : "<ASN1 \(node.tagNumber)>"
        case .contextSpecific: return "cont [ \(node.tagNumber) ]"
        case .application: return "appl [ \(node.tagNumber) ]"
        case .private: return "priv [ \(node.tagNumber) ] "
        }
    }

    /// Content bytes as a dictionary key, valid while the input is pinned.
    struct BytesKey: Hashable {
        let bytes: UnsafeBufferPointer<UInt8>
        func hash(into hasher: inout Hasher) { hasher.combine(bytes: UnsafeRawBufferPointer(bytes)) }
        static func == (a: BytesKey, b: BytesKey) -> Bool { a.bytes.elementsEqual(b.bytes) }
    }

    struct LineWriter {
        let tree: Tree
        let out: OutputWriter
        var buf: RawByteBuffer
        /// `paddedUniversalNames` laid end to end, 18 bytes each.
        let names: UnsafeMutablePointer<UInt8>
        /// Reused for escaped text (TerminalSafe appends to an array).
        var scratch: [UInt8] = []
        /// Cache of OBJECT value columns by content bytes: receipts repeat a few dozen OIDs.
        var objectCache: [BytesKey: [UInt8]] = [:]

        init(tree: Tree, out: OutputWriter) {
            self.tree = tree
            self.out = out
            buf = RawByteBuffer(capacity: OutputWriter.chunkSize + 4096)
            names = .allocate(capacity: 18 * OpenSSLDump.paddedUniversalNames.count)
            for (k, name) in OpenSSLDump.paddedUniversalNames.enumerated() {
                (names + 18 * k).initialize(from: name, count: 18)
            }
        }

        mutating func run() {
            tree.bytes.withUnsafeBufferPointer { bytes in
                tree.nodes.withUnsafeBufferPointer { nodes in
                    run(bytes, nodes)
                }
            }
            out.write(raw: buf.raw)
            buf.count = 0
            buf.deallocate()
            names.deallocate()
        }

        @inline(__always)
        mutating func drain() { buf.drain(to: out) }

        mutating func run(_ bytes: UnsafeBufferPointer<UInt8>, _ nodes: UnsafeNodeBuffer) {
            // Indefinite-length nodes whose EOC line is still to come: (subtree end, EOC offset, depth).
            var pending: [(end: Int, offset: Int, depth: Int)] = []
            var i = 0
            while i < nodes.count {
                while let top = pending.last, top.end <= i {
                    eocLine(offset: top.offset, depth: top.depth)
                    pending.removeLast()
                }
                let node = nodes[i]
                line(bytes, node)
                if node.eocLength > 0 {
                    pending.append((Int(node.subtreeEnd), node.contentEnd, Int(node.depth) + 1))
                }
                // OpenSSL never descends into an OCTET STRING or BIT STRING.
                i = node.isEncapsulated ? Int(node.subtreeEnd) : i + 1
                drain()
            }
            while let top = pending.popLast() { eocLine(offset: top.offset, depth: top.depth) }
        }

        /// `%5d:d=%-2d hl=%d l=%4d ` (or ` l=inf  `), `prim: `/`cons: `, then one space per
        /// depth; reserves room for it and for an 18-column tag name.
        @inline(__always)
        mutating func prefix(offset: Int, depth: Int, headerLength: Int, length: Int?, constructed: Bool) {
            // Offset and length come from UInt32, hl is at most 2 * 255, depth from UInt16.
            buf.reserve(96 &+ depth)
            buf.decimal(UInt(truncatingIfNeeded: offset), width: 5)
            buf.put(":d=")
            buf.decimal(UInt(truncatingIfNeeded: depth), width: 2, leftAlign: true)
            buf.put(" hl=")
            buf.decimal(UInt(truncatingIfNeeded: headerLength))
            if let length {
                buf.put(" l=")
                buf.decimal(UInt(truncatingIfNeeded: length), width: 4)
                buf.put(0x20)
            } else {
                buf.put(" l=inf  ")
            }
            buf.put(constructed ? "cons: " : "prim: ")
            buf.putSpaces(depth)
        }

        mutating func eocLine(offset: Int, depth: Int) {
            prefix(offset: offset, depth: depth, headerLength: 2, length: 0, constructed: false)
            buf.put(names, count: 18)
            buf.put(0x0A)
        }

        mutating func line(_ bytes: UnsafeBufferPointer<UInt8>, _ node: Node) {
            let depth = Int(node.depth)
            let content = UnsafeBufferPointer(rebasing: bytes[node.contentRange])
            if node.kind == .unparsed {
                prefix(offset: Int(node.offset), depth: depth, headerLength: 0, length: Int(node.contentLength), constructed: false)
                buf.append(OpenSSLDump.padded("UNPARSED"))
                buf.reserve(16)
                buf.put("[HEX DUMP]:")
                buf.hex(content)
                buf.reserve(1)
                buf.put(0x0A)
                return
            }
            prefix(offset: Int(node.offset), depth: depth, headerLength: node.headerLength,
                   length: node.isIndefinite ? nil : Int(node.contentLength), constructed: node.isConstructed)
            let universal = node.tagClass == .universal
            if universal && node.tagNumber < 31 {
                buf.put(names + 18 &* Int(node.tagNumber), count: 18)
            } else {
                buf.append(OpenSSLDump.padded(OpenSSLDump.tagName(node)))
            }
            if !node.isConstructed && universal {
                value(content, node)
            }
            buf.reserve(1)
            buf.put(0x0A)
        }

        mutating func escaped(_ content: UnsafeBufferPointer<UInt8>) {
            // Printable ASCII other than the backslash is written as is.
            var plain = true
            for b in content where b < 0x20 || b > 0x7E || b == 0x5C {
                plain = false
                break
            }
            if plain {
                buf.reserve(content.count)
                if let start = content.baseAddress { buf.put(start, count: content.count) }
                return
            }
            scratch.removeAll(keepingCapacity: true)
            TerminalSafe.appendEscaped(content, to: &scratch)
            buf.append(scratch)
        }

        mutating func value(_ content: UnsafeBufferPointer<UInt8>, _ node: Node) {
            switch node.tagNumber {
            case 1:  // BOOLEAN
                buf.reserve(32)
                if content.count != 1 { buf.put(":BAD BOOLEAN") }
                if let first = content.first {
                    buf.put(0x3A)
                    buf.decimal(UInt(first))
                }
            case 2, 10:  // INTEGER, ENUMERATED
                integer(content, enumerated: node.tagNumber == 10)
            case 4:  // OCTET STRING
                guard !content.isEmpty else { return }
                var printable = true
                for b in content where (b < 0x20 && b != 0x0A && b != 0x0D && b != 0x09) || b > 0x7E {
                    printable = false
                    break
                }
                if printable {
                    buf.reserve(1)
                    buf.put(0x3A)
                    escaped(content)
                } else {
                    buf.reserve(16)
                    buf.put("[HEX DUMP]:")
                    buf.hex(content)
                }
            case 6:  // OBJECT
                let key = BytesKey(bytes: content)
                if let cached = objectCache[key] {
                    buf.append(cached)
                    return
                }
                var text: [UInt8]
                if ObjectIdentifierValue.isValid(content),
                   let dotted = ObjectIdentifierValue.dotted(content) {
                    text = [0x3A] + Array((OIDNames.openSSLName(for: dotted) ?? dotted).utf8)
                } else {
                    text = Array(":BAD OBJECT".utf8)
                }
                if objectCache.count < 4096 { objectCache[key] = text }
                buf.append(text)
            case 12, 18, 19, 20, 22, 23, 24, 26:  // strings and times OpenSSL prints verbatim (":" even when empty)
                buf.reserve(1)
                buf.put(0x3A)
                escaped(content)
            default:
                return
            }
        }

        /// OpenSSL decodes the INTEGER and prints the sign and the hex of the magnitude, without
        /// leading zero octets (`:00` for zero); a non-minimal or empty encoding is `:BAD INTEGER`.
        mutating func integer(_ content: UnsafeBufferPointer<UInt8>, enumerated: Bool) {
            buf.reserve(24)
            guard let first = content.first,
                  content.count == 1 || !((first == 0x00 && content[1] & 0x80 == 0) || (first == 0xFF && content[1] & 0x80 != 0)) else {
                if enumerated { buf.put(":BAD ENUMERATED") } else { buf.put(":BAD INTEGER") }
                return
            }
            buf.put(0x3A)
            if first & 0x80 == 0 {
                var start = 0
                while start < content.count && content[start] == 0 { start += 1 }
                if start == content.count {
                    buf.put(0x30)
                    buf.put(0x30)
                } else {
                    buf.hex(UnsafeBufferPointer(rebasing: content[start...]))
                }
                return
            }
            // Negative: two's-complement negation gives the magnitude.
            var magnitude = content.map { ~$0 }
            var k = magnitude.count - 1
            while k >= 0 {
                magnitude[k] &+= 1
                if magnitude[k] != 0 { break }
                k -= 1
            }
            buf.put(0x2D)
            var skip = 0
            while skip < magnitude.count && magnitude[skip] == 0 { skip += 1 }
            magnitude.withUnsafeBufferPointer { buf.hex(UnsafeBufferPointer(rebasing: $0[skip...])) }
        }
    }
}
