import BenchSupport
import SwiftASN1

/// swift-asn1 parse results, kept whole so that their heap can be measured.
enum BERParseImpl {
    static func parse(_ bytes: [UInt8]) throws -> ASN1Node { try BER.parse(bytes) }

    /// The root and every inner parse of an OCTET STRING that holds one element.
    static func parseDescending(_ bytes: [UInt8]) throws -> [ASN1Node] {
        var all: [ASN1Node] = []
        func walk(_ node: ASN1Node) {
            switch node.content {
            case .constructed(let children):
                for child in children { walk(child) }
            case .primitive(let content):
                if node.identifier == .octetString, Parsers.looksLikeOneElement(content), let inner = try? BER.parse(content) {
                    all.append(inner)
                    walk(inner)
                }
            }
        }
        let root = try BER.parse(bytes)
        all.append(root)
        walk(root)
        return all
    }
}
