import ASN1Lenient
import SwiftASN1

/// The parsers under comparison. Each returns the number of nodes it produced, so that the work
/// cannot be optimised away and so that "nodes" means the same thing in every row.
public enum Parsers {
    /// receipt-explorer's parser with its defaults: offsets, diagnostics, per-type value checks and
    /// the encapsulation guess (it descends into OCTET STRINGs holding ASN.1, as a receipt needs).
    @inline(never)
    public static func ours(_ bytes: [UInt8]) -> Int {
        ASN1Parser.parse(bytes).count
    }

    /// receipt-explorer's parser without the encapsulation guess: the same nodes swift-asn1 sees.
    @inline(never)
    public static func oursNoGuess(_ bytes: [UInt8]) -> Int {
        ASN1Parser.parse(bytes, options: ParseOptions(guessEncapsulation: false)).count
    }

    /// apple/swift-asn1's `BER.parse`, then a walk that touches every node (its node collection is
    /// built eagerly by the parse; the walk is what any consumer does next). It does not look
    /// inside OCTET STRINGs.
    @inline(never)
    public static func swiftASN1(_ bytes: [UInt8]) throws -> Int {
        let root = try BER.parse(bytes)
        return count(root, descend: false)
    }

    /// `BER.parse`, and `BER.parse` again on every OCTET STRING whose content is one ASN.1 element
    /// (what a receipt decoder built on swift-asn1 must do to reach the in-app purchases and the
    /// attribute values) — the same nodes as `ours`.
    @inline(never)
    public static func swiftASN1Descending(_ bytes: [UInt8]) throws -> Int {
        let root = try BER.parse(bytes)
        return count(root, descend: true)
    }

    static func count(_ node: ASN1Node, descend: Bool) -> Int {
        switch node.content {
        case .constructed(let children):
            var n = 1
            for child in children { n += count(child, descend: descend) }
            return n
        case .primitive(let content):
            if descend && node.identifier == .octetString && looksLikeOneElement(content),
               let inner = try? BER.parse(content) {
                return 1 + count(inner, descend: true)
            }
            return 1
        }
    }

    /// The same cheap pre-check receipt-explorer's parser uses before guessing encapsulation.
    public static func looksLikeOneElement(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count >= 2 else { return false }
        var p = bytes.startIndex
        let end = bytes.endIndex
        let first = bytes[p]
        if first == 0 { return false }
        p += 1
        if first & 0x1F == 0x1F {
            while p < end && bytes[p] & 0x80 != 0 { p += 1 }
            p += 1
        }
        guard p < end else { return false }
        let lengthOctet = bytes[p]
        p += 1
        if lengthOctet == 0x80 { return first & 0x20 != 0 }
        if lengthOctet < 0x80 { return p + Int(lengthOctet) == end }
        let octets = Int(lengthOctet & 0x7F)
        guard octets <= 8, p + octets <= end else { return false }
        var value = 0
        for i in 0..<octets { value = (value << 8) | Int(bytes[p + i]) }
        guard value >= 0 else { return false }
        return p + octets + value == end
    }
}

/// Memory the parse result keeps, computed from the arena (not sampled).
public struct ArenaFootprint: Sendable {
    public let nodes: Int
    public let nodeStride: Int
    public let nodeCapacity: Int
    public let diagnostics: Int
    /// Node buffer capacity × bytes per node, escape table, diagnostics (struct + message text), roots array.
    public let bytes: Int

    public init(_ tree: Tree) {
        nodes = tree.count
        nodeStride = NodeStore.bytesPerNode
        nodeCapacity = tree.nodes.capacity
        diagnostics = tree.diagnostics.count
        var total = tree.nodes.capacity * NodeStore.bytesPerNode + tree.nodes.escapeTableBytes
        total += tree.diagnostics.capacity * MemoryLayout<Diagnostic>.stride
        for d in tree.diagnostics { total += d.message.utf8.count + d.code.rawValue.utf8.count }
        total += tree.roots.capacity * MemoryLayout<Int>.stride
        bytes = total
    }

    public var bytesPerNode: Double { nodes == 0 ? 0 : Double(bytes) / Double(nodes) }
}
