import ASN1Lenient
import JSONLenient
import JWSKit
import ReceiptKit
import ByteText
import TextOutput
import X509Trust
import DocumentCore

/// `dump` for StoreKit 2 input: the token → header (fields; each x5c certificate as its ASN.1
/// tree in its own DER layer) → payload (fields with their meanings; nested tokens expanded) →
/// signature (r, s and the DER ECDSA-Sig-Value). Every field line gives its token characters and
/// its decoded-JSON bytes; each diagnostic is printed under the field (or layer) it concerns.
///
/// ```
/// token (4,556 characters)
///   header: chars 0-3359 → 2,520 bytes of JSON (layer 1)
///     alg "ES256"  chars 2-17, bytes 1-11
/// ```
public struct JWSTreeDump {
    public var document: Document
    public var color: Bool
    /// Each distinct certificate's subject and tree lines, made once a dump: a history's tokens
    /// carry the same few certificates, and rendering them again for every token was three quarters
    /// of its `dump` (6 s for 9,560 tokens).
    let certificates = CertificateText()

    final class CertificateText {
        var byDER: [[UInt8]: (subject: String?, lines: [Substring])] = [:]
    }

    public init(_ document: Document, color: Bool = false) {
        self.document = document
        self.color = color
    }

    var paint: Painter { Painter(enabled: color) }

    public func render() -> String {
        var text = ""
        write { text += $0 }
        return text
    }

    /// The dump, handed to `emit` a top-level token at a time (each piece ends with a line end):
    /// a history of 10,000 tokens is never one string (its lines were 800 MB for a 50 MB body).
    public func write(_ emit: (String) -> Void) {
        func emitLines(_ lines: [String]) {
            if !lines.isEmpty { emit(lines.joined(separator: "\n") + "\n") }
        }
        var counts = [Int](repeating: 0, count: Severity.allCases.count)
        for d in document.diagnostics { counts[d.diagnostic.severity.rawValue] += 1 }
        let findings = "\(counts[0]) error\(counts[0] == 1 ? "" : "s"), \(counts[1]) der, \(counts[2]) warning\(counts[2] == 1 ? "" : "s"), \(counts[3]) info"
        emitLines([paint.paint("# \(TerminalSafe.escape(document.source.name)): \(document.note)", .dim)])
        if let model = document.externalPurchase {
            emitLines(externalPurchaseLines(model))
            emitLines([paint.paint("# 1 token, \(document.layers.count) layers; " + findings, .dim)])
            return
        }
        guard let jws = document.jws else {
            emitLines(diagnosticLines(document.fileLayer.content.diagnostics, indent: 0))
            return
        }
        if jws.body != nil { emitLines(diagnosticLines(document.fileLayer.content.diagnostics, indent: 0)) }
        for (index, token) in jws.tokens.enumerated() where token.parent == nil {
            emitLines(tokenLines(index, indent: 0) + document.format.tokenNotes(document, token: index).map { "  " + $0 })
        }
        emitLines([paint.paint("# \(jws.tokens.count) token\(jws.tokens.count == 1 ? "" : "s"), \(document.layers.count) layer\(document.layers.count == 1 ? "" : "s"); "
            + findings, .dim)])
    }

    func pad(_ indent: Int) -> String { String(repeating: " ", count: indent) }

    func tokenLines(_ index: Int, indent: Int) -> [String] {
        guard let jws = document.jws else { return [] }
        let token = jws.tokens[index]
        let doc = token.document
        var lines: [String] = []
        let place = token.path.map { "\(TerminalSafe.escape($0)): " } ?? ""  // the body's keys: input text
        let fileRange = document.fileRange(0..<doc.text.count, in: token.layers.token)
        lines.append(pad(indent) + paint.paint(place + "token", .bold) + " \(token.label), "
            + "\(NumberText.grouped(doc.text.count)) characters" + paint.paint("  \(whereIs(fileRange, token.layers.token, count: doc.text.count)) (layer \(token.layers.token.index))", .dim))
        lines += diagnosticLines(document.layer(token.layers.token).content.diagnostics, indent: indent + 2, unit: "chars")
        if let header = token.layers.header { lines += headerLines(token, header, indent: indent + 2) }
        if let payload = token.layers.payload { lines += payloadLines(index, payload, indent: indent + 2) }
        if let request = token.layers.request { lines += requestLines(token, request, indent: indent + 2) }
        if let signature = token.layers.signature { lines += signatureLines(token, signature, indent: indent + 2) }
        return lines
    }

    /// "file bytes 0-4555" for a clean input; where the paste put them otherwise ("characters
    /// 62-5383 of line 4 of app.log"): the file layer of a paste is not the file.
    func whereIs(_ fileRange: Range<Int>, _ layer: LayerID, count: Int) -> String {
        document.pastedWords(0..<count, in: layer) ?? "file bytes \(JWSSpan.text(fileRange))"
    }

    func layerLine(_ name: String, _ token: JWSToken, _ layer: LayerID, what: String, indent: Int) -> String {
        let bytes = document.layer(layer).bytes.count
        let span = document.jwsSpan(0..<bytes, in: layer, token: token)
        return pad(indent) + paint.paint(name, .bold) + ": " + paint.paint("chars \(JWSSpan.text(span.characters))", .dim)
            + " → \(NumberText.grouped(bytes)) bytes of \(what) " + paint.paint("(layer \(layer.index))", .dim)
    }

    func headerLines(_ token: JWSToken, _ layer: LayerID, indent: Int) -> [String] {
        var lines = [layerLine("header", token, layer, what: "JSON", indent: indent)]
        guard let tree = document.layer(layer).json, let root = tree.root, tree[root].kind == .object else {
            return lines + diagnosticLines(document.layer(layer).content.diagnostics, indent: indent + 2)
        }
        var diagnostics = document.layer(layer).content.diagnostics
        for member in tree.members(of: root) {
            guard let key = tree.key(ofMember: member), let value = tree.value(ofMember: member) else { continue }
            let mine = take(&diagnostics, in: tree[member].range)
            if key == "x5c", tree[value].kind == .array {
                let n = tree.children(of: value).count
                lines.append(fieldLine(key, "\(n) certificate\(n == 1 ? "" : "s")", token, layer, tree[member].range, indent: indent + 2))
                lines += diagnosticLines(mine, indent: indent + 4)
                for (position, certificateLayer) in token.layers.certificates.enumerated() {
                    lines += certificateLines(token, position, certificateLayer, indent: indent + 4)
                }
            } else {
                lines.append(fieldLine(key, TerminalSafe.escape(tree.text(of: value)), token, layer, tree[member].range, indent: indent + 2))
                lines += diagnosticLines(mine, indent: indent + 4)
            }
        }
        return lines + diagnosticLines(diagnostics, indent: indent + 2)
    }

    func certificateLines(_ token: JWSToken, _ position: Int, _ layer: LayerID, indent: Int) -> [String] {
        let byteLayer = document.layer(layer)
        let der = byteLayer.bytes.count
        let header = document.jwsSpan(0..<der, in: layer, token: token)
        let json = byteLayer.map.map { $0.parentRange(0..<der) } ?? 0..<0
        let known = certificateText(layer)
        var lines = [pad(indent) + paint.paint("x5c[\(position)]", .bold) + (known.subject.map { " " + TerminalSafe.escape($0) } ?? "")
            + ": " + paint.paint("chars \(JWSSpan.text(header.characters)), header bytes \(JWSSpan.text(json))", .dim)
            + " → \(NumberText.grouped(der)) bytes of DER " + paint.paint("(layer \(layer.index))", .dim)]
        let inner = pad(indent + 2)
        lines.reserveCapacity(1 + known.lines.count)
        for line in known.lines { lines.append(inner + line) }
        return lines
    }

    /// A certificate layer's subject and tree lines, which depend on its DER alone (its names are
    /// the tree's structure names: `DocumentOutputs.nodeNames` adds none for a token).
    func certificateText(_ layer: LayerID) -> (subject: String?, lines: [Substring]) {
        let byteLayer = document.layer(layer)
        let der = byteLayer.bytes.array
        if let known = certificates.byDER[der] { return known }
        let subject = RFC2253Name.certificateNames(der: der).map { $0.commonName ?? $0.subject }
        var lines: [Substring] = []
        if let tree = byteLayer.tree {
            let text = TreeDump.render(tree, options: TreeDump.Options(color: color, decorations: false, names: document.names(for: layer)))
            // Split by bytes: by Character it was 40 % of a notification's `dump` (grapheme breaking over
            // its nine certificates' trees). The same cut, since a lone "\n" is always a Character of its
            // own and the tree's text holds no CR (TreeDump escapes control characters).
            lines = text.utf8.split(separator: UInt8(ascii: "\n")).map { Substring($0) }
        }
        certificates.byDER[der] = (subject, lines)
        return (subject, lines)
    }

    func payloadLines(_ index: Int, _ layer: LayerID, indent: Int) -> [String] {
        guard let jws = document.jws else { return [] }
        let token = jws.tokens[index]
        let payload = token.document.payload
        var lines = [layerLine("payload", token, layer, what: "JSON", indent: indent) + " " + paint.paint(payload.kind.rawValue, .cyan)]
        guard let tree = document.layer(layer).json else { return lines }
        let diagnostics = document.layer(layer).content.diagnostics
        // Innermost field first, so that a diagnostic goes to the field it concerns, not to its object.
        let owners = Dictionary(grouping: diagnostics.indices) { d -> Int? in
            let offset = diagnostics[d].offset
            return payload.fields.indices.filter { tree[payload.fields[$0].member.index].range.contains(offset) }
                .min { tree[payload.fields[$0].member.index].range.count < tree[payload.fields[$1].member.index].range.count }
        }
        let nested = jws.nestedIndices(of: index)
        for (f, field) in payload.fields.enumerated() {
            let depth = field.path.split(separator: ".").count - 1
            let member = tree[field.member.index]
            let value: String
            switch field.value {
            case .string(let s): value = "\"" + TerminalSafe.escape(s) + "\""
            case .nestedToken(let n): value = "nested token (\(n < nested.count ? jws.tokens[nested[n]].label : "not decoded")):"
            default: value = TerminalSafe.escape(field.value.display)
            }
            lines.append(fieldLine(field.name, value, token, layer, member.range, indent: indent + 2 + 2 * depth))
            lines += diagnosticLines((owners[f] ?? []).map { diagnostics[$0] }, indent: indent + 4 + 2 * depth)
            if case .nestedToken(let n) = field.value, n < nested.count {
                lines += tokenLines(nested[n], indent: indent + 4 + 2 * depth)
            }
        }
        return lines + diagnosticLines((owners[nil] ?? []).map { diagnostics[$0] }, indent: indent + 2)
    }

    /// An Advanced Commerce request's `request` claim, decoded from base64: its JSON members as written.
    func requestLines(_ token: JWSToken, _ layer: LayerID, indent: Int) -> [String] {
        let byteLayer = document.layer(layer)
        let inPayload = byteLayer.map.map { $0.parentRange(0..<byteLayer.bytes.count) } ?? 0..<0
        var lines = [layerLine("request", token, layer, what: "JSON", indent: indent)
            + paint.paint(" (base64 in payload bytes \(JWSSpan.text(inPayload)))", .dim)]
        guard let tree = byteLayer.json, let root = tree.root, tree[root].kind == .object else {
            return lines + diagnosticLines(byteLayer.content.diagnostics, indent: indent + 2)
        }
        var diagnostics = byteLayer.content.diagnostics
        for member in tree.members(of: root) {
            guard let key = tree.key(ofMember: member), let value = tree.value(ofMember: member) else { continue }
            let text = tree.text(of: value)
            let shown = text.count > 80 ? String(text.prefix(77)) + "…" : text
            lines.append(fieldLine(key, TerminalSafe.escape(shown), token, layer, tree[member].range, indent: indent + 2))
            lines += diagnosticLines(take(&diagnostics, in: tree[member].range), indent: indent + 4)
        }
        return lines + diagnosticLines(diagnostics, indent: indent + 2)
    }

    func signatureLines(_ token: JWSToken, _ layer: LayerID, indent: Int) -> [String] {
        let bytes = document.layer(layer).bytes
        var lines = [layerLine("signature", token, layer, what: "signature", indent: indent)]
        if let signature = token.document.signature {
            lines.append(fieldLine("r", Hex.string(signature.r, .lower), token, layer, 0..<min(32, bytes.count), indent: indent + 2))
            if bytes.count == 64 {
                lines.append(fieldLine("s", Hex.string(signature.s, .lower), token, layer, 32..<64, indent: indent + 2))
            } else {
                lines.append(pad(indent + 2) + paint.paint("s", .bold) + " " + Hex.string(signature.s, .lower))
            }
            let der = signature.der
            lines.append(pad(indent + 2) + paint.paint("DER ECDSA-Sig-Value", .bold) + " (\(der.count) bytes, what OpenSSL verifies) " + Hex.string(der, .lower))
        }
        return lines + diagnosticLines(document.layer(layer).content.diagnostics, indent: indent + 2)
    }

    func fieldLine(_ key: String, _ value: String, _ token: JWSToken, _ layer: LayerID, _ range: Range<Int>, indent: Int) -> String {
        pad(indent) + paint.paint(TerminalSafe.escape(key), .bold) + " " + value + "  "
            + paint.paint(document.jwsSpan(range, in: layer, token: token).text, .dim)
    }

    func take(_ diagnostics: inout [Diagnostic], in range: Range<Int>) -> [Diagnostic] {
        let mine = diagnostics.filter { range.contains($0.offset) }
        diagnostics.removeAll { range.contains($0.offset) }
        return mine
    }

    func diagnosticLines(_ list: [Diagnostic], indent: Int, unit: String = "bytes") -> [String] {
        list.map { d in
            pad(indent) + paint.paint(d.severity.description, ANSIStyle.of(d.severity)) + " "
                + paint.paint(TerminalSafe.escape(d.code.rawValue), .bold)
                + " \(unit) \(JWSSpan.text(d.offset..<(d.offset + d.length))): \(TerminalSafe.escape(d.message))"
        }
    }
}
