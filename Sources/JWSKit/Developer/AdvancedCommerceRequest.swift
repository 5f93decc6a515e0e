import ASN1Lenient
import JSONLenient

/// The `request` claim of an Advanced Commerce API in-app request: standard base64 of the request's
/// UTF-8 JSON (Apple's server libraries encode it so), decoded into a JSON layer of its own whose
/// bytes map back to the payload characters that carry them (`\/` escapes included), as `x5c` does.
public struct AdvancedCommerceRequest: Sendable {
    /// The `request` string node in the payload layer.
    public var node: JSONNodeIndex
    /// Payload offset of each base64 character (not linear when `\/` escapes occur).
    public var payloadOffsets: [Int]
    /// The decoded request: UTF-8 JSON.
    public var bytes: [UInt8]
    public var json: JSONTree

    /// Payload offset of the first base64 character when the string has no escapes: then request
    /// byte ↔ payload byte is plain base64 arithmetic.
    public var contiguousTextStart: Int? {
        guard let first = payloadOffsets.first, payloadOffsets.last == first + payloadOffsets.count - 1 else { return nil }
        return first
    }

    /// The request's top-level `operation` and `version` (what Apple routes it by), when present.
    public var operation: String? { json.root.flatMap { json.value("operation", in: $0) }.flatMap(json.string(at:)) }
}

extension JWSDocument {
    /// Decodes the payload's `request` claim (`tree` is the payload layer); base64 problems are
    /// reported on the payload characters at fault, JSON problems in the request layer.
    mutating func readAdvancedCommerceRequest(_ tree: JSONTree) {
        guard let root = tree.root, let node = tree.value("request", in: root), let text = tree.string(at: node) else { return }
        let characters = Array(text.utf8)
        let offsets = tree.sourceOffsets(ofString: node)
        let stringEnd = max(tree[node].start, tree[node].range.upperBound - 1)
        let result = Base64Decoder.decode(characters[...], alphabet: .standard)
        for diagnostic in result.diagnostics {
            var moved = diagnostic
            let range = X5CCertificate.headerRange(ofCharacters: diagnostic.range, offsets: offsets, end: stringEnd)
            moved.offset = range.lowerBound
            moved.length = range.count
            diagnostics.append(JWSDiagnostic(.payload, moved))
        }
        let json = JSONParser.parse(result.bytes)
        diagnostics += json.diagnostics.map { JWSDiagnostic(.request, $0) }
        if let root = json.root, json[root].kind != .object {
            report(.request, .payloadNotObject, "an Advanced Commerce request must be a JSON object", json[root].range)
        }
        request = AdvancedCommerceRequest(node: JSONNodeIndex(node), payloadOffsets: offsets, bytes: result.bytes, json: json)
    }
}
