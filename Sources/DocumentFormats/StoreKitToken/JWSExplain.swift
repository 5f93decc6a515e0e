import ASN1Lenient
import JSONLenient
import JWSKit
import ByteText
import TextOutput
import DocumentCore

/// `explain` for StoreKit 2 input. With an offset (a character of the file: the token's own
/// characters for a token pasted alone): which 4 characters make which 3 bytes, the JSON member
/// those bytes belong to (key, value, meaning), then the DER explanation inside an `x5c`
/// certificate or the same explanation again inside a nested token. Without: a short overview.
public struct JWSExplain {
    public var document: Document

    public init(_ document: Document) { self.document = document }

    /// "token", "token at data.signedTransactionInfo": the path is made of the body's keys, input text.
    static func name(of token: JWSToken) -> String { token.path.map { "token at \(TerminalSafe.escape($0))" } ?? "token" }

    /// "header: characters 0-1595 → 1,197 bytes", one line per segment the token has.
    public static func segmentLines(_ token: JWSToken) -> [String] {
        token.document.segments.map {
            "\($0.role.rawValue): characters \(JWSSpan.text($0.characterRange)) → \(NumberText.grouped($0.bytes.count)) bytes"
        }
    }

    static let alphabet = Base64Groups.urlAlphabet

    /// Nil when no token covers `offset` (a JSON body's own punctuation, say).
    public func explain(fileOffset offset: Int) -> String? {
        if let model = document.externalPurchase { return externalPurchaseLines(model, character: offset).joined(separator: "\n") + "\n" }
        guard let jws = document.jws else { return nil }
        // Top-level tokens hold file characters; nested tokens are reached through their parent's payload.
        for index in jws.tokens.indices where jws.tokens[index].parent == nil {
            let range = document.fileRange(0..<jws.tokens[index].document.text.count, in: jws.tokens[index].layers.token)
            if range.contains(offset) { return explain(token: index, character: offset - range.lowerBound).joined(separator: "\n") + "\n" }
        }
        return nil
    }

    func explain(token index: Int, character c: Int) -> [String] {
        guard let jws = document.jws else { return [] }
        let token = jws.tokens[index]
        let name = Self.name(of: token)
        guard let segment = token.document.segments.first(where: { $0.characterRange.contains(c) }) else {
            let byte = c < token.document.text.count ? token.document.text[c] : 0
            let what = byte == UInt8(ascii: ".") ? "a dot separating two segments of the compact JWS (header.payload.signature)" : "outside the three segments"
            return ["\(name), character \(c): \(what)"]
        }
        let start = segment.characterRange.lowerBound
        let group = (c - start) / 4
        let characters = (start + 4 * group)..<min(segment.characterRange.upperBound, start + 4 * group + 4)
        let bytes = (3 * group)..<min(segment.bytes.count, 3 * group + 3)
        var lines = ["\(name), character \(c): in the \(segment.role.rawValue) segment (characters \(JWSSpan.text(segment.characterRange)))",
                     "base64url: " + Base64Groups.group(text: token.document.text, positions: Array(characters), alphabet: Self.alphabet,
                                                into: segment.role.rawValue, bytes: bytes, decoded: ByteWindow(segment.bytes), asText: segment.role != .signature)]
        guard let byte = bytes.first else { return lines }
        let precise = (c - start) * 6 / 8
        let target = bytes.contains(precise) ? precise : byte
        switch segment.role {
        case .signature:
            lines.append(target < 32 ? "signature byte \(target): part of r (bytes 0-31 of r‖s)" : "signature byte \(target): part of s (bytes 32-63 of r‖s)")
        case .header:
            if let layer = token.layers.header { lines += jsonLines(token, layer, byte: target, header: true) }
        case .payload:
            if let layer = token.layers.payload { lines += jsonLines(token, layer, byte: target, header: false) }
            if let nested = token.document.nested.firstIndex(where: { n in
                (n.document.textOffset..<(n.document.textOffset + n.document.text.count)).contains(target) }) {
                let children = jws.nestedIndices(of: index)
                if nested < children.count {
                    let child = children[nested]
                    lines.append("")
                    lines += explain(token: child, character: target - jws.tokens[child].document.textOffset)
                }
            }
        }
        return lines
    }

    func jsonLines(_ token: JWSToken, _ layer: LayerID, byte: Int, header: Bool) -> [String] {
        guard let tree = document.layer(layer).json else { return [] }
        // The innermost member containing the byte.
        var best: Int?
        for index in 0..<tree.count where tree[index].kind == .member && tree[index].range.contains(byte) {
            if best.map({ tree[index].range.count < tree[$0].range.count }) ?? true { best = index }
        }
        guard let member = best, let key = tree.key(ofMember: member), let value = tree.value(ofMember: member) else {
            return ["JSON byte \(byte): punctuation of the \(header ? "header" : "payload") object"]
        }
        var lines = ["JSON member \"\(TerminalSafe.escape(key))\" (bytes \(JWSSpan.text(tree[member].range))): \(TerminalSafe.escape(shortText(tree, value)))"]
        if !header, let field = token.document.payload.fields.first(where: { $0.member.index == member }) {
            let meaning = field.spec.map { _ in field.value.display } ?? "not in the schema (kept as written)"
            lines.append("meaning: \(TerminalSafe.escape(meaning))")
            if let introduced = field.spec?.introduced { lines.append("introduced in: \(introduced)") }
        }
        if header, let (position, certificate) = token.document.header.certificates.enumerated().first(where: { $0.element.headerOffsets.contains(byte) }),
           let character = certificate.headerOffsets.firstIndex(of: byte), position < token.layers.certificates.count {
            let der = character * 6 / 8
            let tree = certificate.tree
            lines.append("x5c[\(position)] base64 character \(character) → DER byte \(der) of the certificate (layer \(token.layers.certificates[position].index))")
            if let node = tree.deepestNode(containing: der) {
                let names = document.names(for: token.layers.certificates[position])
                lines.append("path: " + Explainer.pathText(tree, to: node, names: names, grouped: false))
                lines.append(Explainer.render(Explainer.explain(tree, node: node, name: names[node])).trimmingSuffixNewlines)
            }
        }
        return lines
    }

    func shortText(_ tree: JSONTree, _ value: Int) -> String {
        let text = tree.text(of: value)
        return text.count > 80 ? String(text.prefix(77)) + "…" : text
    }

    /// Without an offset: each token's segments and its first base64 group, bounded.
    public func overview() -> String {
        var text = ""
        writeOverview { text += $0 }
        return text
    }

    /// `overview` handed to `emit` a token at a time (each piece ends with a line end): a
    /// history's 10,000 tokens were 9 MB of lines held at once.
    public func writeOverview(_ emit: (String) -> Void) {
        if let model = document.externalPurchase { return emit(externalPurchaseOverview(model)) }
        guard let jws = document.jws else { return }
        for (index, token) in jws.tokens.enumerated() {
            let name = Self.name(of: token)
            var lines = ["\(name): \(token.label), \(NumberText.grouped(token.document.text.count)) characters, \(token.headerSummary)"]
            lines += Self.segmentLines(token).map { "  " + $0 }
            if index == 0, token.parent == nil {
                lines.append("  every 4 base64url characters carry 3 bytes (6 bits each); the first group:")
                lines += explain(token: index, character: 0).dropFirst().map { "  " + $0 }
            }
            emit(lines.joined(separator: "\n") + "\n")
        }
        emit("use --offset N (a character of the input) to explain one place: its characters, bytes, JSON member and, in x5c, the DER\n")
    }
}

extension String {
    var trimmingSuffixNewlines: String {
        var s = self
        while s.hasSuffix("\n") { s.removeLast() }
        return s
    }
}
