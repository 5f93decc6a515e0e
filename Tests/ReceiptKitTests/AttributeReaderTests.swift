import Foundation
import Testing
import TestSupport
import ASN1Lenient
@testable import ReceiptKit

/// `AttributeReader` reads an attribute's children in one pass over the raw node and byte buffers
/// (issue 12). It must say exactly what the plain reading through `Tree` and `Node` says, for every
/// node of crafted receipts (every edge case of `AttributeEdgeTests`, BER, a cut input) and samples.
@Suite struct AttributeReaderTests {
    /// The straightforward reading: `Tree.children(of:)`, `Node`'s computed accessors,
    /// `IntegerValue.int64` of the content bytes.
    static func plainShape(_ tree: Tree, _ node: Int) -> AttributeShape {
        var shape = AttributeShape()
        let n = tree.nodes[node]
        guard n.kind == .tlv else { return shape }
        shape.isParsed = true
        guard n.isUniversal(16), n.isConstructed else { return shape }
        shape.isSequence = true
        let children = tree.children(of: node).filter { tree.nodes[$0].kind == .tlv }
        shape.count = children.count
        func int(_ c: Int) -> Int64? { IntegerValue.int64(tree.bytes[tree.nodes[c].contentRange]) }
        if children.count > 0 {
            shape.typeNode = children[0]
            let t = tree.nodes[children[0]]
            if t.isUniversal(2), !t.isConstructed, let v = int(children[0]) { shape.type = Int(v) }
        }
        if children.count > 1 {
            shape.versionNode = children[1]
            if tree.nodes[children[1]].isUniversal(2) { shape.version = int(children[1]) }
        }
        guard children.count > 2 else { return shape }
        shape.thirdNode = children[2]
        var value = children[2]
        let all = Array(tree.children(of: value))
        if tree.nodes[value].isUniversal(4), tree.nodes[value].isConstructed, all.count == 1,
           tree.nodes[all[0]].isUniversal(4), !tree.nodes[all[0]].isConstructed {
            value = all[0]
        }
        shape.valueNode = value
        shape.valueIsOctetString = tree.nodes[value].isUniversal(4) && !tree.nodes[value].isConstructed
        return shape
    }

    /// Every node of the tree the decoder reads (the purposeful parse's when there was one), read
    /// both ways; returns how many were attribute SEQUENCEs with a type and three children.
    @discardableResult
    static func compareEveryNode(_ bytes: [UInt8], _ name: String) -> Int {
        let tree = decode(bytes).receiptTree
        var attributes = 0
        tree.nodes.withUnsafeBufferPointer { nb in
            tree.bytes.withUnsafeBufferPointer { bb in
                for node in tree.nodes.indices {
                    let fast = AttributeReader.read(node, nodes: nb, bytes: bb)
                    let plain = plainShape(tree, node)
                    #expect(fast == plain, "\(name) node \(node) at \(tree.nodes[node].offset)")
                    if plain.type != nil, plain.count >= 3 { attributes += 1 }
                }
            }
        }
        return attributes
    }

    @Test func edgeReceiptReadsTheSameBothWays() {
        // 16 at each level: the good one, the extra child, types -5, -2^63 and 2^63-1, the three bad
        // versions, the eight value shapes (constructed, indefinite, not an OCTET STRING, cut inside);
        // plus the 6 required app attributes, attribute 17, the purchase's 4 required ones, and the
        // SignedData SEQUENCE itself (INTEGER version, then three more elements).
        let count = Self.compareEveryNode(AttributeEdgeTests.edgeReceipt(), "edge")
        #expect(count == Self.edgeAttributeCount)
    }

    @Test func cutInputsReadTheSameBothWays() {
        let bytes = AttributeEdgeTests.edgeReceipt()
        // Cut at every 37th byte: lengths run past the end, nodes are truncated, regions unparsed.
        for cut in stride(from: 1, to: bytes.count, by: 37) {
            Self.compareEveryNode(Array(bytes[..<cut]), "cut at \(cut)")
        }
    }

    @Test(arguments: ["typical.receipt", "xcode-ber.receipt",
        "malformed-truncated.receipt", "malformed-indefinite-in-payload.receipt", "malformed-length-past-parent.receipt",
        "malformed-wrong-type.receipt", "unlisted-attributes.receipt"])
    func samplesReadTheSameBothWays(_ name: String) throws {
        #expect(Self.compareEveryNode(try Paths.sample(name), name) > 0)
    }

    /// A bare node index outside the tree reads as nothing rather than trapping.
    @Test func outOfRangeNodeIsNotParsed() {
        let tree = ASN1Parser.parse(DER.seq(DER.int(2), DER.int(1), DER.octets([])))
        let shape = tree.nodes.withUnsafeBufferPointer { nb in
            tree.bytes.withUnsafeBufferPointer { bb in AttributeReader.read(tree.count, nodes: nb, bytes: bb) }
        }
        #expect(shape == AttributeShape())
        let whole = tree.nodes.withUnsafeBufferPointer { nb in
            tree.bytes.withUnsafeBufferPointer { bb in AttributeReader.read(0, nodes: nb, bytes: bb) }
        }
        #expect(whole == AttributeShape(isParsed: true, isSequence: true, count: 3, typeNode: 1, versionNode: 2,
                                        thirdNode: 3, type: 2, version: 1, valueNode: 3, valueIsOctetString: true))
    }

    static let edgeAttributeCount = 2 * 16 + 6 + 1 + 4 + 1
}
