import ByteText
import ASN1Lenient

// The json dump's per-node objects, assembled in the shared `RawByteBuffer` from static key fragments
// and decimal pair tables; common values (small INTEGERs, byte strings, ASCII strings) are written
// straight from the input, the rest through `JSONDump.value`, so the text is the same either way.

extension JSONDump {
    struct NodeWriter {
        let tree: Tree
        let names: NodeNames
        /// Where `buf` goes once it holds a chunk, also in the middle of a long value: a 37 MB
        /// string or OCTET STRING is written out as it is escaped, never held whole (issue 32:
        /// memory bounded by the input).
        let out: OutputWriter
        var buf = RawByteBuffer(capacity: OutputWriter.chunkSize + 4096)
        /// Reused for the values that go through the general path.
        var scratch = TextBuffer(capacity: 256)
        /// Content bytes a long value is written in between two hand-overs to `out`.
        static let pieceBytes = 32 * 1024

        init(tree: Tree, names: NodeNames = .none, out: OutputWriter) {
            self.tree = tree
            self.names = names
            self.out = out
        }

        /// `bytes` as upper-case hex, a piece at a time, handing full chunks to `out` on the way.
        mutating func streamedHex(_ bytes: UnsafeBufferPointer<UInt8>) {
            var start = 0
            repeat {
                let end = min(start &+ Self.pieceBytes, bytes.count)
                buf.hex(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                buf.drain(to: out)
                start = end
            } while start < bytes.count
        }

        /// A string node's value from its text pieces, escaped as `JSONDump.string` escapes it whole.
        mutating func streamedText(_ index: Int) {
            buf.reserve(48)
            buf.put(", \"value_type\": \"string\", \"value\": \"")
            let lossy = tree.forEachTextPiece(of: index, pieceBytes: Self.pieceBytes) { piece in
                scratch.bytes.removeAll(keepingCapacity: true)
                JSONDump.escape(piece, &scratch)
                buf.append(scratch.bytes)
                buf.drain(to: out)
            } ?? false
            buf.reserve(16)
            buf.put(0x22)
            if lossy { buf.put(", \"lossy\": true") }
        }

        @inline(__always)
        mutating func int(_ value: Int) {
            buf.reserve(24)
            if value < 0 { buf.put(0x2D) }
            buf.decimal(UInt(value.magnitude))
        }

        mutating func node(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ node: Node, parent: Int) {
            buf.reserve(320)
            buf.put("{\"index\": ")
            buf.decimal(UInt(index))
            buf.put(", \"parent\": ")
            if parent >= 0 { buf.decimal(UInt(parent)) } else { buf.put("null") }
            buf.put(", \"offset\": ")
            buf.decimal(UInt(node.offset))
            buf.put(", \"depth\": ")
            buf.decimal(UInt(node.depth))
            buf.put(", \"header_length\": ")
            buf.decimal(UInt(node.headerLength))
            buf.put(", \"length\": ")
            if node.isIndefinite { buf.put("null") } else { buf.decimal(UInt(node.contentLength)) }
            buf.put(node.isConstructed ? ", \"constructed\": true, \"tag\": " : ", \"constructed\": false, \"tag\": ")
            let unparsed = node.kind == .unparsed
            if !unparsed && node.tagClass == .universal && node.tagNumber < UInt32(UniversalTag.names.count) {
                let names = TreeDump.universalNameBytes
                let k = Int(node.tagNumber)
                buf.put(0x22)
                names.bytes.withUnsafeBufferPointer { all in
                    buf.put(all.baseAddress! + names.starts[k], count: names.starts[k &+ 1] &- names.starts[k])
                }
                buf.put(0x22)
            } else {
                let tree = self.tree
                general { JSONDump.string(tree.tagName(of: index), &$0) }
            }
            buf.reserve(160)
            buf.put(", \"tag_class\": ")
            if unparsed {
                buf.put("null")
            } else {
                switch node.tagClass {
                case .universal: buf.put("\"universal\"")
                case .application: buf.put("\"application\"")
                case .contextSpecific: buf.put("\"context\"")
                case .private: buf.put("\"private\"")
                }
            }
            buf.put(", \"tag_number\": ")
            if unparsed { buf.put("null") } else { buf.decimal(UInt(node.tagNumber)) }
            buf.put(node.isEncapsulated ? ", \"encapsulated\": true" : ", \"encapsulated\": false")
            buf.put(unparsed ? ", \"kind\": \"unparsed\"" : ", \"kind\": \"tlv\"")
            if node.eocLength > 0 {
                buf.put(", \"end_of_contents\": ")
                buf.decimal(UInt(node.contentEnd))
            }
            if !unparsed && !node.isConstructed && node.tagClass == .universal {
                value(UnsafeBufferPointer(rebasing: bytes[node.contentRange]), index, node)
            }
            if let name = names[index] {
                buf.reserve(16)
                buf.put(", \"name\": ")
                jsonString(name.name)
                if let detail = name.detail {
                    buf.reserve(16)
                    buf.put(", \"detail\": ")
                    jsonString(detail)
                }
            }
            buf.reserve(1)
            buf.put(0x7D)
        }

        /// A quoted JSON string written byte by byte: `"` and `\` escaped, a control character as
        /// `\u00XX` (names are terminal-safe, so that last case is a guard), UTF-8 kept. A million
        /// named lines go through here.
        mutating func jsonString(_ text: String) {
            var text = text
            text.withUTF8 { bytes in
                buf.reserve(bytes.count &* 6 &+ 2)
                buf.put(0x22)
                for b in bytes {
                    if b == 0x22 || b == 0x5C {
                        buf.put(0x5C)
                        buf.put(b)
                    } else if b < 0x20 || b == 0x7F {
                        buf.put("\\u00")
                        buf.put(Hex.upperDigits[Int(b >> 4)])
                        buf.put(Hex.upperDigits[Int(b & 0xF)])
                    } else {
                        buf.put(b)
                    }
                }
                buf.put(0x22)
            }
        }

        /// Runs a `TextBuffer` writer and copies what it wrote.
        mutating func general(_ write: (inout TextBuffer) -> Void) {
            scratch.bytes.removeAll(keepingCapacity: true)
            write(&scratch)
            buf.append(scratch.bytes)
        }

        mutating func value(_ content: UnsafeBufferPointer<UInt8>, _ index: Int, _ node: Node) {
            buf.reserve(64)
            switch node.tagNumber {
            case 1 where content.count == 1:
                buf.put(content[0] != 0 ? ", \"value_type\": \"boolean\", \"value\": true"
                                        : ", \"value_type\": \"boolean\", \"value\": false")
                return
            case 2, 10:
                if content.count > 512 {
                    // What `JSONDump.value` writes for it (no decimal beyond 512 octets), the hex streamed.
                    buf.put(", \"value_type\": \"integer\", \"hex\": \"")
                    streamedHex(content)
                    buf.reserve(1)
                    buf.put(0x22)
                    return
                }
                // (A `where` on `case 2, 10` would guard only the 10.)
                guard content.count >= 1 && content.count <= 8 else { break }
                var v: Int64 = content[0] & 0x80 != 0 ? -1 : 0
                for octet in content { v = (v << 8) | Int64(octet) }
                buf.put(", \"value_type\": \"integer\", \"value\": \"")
                if v < 0 { buf.put(0x2D) }
                buf.decimal(UInt(v.magnitude))
                buf.put(0x22)
                return
            case 3 where !content.isEmpty:
                buf.put(", \"value_type\": \"bit_string\", \"unused_bits\": ")
                buf.decimal(UInt(content[0]))
                if node.isEncapsulated { return }
                buf.put(", \"value\": \"")
                streamedHex(UnsafeBufferPointer(rebasing: content.dropFirst()))
                buf.reserve(1)
                buf.put(0x22)
                return
            case 4:
                buf.put(", \"value_type\": \"octets\"")
                if node.isEncapsulated { return }
                buf.put(", \"value\": \"")
                streamedHex(content)
                buf.reserve(1)
                buf.put(0x22)
                return
            case 5:
                buf.put(", \"value_type\": \"null\", \"value\": null")
                return
            case let tag where Tree.isTextTag(tag):
                // Printable ASCII of one piece or less goes straight from the input; the rest (and
                // the two- and four-byte string types) is decoded and escaped a piece at a time.
                guard tag != 28, tag != 30, content.count <= Self.pieceBytes,
                      !content.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else {
                    streamedText(index)
                    return
                }
                buf.put(", \"value_type\": \"string\", \"value\": \"")
                buf.reserve(2 &* content.count &+ 1)
                for b in content {
                    if b == 0x5C || b == 0x22 { buf.put(0x5C) }
                    buf.put(b)
                }
                buf.put(0x22)
                return
            default:
                break
            }
            let tree = self.tree
            general { JSONDump.value(tree, index, node, &$0) }
        }
    }
}
