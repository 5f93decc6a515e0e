import ASN1Lenient
import ByteText
import JSONLenient
import JWSKit
import TextLoader
import DocumentCore

/// The signed tokens of a Retention Messaging reply, as layers: a JWS string of a JSON layer is a
/// token layer under it; `advancedCommerceData` is base64 JSON, a layer of its own whose JWS
/// strings are tokens under it. Each is developer-signed and verified with `--key`.
enum RetentionTokens {
    /// The token held by the JSON string `string` of `layer`; an Advanced Commerce request's
    /// `request` claim opened as its own layer, as for the token alone (so redact rewrites it too).
    static func add(_ builder: inout JWSLayerBuilder, string: Int, in tree: JSONTree, layer: LayerID, path: String) {
        let node = tree[string]
        let range = (node.start + 1)..<max(node.start + 1, node.end - 1)
        let document = JWSDocument.decode(text: Array(tree.bytes[range]))
        let index = builder.tokens.count
        builder.addToken(document, path: path, parent: nil, holder: (layer, range), extra: [])
        DeveloperTokenFormat.addRequestLayer(&builder, token: index)
    }

    /// `advancedCommerceData`: its base64 decoded into a JSON layer (mapped to the characters that
    /// carry each byte), then every compact JWS string in that JSON as a token under it.
    static func addAdvancedCommerceData(_ builder: inout JWSLayerBuilder, string: Int, in tree: JSONTree) {
        let offsets = tree.sourceOffsets(ofString: string)
        let text = offsets.map { tree.bytes[$0] }
        guard case .success(let decoded) = Base64Text.decode(text), decoded.bytes.first == UInt8(ascii: "{") else { return }
        let json = JSONParser.parse(decoded.bytes)
        let id = builder.nextID
        builder.layers.append(ByteLayer(id: id, role: .decodedJSON(urlSafe: decoded.urlSafe), name: "advancedCommerceData",
                                        bytes: decoded.bytes, content: .json(json, diagnostics: json.diagnostics),
                                        parent: .file, map: .base64Characters(OffsetList(offsets))))
        for index in 0..<json.count where json[index].kind == .string && isCompactJWS(json, index) {
            add(&builder, string: index, in: json, layer: id, path: "advancedCommerceData." + path(of: index, in: json))
        }
    }

    /// Three base64url runs joined by two dots, long enough to be a token.
    static func isCompactJWS(_ tree: JSONTree, _ index: Int) -> Bool {
        let node = tree[index]
        guard node.end - node.start >= 18 else { return false }
        let content = tree.bytes[(node.start + 1)..<(node.end - 1)]
        var dots = 0
        for c in content {
            switch c {
            case UInt8(ascii: "."): dots += 1
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"): continue
            default: return false
            }
        }
        return dots == 2
    }

    /// "signatureInfo.token": the keys from the root to the string.
    static func path(of index: Int, in tree: JSONTree) -> String {
        var keys: [String] = []
        var node = tree.parent(of: index)
        while let n = node {
            if tree[n].kind == .member, let key = tree.key(ofMember: n) { keys.insert(key, at: 0) }
            node = tree.parent(of: n)
        }
        return keys.joined(separator: ".")
    }

    /// Every token checked with the developer's key, as `DeveloperTokenFormat` checks one alone.
    static func verify(_ builder: inout JWSLayerBuilder, probe: FormatProbe) {
        for index in builder.tokens.indices {
            let document = builder.tokens[index].document
            let kind = document.payload.kind.developerKind ?? .promotionalOffer
            let options = DeveloperVerificationOptions(key: probe.jws.developerKey, keyID: probe.jws.expectedKeyID,
                                                       expectedBundleID: probe.options.bundleID, at: probe.options.moment)
            builder.tokens[index].report = DeveloperVerifier.verify(document, kind: kind, options: options)
        }
    }
}
