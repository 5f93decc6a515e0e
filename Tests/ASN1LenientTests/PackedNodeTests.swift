import Testing
import TestSupport
@testable import ASN1Lenient

/// The arena keeps a node in 12 bytes, its content length read back from its length octets; an
/// extent they do not declare (indefinite, clamped, unparsed), a tag number of 1023 or more, an
/// identifier of 7 octets or more or a length of 8 octets or more goes to the store's escape table.
/// Every value must come back exactly.
@Suite struct PackedNodeTests {
    /// The header fields of every node, as (offset, identifier length, length octets, tag number, content length).
    func headers(_ tree: Tree) -> [[Int]] {
        tree.nodes.map { [Int($0.offset), Int($0.identifierLength), Int($0.lengthLength), Int($0.tagNumber), Int($0.contentLength)] }
    }

    /// Whether each node of `tree` needs an escape entry.
    func escaped(_ tree: Tree) -> [Bool] {
        tree.bytes.withUnsafeBufferPointer { input in tree.nodes.map { PackedNode($0, input: input).isEscaped } }
    }

    /// [APPLICATION 5000] needs a 3-octet identifier and a tag number past the packed 10 bits.
    @Test func largeTagNumberRoundTrips() {
        // SEQUENCE { [APPLICATION 5000] "AB", INTEGER 5, NULL }
        let tree = parse("30 0B 5F A7 08 02 41 42 02 01 05 05 00")
        #expect(tree.diagnostics.isEmpty)
        #expect(headers(tree) == [[0, 1, 1, 16, 11], [2, 3, 1, 5000, 2], [8, 1, 1, 2, 1], [11, 1, 1, 5, 0]])
        #expect(tree[1].tagClass == .application && !tree[1].isConstructed && tree[1].depth == 1)
        #expect(tree[1].contentRange == 6..<8 && tree[1].byteRange == 2..<8 && tree.content(of: 1) == [0x41, 0x42])
        #expect(tree.nodes.map(\.subtreeEnd) == [4, 2, 3, 4])
        #expect(tree.nodes.escapeTableBytes > 0)
        #expect(tree.nodes.withUnsafeBufferPointer { Array($0) } == Array(tree.nodes))
    }

    /// 1022 is the largest tag number kept in the node; 1023 is the first escaped one.
    @Test func tagNumberBoundary() {
        // [PRIVATE 1022] 01, [PRIVATE 1023] 02
        let tree = parse("DF 87 7E 01 01 DF 87 7F 01 02")
        #expect(headers(tree) == [[0, 3, 1, 1022, 1], [5, 3, 1, 1023, 1]])
        #expect(tree.nodes.map(\.tagClass) == [.private, .private])
        #expect(tree.content(of: 0) == [0x01] && tree.content(of: 1) == [0x02])
        #expect(escaped(tree) == [false, true])
    }

    /// An INTEGER's tag written in 9 identifier octets (non-minimal): the identifier length escapes.
    @Test func nonMinimalIdentifierRoundTrips() {
        // SEQUENCE { INTEGER 7 with identifier 1F 80×7 02, NULL }
        let tree = parse("30 0D 1F 80 80 80 80 80 80 80 02 01 07 05 00")
        #expect(headers(tree) == [[0, 1, 1, 16, 13], [2, 9, 1, 2, 1], [13, 1, 1, 5, 0]])
        #expect(tree[1].isUniversal(2) && tree[1].identifierRange == 2..<11 && tree[1].lengthRange == 11..<12)
        #expect(tree.content(of: 1) == [0x07])
        // Reported at the identifier's bytes, as before packing.
        #expect(tree.diagnostics.allSatisfy { $0.node == NodeIndex(1) && $0.offset == 2 })
        #expect(!tree.diagnostics.isEmpty)
    }

    /// A long-form length in 9 octets (0x88 and eight more, leading zeros): the length-octet count escapes;
    /// 7 octets stay in the node.
    @Test func manyLengthOctetsRoundTrip() {
        // OCTET STRING "abc" with length 88 00×7 03; OCTET STRING "de" with length 86 00×5 02
        let tree = parse("04 88 00 00 00 00 00 00 00 03 61 62 63  04 86 00 00 00 00 00 02 64 65")
        #expect(headers(tree) == [[0, 1, 9, 4, 3], [13, 1, 7, 4, 2]])
        #expect(tree[0].lengthRange == 1..<10 && tree[0].contentRange == 10..<13 && tree[0].end == 13)
        #expect(tree[1].lengthRange == 14..<21 && tree[1].contentRange == 21..<23)
        #expect(Array(tree.content(of: 0)) == Array("abc".utf8) && Array(tree.content(of: 1)) == Array("de".utf8))
        #expect(escaped(tree) == [true, false])
        #expect(tree.diagnostics.contains { $0.node == NodeIndex(0) && $0.offset == 1 })
    }

    /// An escaped node inside an encapsulation guess that is undone leaves no entry behind: the
    /// next escaped node takes its index and its own values.
    @Test func undoneGuessDropsItsEscapes() {
        // SEQUENCE { OCTET STRING { [APPLICATION 5000] { INTEGER with length 5 in 1 byte } }, [APPLICATION 6000] }
        let tree = parse("30 0D 04 07 7F A7 08 03 02 05 01 5F AE 70 00")
        #expect(headers(tree) == [[0, 1, 1, 16, 13], [2, 1, 1, 4, 7], [11, 3, 1, 6000, 0]])
        #expect(!tree[1].isEncapsulated && tree.nodes.map(\.subtreeEnd) == [3, 2, 3])
        #expect(tree.diagnostics.isEmpty)
    }

    /// A SET whose identifier escapes is still checked for DER order when the common loop reaches
    /// its end (the packed tag number says SET), as when everything takes the general path.
    @Test func escapedSetIsCheckedForOrder() {
        // SEQUENCE { SET (identifier 3F 80×7 11) { INTEGER 2, INTEGER 1 } }
        let hex = "30 10 3F 80 80 80 80 80 80 80 11 06 02 01 02 02 01 01"
        let tree = parse(hex)
        var general = ParseOptions()
        general.generalPathOnly = true
        let reference = parse(hex, options: general)
        #expect(headers(tree) == [[0, 1, 1, 16, 16], [2, 9, 1, 17, 6], [12, 1, 1, 2, 1], [15, 1, 1, 2, 1]])
        #expect(tree[1].isUniversal(17) && tree[1].isConstructed)
        #expect(tree.diagnostics.contains { $0.code == ParserCode.setNotSorted.code && $0.node == NodeIndex(3) && $0.offset == 15 })
        #expect(tree.diagnostics == reference.diagnostics && Array(tree.nodes) == Array(reference.nodes))
    }

    /// Nodes built by hand, at and past every boundary, come back field for field from the store
    /// and from its buffer view.
    @Test func storeRoundTripsEveryBoundary() {
        var nodes: [Node] = []
        let cases: [(tag: UInt32, identifier: Int, length: Int)] = [
            (0, 1, 1), (1022, 3, 7), (1023, 3, 1), (5000, 3, 8), (UInt32.max, 255, 127), (2, 7, 1), (2, 8, 1),
            (0, 0, 0), (30, 1, 3),
        ]
        for (i, c) in cases.enumerated() {
            var node = Node(offset: 100 * i, classBits: UInt8(i % 4), constructed: i % 2 == 1, tagNumber: c.tag,
                            depth: i, identifierLength: c.identifier, lengthLength: c.length)
            node.contentLength = UInt32(7 * i)
            node.subtreeEnd = Int32(i + 1)
            if i == 4 { node.set(Node.Flag.indefinite); node.set(Node.Flag.hasEOC) }
            nodes.append(node)
        }
        // Length octets that declare the content lengths 0 (node 0: short form), 7 (node 1: 7
        // octets, 86 and six more, after 3 identifier octets) and 56 (node 8: 82 00 38) where the nodes' headers put them.
        var input = [UInt8](repeating: 0, count: 900)
        input.replaceSubrange(103..<110, with: [0x86, 0, 0, 0, 0, 0, 7] as [UInt8])
        input.replaceSubrange(801..<804, with: [0x82, 0x00, 0x38] as [UInt8])
        let store = NodeStore(nodes, input: input)
        #expect(Array(store) == nodes)
        #expect(store.withUnsafeBufferPointer { Array($0) } == nodes)
        let escaped = input.withUnsafeBufferPointer { input in nodes.map { PackedNode($0, input: input).isEscaped } }
        #expect(escaped == [false, false, true, true, true, true, true, true, false])
        #expect(store.escapeTableBytes == 6 * MemoryLayout<NodeEscape>.stride)
        #expect(store[4].tagNumber == UInt32.max && store[4].identifierLength == 255 && store[4].lengthLength == 127
            && store[4].isIndefinite && store[4].eocLength == 2 && store[4].tagClass == .universal && store[4].depth == 4)
        #expect(NodeStore(nodes.enumerated().filter { !escaped[$0.offset] }.map(\.element), input: input).escapeTableBytes == 0)
        // Without its input every node keeps its content length in the table, and still reads back.
        let alone = NodeStore(nodes)
        #expect(Array(alone) == nodes && alone.escapeTableBytes == nodes.count * MemoryLayout<NodeEscape>.stride)
    }

    /// The content length is read back from the length octets only where they declare it: a
    /// definite length (short, long, non-minimal long) in place; an indefinite length, a length
    /// clamped at its parent's end and an unparsed region in the escape table. The common loop's
    /// nodes and the general path's are the same.
    @Test func contentLengthComesFromTheLengthOctetsOrTheTable() {
        // SEQUENCE (indefinite) { OCTET STRING 82 00 02 "ab", INTEGER 1, SEQUENCE { INTEGER 05 with
        // length 09 past the SEQUENCE's end } } 00 00.
        let hex = "30 80 04 82 00 02 61 62 02 01 01 30 03 02 09 05 00 00"
        let tree = parse(hex)
        #expect(headers(tree).map { $0[4] } == [14, 2, 1, 3, 1])
        #expect(escaped(tree) == [true, false, false, false, true])
        var general = ParseOptions()
        general.generalPathOnly = true
        #expect(Array(tree.nodes) == Array(parse(hex, options: general).nodes))
        let plain = parse("30 0A 02 01 05 04 81 04 01 02 03 04")
        #expect(escaped(plain) == [false, false, false] && plain.nodes.escapeTableBytes == 0)
        #expect(headers(plain).map { $0[4] } == [10, 1, 4])
        let unparsed = ASN1Parser.parse(DER.hex("02 01 05 FF FF"))
        #expect(unparsed.nodes.map(\.kind) == [.tlv, .unparsed] && escaped(unparsed) == [false, true])
        #expect(unparsed[1].contentLength == 2 && unparsed[1].byteRange == 3..<5)
    }

    /// The builder's setter records, replaces and drops escape entries as a node changes.
    @Test func builderSetterKeepsTheTableInStep() {
        func node(_ tag: UInt32) -> Node {
            Node(offset: 0, classBits: 2, constructed: false, tagNumber: tag, depth: 0, identifierLength: 4, lengthLength: 1)
        }
        // The nodes' one length octet, 00 after a 4-octet identifier, declares their content length 0.
        let input: [UInt8] = [0x5F, 0x81, 0x80, 0x01, 0x00]
        var builder = NodeBuilder(reserving: 4)
        let pointer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: input.count)
        defer { pointer.deallocate() }
        _ = pointer.initialize(from: input)
        builder.input = UnsafeBufferPointer(pointer)
        for tag in [1, 2, 3] as [UInt32] { builder.append(node(tag)) }
        builder[2] = node(70_000)
        builder[0] = node(80_000)
        #expect(builder.escapes.map(\.index) == [0, 2])
        builder[2] = node(90_000)
        #expect((0..<3).map { builder[$0].tagNumber } == [80_000, 2, 90_000])
        builder[0] = node(4)
        #expect(builder.escapes.map(\.index) == [2] && builder[0].tagNumber == 4)
        builder.removeAll(from: 2)
        #expect(builder.escapes.isEmpty && builder.count == 2)
        builder.append(node(5))
        let store = NodeStore(storage: builder.finish(keeping: input))
        #expect(store.map(\.tagNumber) == [4, 2, 5] && store.storage.escapes.isEmpty)
    }
}
