import ASN1Lenient
import ByteText
import Threads
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Platform
import JSONLenient

extension JWSDocument {
    /// Nested tokens are decoded this many levels deep (a notification nests one level).
    public static let maximumNesting = 2

    /// Decodes a compact JWS. `text` is the token's characters only (trailing whitespace is
    /// ignored); `textOffset` is where they start in the enclosing layer. Never fails: a broken token
    /// yields the segments and fields that could be read, with diagnostics.
    public static func decode(text: [UInt8], textOffset: Int = 0) -> JWSDocument {
        decode(text: ByteWindow(text), textOffset: textOffset, nesting: 0)
    }

    /// `decode(text:textOffset:)` of characters that sit inside a larger array (a body, a payload),
    /// read in place.
    public static func decode(text: ByteWindow, textOffset: Int = 0) -> JWSDocument {
        decode(text: text, textOffset: textOffset, nesting: 0)
    }

    static func decode(text: ByteWindow, textOffset: Int, nesting: Int) -> JWSDocument {
        var document = JWSDocument(empty: text, textOffset: textOffset)
        document.readHeader(document.split())
        if let payload = document.segment(.payload) {
            document.readPayload(payload.bytes, tree: JSONParser.parse(payload.bytes), nesting: nesting)
        }
        document.readSignature()
        return document
    }

    /// Decodes a token that `StoreKitInput.classify` found in `body`: exactly what
    /// `decode(text: Array(body[token.range]), textOffset: token.range.lowerBound)` gives, without
    /// splitting the token or parsing its header and payload JSON again when classifying did.
    public static func decode(_ token: EmbeddedToken, in body: [UInt8]) -> JWSDocument {
        guard let prepared = token.prepared else {
            return decode(text: ByteWindow(body, window: token.range), textOffset: token.range.lowerBound)
        }
        return decode(prepared, textOffset: token.range.lowerBound)
    }

    /// Goes on decoding a token that classifying it prepared: the same document `decode(text:)`
    /// gives for the prepared text.
    public static func decode(_ prepared: Prepared, textOffset: Int = 0) -> JWSDocument {
        var document = prepared.document
        document.textOffset = textOffset
        if let payload = document.segment(.payload) {
            document.readPayload(payload.bytes, tree: prepared.payloadTree, nesting: 0, kind: prepared.kind, schema: prepared.schema)
        }
        document.readSignature()
        return document
    }

    /// A token decoded as far as its kind needed: segments, header, the payload's JSON tree (its
    /// schema decode and signature not yet read). `decode(_:in:)` goes on from here.
    public struct Prepared: Sendable {
        var document: JWSDocument
        var payloadTree: JSONTree
        /// `SchemaDecoder.kind(of: payloadTree)`, named once (classifying needs it; opening reads it).
        var kind: StoreKitPayloadKind
        /// A notification's payload read by its schema (its kind names the notification type): the
        /// same read `readPayload` makes, kept so that opening does not read it again.
        var schema: SchemaDecoder? = nil

        /// Whether the payload is an object naming every one of `keys` (the first of duplicates, as
        /// `StoreKitPayload.field` takes it), read from the tree already parsed: a format that tells
        /// an unknown payload apart by its claims need not decode the token a second time.
        public func payloadNames(_ keys: [String]) -> Bool {
            guard let root = payloadTree.root, payloadTree[root].kind == .object else { return false }
            return keys.allSatisfy { payloadTree.member($0, in: root) != nil }
        }
    }

    init(empty text: ByteWindow, textOffset: Int) {
        self.init(text: text, textOffset: textOffset, segments: [], headerJSON: nil, payloadJSON: nil,
                  header: JOSEHeader(), payload: StoreKitPayload(), signature: nil, nested: [], diagnostics: [])
    }

    /// The kind of token `text` holds, read from its payload's keys: a full decode of each token
    /// of a body only to name its kind doubled the cost of a transaction history. The work done
    /// (split, header, payload JSON) is kept in `Prepared` so that opening the body parses each
    /// payload once.
    static func payloadKind(text: ByteWindow) -> (kind: StoreKitTokenKind, prepared: Prepared?) {
        var document = JWSDocument(empty: text, textOffset: 0)
        let header = document.split()
        guard let payload = document.segment(.payload) else { return (StoreKitTokenKind(document.payload), nil) }
        // Only a notification's kind depends on field values (notificationType, subtype); the
        // other kinds are named by which keys the payload has, so their fields are not decoded.
        let tree = JSONParser.parse(payload.bytes)
        let payloadKind = SchemaDecoder.kind(of: tree)
        document.readHeader(header)  // as `decode` would next (from `HeaderMemo` after the first token)
        let prepared = Prepared(document: document, payloadTree: tree, kind: payloadKind)
        if let root = tree.root, tree[root].kind == .object, payloadKind != .notification {
            return (StoreKitTokenKind(StoreKitPayload(kind: payloadKind, fields: [])), prepared)
        }
        // Nested tokens do not change the kind (notificationType and subtype are plain fields): not
        // decoded here. The prepared copy is from before the payload was read: opening goes on with
        // the schema read made here and decodes the nested tokens, but does not split, parse or read
        // the token again (a notification is 18 KB: splitting and parsing it twice was a tenth of a
        // batch line, reading its schema twice 74 K instructions).
        if let root = tree.root, tree[root].kind == .object {
            var schema = SchemaDecoder(tree: tree)
            schema.decode(kind: payloadKind)
            var read = prepared
            read.schema = schema
            return (StoreKitTokenKind(StoreKitPayload(kind: payloadKind, fields: schema.fields)), read)
        }
        document.readPayload(payload.bytes, tree: tree, nesting: maximumNesting)
        return (StoreKitTokenKind(document.payload), prepared)
    }

    mutating func report(_ layer: JWSLayer, _ code: JWSCode, _ message: String, _ range: Range<Int>) {
        diagnostics.append(JWSDiagnostic(layer, code.diagnostic(message, range)))
    }

    /// Splits at the dots and base64url-decodes each part into its own layer. Returns what
    /// `HeaderMemo` knows of the header text, else the header's base64 result (to remember it).
    @discardableResult
    mutating func split() -> (known: HeaderMemo.Entry?, base64: Base64Decoder.Result?) {
        var end = text.count
        while end > 0, [0x20, 0x09, 0x0A, 0x0D].contains(text[end - 1]) { end -= 1 }
        // Room for a token's three parts (and its segments') at once: growing both by appending
        // allocated five times a token.
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(3)
        segments.reserveCapacity(3)
        var start = 0
        // memchr: the byte loop over every character was a third of splitting a history's tokens.
        text.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            while start < end, let dot = memchr(base + start, Int32(UInt8(ascii: ".")), end - start) {
                let i = base.distance(to: dot.assumingMemoryBound(to: UInt8.self))
                ranges.append(start..<i)
                start = i + 1
            }
        }
        ranges.append(start..<end)
        if ranges.count != 3 {
            let hint = ranges.count == 5 ? " (five parts is JWE, an encrypted token, which StoreKit does not use)" : ""
            report(.token, .segmentCount, "a compact JWS has 3 dot-separated parts, this has \(ranges.count)\(hint)", 0..<end)
        }
        var header: (known: HeaderMemo.Entry?, base64: Base64Decoder.Result?) = (nil, nil)
        for (position, range) in ranges.prefix(3).enumerated() {
            let role = JWSSegment.Role.allCases[position]
            if range.isEmpty {
                report(.token, .emptySegment, "the \(role.rawValue) segment is empty", range)
            }
            let result: Base64Decoder.Result
            if position == 0 {
                // The header segment starts at 0 in every token: a known text decodes the same.
                header.known = HeaderMemo.shared.entry(for: text.baseSlice(range))
                result = header.known?.base64 ?? Base64Decoder.decode(text, range, alphabet: .url)
                header.base64 = result
            } else {
                result = Base64Decoder.decode(text, range, alphabet: .url)
            }
            diagnostics += result.diagnostics.map { JWSDiagnostic(.token, $0) }
            segments.append(JWSSegment(role: role, characterRange: range, bytes: result.bytes,
                                       map: Base64Map(textStart: range.lowerBound)))
        }
        return header
    }

    /// Reads the header segment that `split` decoded: from `HeaderMemo` when it knew the text, else
    /// parsed and remembered.
    mutating func readHeader(_ split: (known: HeaderMemo.Entry?, base64: Base64Decoder.Result?)) {
        guard let segment = segment(.header) else { return }
        if let known = split.known {
            headerJSON = known.json
            header = known.header
            diagnostics += known.diagnostics
            return
        }
        let before = diagnostics.count
        readHeader(segment.bytes)
        if let json = headerJSON, let base64 = split.base64 {
            HeaderMemo.shared.store(text: text.baseSlice(segment.characterRange), HeaderMemo.Entry(
                base64: base64, json: json, header: header, diagnostics: Array(diagnostics[before...])))
        }
    }

    mutating func readHeader(_ bytes: [UInt8]) {
        let tree = JSONParser.parse(bytes)
        headerJSON = tree
        diagnostics += tree.diagnostics.map { JWSDiagnostic(.header, $0) }
        guard let root = tree.root, tree[root].kind == .object else {
            report(.header, .headerNotObject, "the JOSE header must be a JSON object", 0..<bytes.count)
            return
        }
        header.typ = tree.value("typ", in: root).flatMap(tree.string(at:))
        header.kid = tree.value("kid", in: root).flatMap(tree.string(at:))
        if let alg = tree.value("alg", in: root) {
            header.algNode = JSONNodeIndex(alg)
            header.alg = tree.string(at: alg)
            switch header.alg {
            case "ES256": break
            case "none"?, "None"?, "NONE"?:
                report(.header, .algNone, "alg \"none\" means unsigned: never accept it", tree[alg].range)
            default:
                report(.header, .algUnsupported, "alg \(tree.text(of: alg)) is not ES256, the only algorithm Apple signs StoreKit tokens with", tree[alg].range)
            }
        } else {
            report(.header, .algMissing, "the header has no alg", tree[root].range)
        }
        guard let x5c = tree.value("x5c", in: root), tree[x5c].kind == .array else {
            // A `kid` without x5c is a developer-signed token: its key is the developer's, not in the token.
            if header.kid == nil { report(.header, .x5cMissing, "the header has no x5c certificate array", tree[root].range) }
            return
        }
        for (position, entry) in tree.children(of: x5c).enumerated() {
            guard let base64 = tree.string(at: entry) else {
                report(.header, .x5cEntryNotString, "x5c[\(position)] is not a string", tree[entry].range)
                continue
            }
            let characters = Array(base64.utf8)
            let offsets = tree.sourceOffsets(ofString: entry)
            let result = Base64Decoder.decode(characters[...], alphabet: .standard)
            let stringEnd = max(tree[entry].start, tree[entry].range.upperBound - 1)  // the closing quote
            for diagnostic in result.diagnostics {
                // Offset AND length move to header coordinates: with `\/` escapes they differ.
                var moved = diagnostic
                let range = X5CCertificate.headerRange(ofCharacters: diagnostic.range, offsets: offsets, end: stringEnd)
                moved.offset = range.lowerBound
                moved.length = range.count
                diagnostics.append(JWSDiagnostic(.header, moved))
            }
            let der = result.bytes
            let parsed = ASN1Parser.parse(der)
            diagnostics += parsed.diagnostics.map { JWSDiagnostic(.certificate(position), $0) }
            header.certificates.append(X5CCertificate(position: position, node: JSONNodeIndex(entry), base64: characters,
                                                      headerOffsets: offsets, headerEnd: stringEnd,
                                                      map: Base64Map(textStart: 0), der: der, tree: parsed))
        }
    }

    /// `tree` is `JSONParser.parse(bytes)`; `kind`, when given, is `SchemaDecoder.kind(of: tree)`;
    /// `schema`, when given, is its schema read already (`SchemaDecoder(tree: tree)` decoded for that kind).
    mutating func readPayload(_ bytes: [UInt8], tree: JSONTree, nesting: Int, kind knownKind: StoreKitPayloadKind? = nil,
                              schema known: SchemaDecoder? = nil) {
        payloadJSON = tree
        diagnostics += tree.diagnostics.map { JWSDiagnostic(.payload, $0) }
        guard let root = tree.root, tree[root].kind == .object else {
            report(.payload, .payloadNotObject, "the payload must be a JSON object", 0..<bytes.count)
            return
        }
        let kind = knownKind ?? SchemaDecoder.kind(of: tree)
        let schema = known ?? {
            var schema = SchemaDecoder(tree: tree)
            schema.decode(kind: kind)
            return schema
        }()
        diagnostics += schema.diagnostics.map { JWSDiagnostic(.payload, $0) }
        payload = StoreKitPayload(kind: kind, fields: schema.fields)
        if kind == .advancedCommerceRequest { readAdvancedCommerceRequest(tree) }
        for position in payload.fields.indices {
            guard case .nestedToken(let token)? = Optional(payload.fields[position].value) else { continue }
            let (path, node, _) = schema.tokens[token]
            guard nesting + 1 < Self.maximumNesting else {
                report(.payload, .nestedTooDeep, "\(path) is a token inside a nested token: not decoded", tree[node].range)
                payload.fields[position].value = .string(tree.string(at: node) ?? "")
                continue
            }
            let content = (tree[node].start + 1)..<max(tree[node].start + 1, tree[node].end - 1)
            let child = JWSDocument.decode(text: ByteWindow(bytes, window: content), textOffset: content.lowerBound, nesting: nesting + 1)
            payload.fields[position].value = .nestedToken(index: nested.count)
            nested.append(NestedToken(path: path, node: JSONNodeIndex(node), document: child))
        }
    }

    mutating func readSignature() {
        guard let segment = segment(.signature) else { return }
        let bytes = segment.bytes
        if bytes.count == 64 {
            signature = ECDSASignature(raw: bytes)
        } else if header.alg == "ES256" || header.alg == nil {
            var message = "an ES256 signature is 64 bytes (r‖s), this one is \(bytes.count)"
            if let der = ECDSASignature(der: bytes) {
                signature = der
                message += ": it is DER ECDSA-Sig-Value, the X.509/CMS encoding; JWS requires raw r‖s"
                report(.signature, .signatureIsDER, message, 0..<bytes.count)
            } else {
                report(.signature, .signatureLength, message, 0..<bytes.count)
            }
        }
    }
}

/// The last few JOSE headers decoded, by their base64url text. Every token of a transaction
/// history, and a notification's nested tokens, carry the same header (three certificates, ≈ 3.7 KB
/// of base64), and decoding it (base64, JSON, three certificate parses) was most of a token's
/// cost. An entry is exactly what decoding that text yields: the header segment starts at offset 0
/// of every token, and every header position and diagnostic is relative to it.
// @unchecked: `entries` is read and written only with `lock` held, and an `Entry` is a Sendable value.
final class HeaderMemo: @unchecked Sendable {
    struct Entry: Sendable {
        var base64: Base64Decoder.Result
        var json: JSONTree
        var header: JOSEHeader
        var diagnostics: [JWSDiagnostic]
    }

    static let shared = HeaderMemo()
    private static let capacity = 4
    private var entries: [(text: [UInt8], entry: Entry)] = []
    private let lock = Lock()

    func entry(for text: ArraySlice<UInt8>) -> Entry? {
        lock.withLock { entries.first { ByteSearch.same($0.text, text) }?.entry }
    }

    func store(text: ArraySlice<UInt8>, _ entry: Entry) {
        lock.withLock {
            if entries.count == Self.capacity { entries.removeFirst() }
            entries.append((Array(text), entry))
        }
    }
}
