import Testing
import TestSupport
@testable import ASN1Lenient

/// `Tree.nodes` is a `NodeStore`: one buffer written by the parser, immutable afterwards.
@Suite struct NodeStoreTests {
    /// The arena keeps a node in 12 bytes: the tag number and the two header lengths share 16 bits,
    /// the flags and the depth another 16; the content length is read from the length octets and
    /// the parent is not stored.
    @Test func storedNodeTakesTwelveBytes() {
        #expect(MemoryLayout<PackedNode>.stride == 12)
        #expect(MemoryLayout<PackedNode>.size == 12)
        #expect(NodeStore.bytesPerNode == 12)
    }

    /// The common loop's node initialiser (class and constructed bit from the identifier octet's top
    /// three bits in one shift) gives exactly the general one's node, for every one-octet identifier.
    @Test func identifierOctetInitMatchesTheGeneralInit() {
        // The length octets after the identifier at 1234, and the content length each declares.
        let lengths: [Int: (octets: [UInt8], declared: UInt32)] = [1: ([0x05], 5), 2: ([0x81, 0x90], 0x90),
                                                                   3: ([0x82, 0x01, 0x00], 0x100)]
        for first in UInt8.min...UInt8.max {
            for (depth, lengthLength) in [(0, 1), (1, 2), (37, 3), (Node.maxDepth, 1)] {
                var input = [UInt8](repeating: 0, count: 1240)
                input.replaceSubrange(1235..<(1235 + lengthLength), with: lengths[lengthLength]!.octets)
                var general = Node(offset: 1234, classBits: first >> 6, constructed: first & 0x20 != 0,
                                   tagNumber: UInt32(first & 0x1F), depth: depth,
                                   identifierLength: 1, lengthLength: lengthLength)
                general.contentLength = lengths[lengthLength]!.declared
                let packed = PackedNode(offset: 1234, first: first, depthBits: PackedNode.depthBits(depth),
                                        lengthLength: lengthLength)
                let generalPacked = input.withUnsafeBufferPointer { PackedNode(general, input: $0) }
                #expect(packed == generalPacked && !packed.isEscaped, "identifier octet \(first), depth \(depth)")
                let common = input.withUnsafeBufferPointer { packed.unpacked($0.baseAddress!) }
                #expect(common == general, "identifier octet \(first), depth \(depth)")
                #expect(packed.isUniversal(UInt32(first & 0x1F)) == general.isUniversal(UInt32(first & 0x1F)))
                #expect(common.tagClass.rawValue == first >> 6 && common.isConstructed == (first & 0x20 != 0)
                    && Int(common.depth) == depth && !common.isIndefinite && !common.isEncapsulated && common.eocLength == 0)
            }
        }
        // The flags stay apart from the class and the constructed bit.
        var packed = PackedNode(offset: 0, first: 0xFF, depthBits: PackedNode.depthBits(Node.maxDepth), lengthLength: 1)
        packed.set(Node.Flag.indefinite)
        packed.set(Node.Flag.hasEOC)
        packed.set(Node.Flag.encapsulated)
        let input: [UInt8] = [0xFF, 0x00]
        var node = input.withUnsafeBufferPointer { packed.unpacked($0.baseAddress!) }
        #expect(node.tagClass == .private && node.isConstructed && node.isIndefinite && node.eocLength == 2
            && node.isEncapsulated && node.depth == UInt16(Node.maxDepth) && node.tagNumber == 31)
        packed.set(Node.Flag.encapsulated, false)
        node = input.withUnsafeBufferPointer { packed.unpacked($0.baseAddress!) }
        #expect(node.tagClass == .private && node.isConstructed && node.isIndefinite && !node.isEncapsulated)
    }

    /// A parent far back (past the nearby walk) is found through the store's table of blocks.
    @Test func parentIndexFarBackUsesTheTable() {
        // SEQUENCE { 200 × SEQUENCE { NULL } }: the last child's parent is 400 nodes back, past its
        // block of 256 nodes, whose first node (256, a NULL) has parent 255.
        let tree = ASN1Parser.parse(DER.tlv(0x30, (0..<200).flatMap { _ in DER.hex("30 02 05 00") }))
        #expect(tree.diagnostics.isEmpty && tree.nodes.count == 401)
        let expected = [-1] + (0..<200).flatMap { child in [0, 1 + 2 * child] }
        #expect(tree.nodes.indices.map(tree.nodes.parentIndex) == expected)
        #expect(tree.nodes.storage.blockParents() == [-1, 255])
    }

    /// Past its block, a parent comes from the sparse table of blocks' first nodes and their
    /// ancestors: the same as the plain definition (the nearest node before with one less depth)
    /// on a wide SEQUENCE, a chain 200 deep with 1,000 leaves at its bottom, and random nesting.
    @Test func parentIndexAgreesWithThePlainDefinition() {
        func plain(_ nodes: NodeStore) -> [Int] {
            nodes.indices.map { i in
                let depth = nodes[i].depth
                return depth == 0 ? -1 : (0..<i).last { nodes[$0].depth == depth - 1 }!
            }
        }
        func nest(_ depth: Int, _ inner: [UInt8]) -> [UInt8] { (0..<depth).reduce(inner) { content, _ in DER.tlv(0x30, content) } }
        var random = SeededRandom(state: 32)
        func randomTree(_ budget: inout Int, depth: Int) -> [UInt8] {
            var content: [UInt8] = []
            while budget > 0 && Int.random(in: 0..<12, using: &random) != 0 {
                budget -= 1
                content += depth < 40 && Bool.random(using: &random) ? randomTree(&budget, depth: depth + 1) : DER.hex("05 00")
            }
            return DER.tlv(0x30, content)
        }
        var budget = 3_000
        let inputs: [[UInt8]] = [
            DER.tlv(0x30, [UInt8]((0..<2_000).flatMap { _ in DER.hex("05 00") })),
            nest(200, [UInt8]((0..<1_000).flatMap { _ in DER.hex("05 00") })),
            { var all: [UInt8] = []; while budget > 0 { all += randomTree(&budget, depth: 0) }; return DER.tlv(0x30, all) }(),
        ]
        for input in inputs {
            let nodes = ASN1Parser.parse(input).nodes
            #expect(nodes.count > 500)
            #expect(nodes.indices.map(nodes.parentIndex) == plain(nodes))
        }
    }

    /// Every field of every node, after a parse that opens an encapsulated OCTET STRING.
    @Test func parseStoresExactNodes() {
        // SEQUENCE { INTEGER 5, OCTET STRING { UTF8String "ab" }, [1] { NULL } }
        let tree = parse("30 0D 02 01 05 04 04 0C 02 61 62 A1 02 05 00")
        #expect(tree.diagnostics.isEmpty)
        #expect(tree.nodes.count == 6 && tree.nodes.capacity == 6)
        let n = tree.nodes
        #expect(n.map(\.offset) == [0, 2, 5, 7, 11, 13])
        #expect(n.map(\.contentLength) == [13, 1, 4, 2, 2, 0])
        #expect(n.map(\.tagNumber) == [16, 2, 4, 12, 1, 5])
        #expect(n.indices.map(n.parentIndex) == [-1, 0, 0, 2, 0, 4])
        #expect(n.map(\.subtreeEnd) == [6, 2, 4, 4, 6, 6])
        #expect(n.map(\.depth) == [0, 1, 1, 2, 1, 2])
        #expect(n.map(\.identifierLength) == [1, 1, 1, 1, 1, 1])
        #expect(n.map(\.lengthLength) == [1, 1, 1, 1, 1, 1])
        #expect(n.map(\.isConstructed) == [true, false, false, false, true, false])
        #expect(n.map(\.isEncapsulated) == [false, false, true, false, false, false])
        #expect(n.map(\.tagClass) == [.universal, .universal, .universal, .universal, .contextSpecific, .universal])
        #expect(n.map(\.kind) == [.tlv, .tlv, .tlv, .tlv, .tlv, .tlv])
        #expect(Array(n.indices) == [0, 1, 2, 3, 4, 5])
        #expect(n.withUnsafeBufferPointer { Array($0) } == Array(n))
    }

    /// An unparsed region is the node with no identifier octets.
    @Test func unparsedRegionHasNoIdentifier() {
        let tree = parse("30 03 02 01 05 FF FF")
        #expect(tree.nodes.map(\.kind) == [.tlv, .tlv, .unparsed])
        #expect(tree[2].offset == 5 && tree[2].contentLength == 2 && tree[2].identifierLength == 0
            && tree[2].lengthLength == 0 && !tree[2].isUniversal(0) && tree[2].depth == 0)
    }

    /// Copies share the buffer and stay valid after the tree they came from is gone.
    @Test func copiesShareAndOutliveTheTree() {
        func nodesOfAParse() -> NodeStore { parse("31 06 02 01 01 02 01 02").nodes }
        let kept = nodesOfAParse()
        #expect(kept.map(\.offset) == [0, 2, 5] && kept.map(\.depth) == [0, 1, 1])
        let tree = parse("31 06 02 01 01 02 01 02")
        var copy = tree
        copy.append([Diagnostic(severity: .info, code: ParserCode.setNotSorted.code, message: "m",
                                offset: 0, length: 1, node: NodeIndex(0))])
        #expect(copy.nodes == tree.nodes && tree.diagnostics.isEmpty && copy.diagnostics.count == 1)
        #expect(kept == tree.nodes)  // equal element by element, different buffers
        #expect(NodeStore(Array(tree.nodes)) == tree.nodes)
        #expect(kept != parse("31 07 02 01 01 02 02 00 80").nodes)  // the second INTEGER is longer
    }

    @Test func emptyTree() {
        let tree = parse("")
        #expect(tree.nodes.isEmpty && tree.nodes.count == 0 && tree.nodes.capacity == 0)
        #expect(Array(tree.nodes) == [] && tree.roots.isEmpty && tree.nodes == NodeStore())
        let built = Tree(bytes: [], nodes: [], diagnostics: [], roots: [])
        #expect(built.nodes.isEmpty && built.nodes.startIndex == built.nodes.endIndex)
        #expect(NodeStore([Node]()) == [] && built.nodes.withUnsafeBufferPointer(\.count) == 0)
    }

    /// The parser reserves a node per 3 input bytes; 150 NULLs in 300 bytes need more, so the
    /// buffer grows, and is then trimmed to the nodes written.
    @Test func growsBeyondTheReserve() {
        let bytes: [UInt8] = (0..<300).map { $0 % 2 == 0 ? 0x05 : 0x00 }
        let tree = ASN1Parser.parse(bytes)
        #expect(300 / 3 + 16 < 150)
        #expect(tree.nodes.count == 150 && tree.nodes.capacity == 150)
        #expect(tree.nodes.map(\.offset) == (0..<150).map { UInt32(2 * $0) })
        #expect(tree.nodes.map(\.subtreeEnd) == (1...150).map { Int32($0) })
        #expect(tree.roots == Array(0..<150))
        #expect(tree.nodes.allSatisfy { $0.isUniversal(5) && $0.contentLength == 0 && $0.depth == 0 })
        #expect(tree.nodes.indices.allSatisfy { tree.nodes.parentIndex($0) == -1 })
        #expect(tree.diagnostics.map(\.code) == [ParserCode.trailingData.code])
    }

    /// A node records depths up to `Node.maxDepth` (1023): a larger `maxDepth` is lowered to 1022,
    /// where the element too deep gets the `nesting-too-deep` error and its content, one level
    /// further down, becomes an unparsed region.
    @Test func depthIsCappedWhereANodeCanRecordIt() {
        let levels = 1_100
        let bytes: [UInt8] = (0..<4 * levels).map { i in i < 2 * levels ? (i % 2 == 0 ? 0x30 : 0x80) : 0x00 }
        let tree = ASN1Parser.parse(bytes, options: ParseOptions(maxDepth: 5_000))
        #expect(tree.nodes.count == 1_024)
        #expect(tree.nodes.map(\.depth) == (0...1_023).map { UInt16($0) })
        #expect(tree[1_023].kind == .unparsed && tree[1_023].offset == 2 * 1_023)
        let tooDeep = tree.diagnostics.filter { $0.code == ParserCode.nestingTooDeep.code }
        #expect(tooDeep.map(\.node?.index) == [1_022] && tooDeep.map(\.offset) == [2 * 1_022])
    }
}
