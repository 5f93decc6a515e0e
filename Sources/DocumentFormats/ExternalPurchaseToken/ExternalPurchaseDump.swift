import ASN1Lenient
import JSONLenient
import JWSKit
import ByteText
import DocumentCore

/// `dump` and `json` for an external purchase token: the characters → the decoded JSON, every field
/// with its meaning, its token characters and its JSON bytes, each finding under its field.
extension JWSTreeDump {
    func externalPurchaseLines(_ model: ExternalPurchaseModel) -> [String] {
        let token = model.token
        let file = document.fileLayer
        var lines = [paint.paint("token", .bold) + " external purchase token (base64url JSON, unsigned), "
            + "\(NumberText.grouped(token.text.count)) characters" + paint.paint("  \(whereIs(0..<file.bytes.count, .file, count: file.bytes.count)) (layer 0)", .dim)]
        lines += diagnosticLines(file.content.diagnostics, indent: 2, unit: "chars")
        let layer = document.layer(model.jsonLayer)
        let all = layer.map.map { $0.parentRange(0..<layer.bytes.count) } ?? 0..<0
        lines.append(pad(2) + paint.paint("JSON", .bold) + ": " + paint.paint("chars \(JWSSpan.text(all))", .dim)
            + " → \(NumberText.grouped(layer.bytes.count)) bytes " + paint.paint("(layer \(model.jsonLayer.index))", .dim))
        var diagnostics = layer.content.diagnostics
        for field in token.payload.fields {
            let range = token.tree[field.member.index].range
            var value: String
            switch field.value {
            case .string(let s): value = "\"" + TerminalSafe.escape(s) + "\""
            default: value = TerminalSafe.escape(field.value.display)
            }
            if field.name == "externalPurchaseId", token.isSandbox { value += " (sandbox: the id starts \(ExternalPurchaseToken.sandboxPrefix))" }
            let span = JWSSpan(bytes: range, characters: layer.map?.parentRange(range) ?? range)
            lines.append(pad(4) + paint.paint(TerminalSafe.escape(field.name), .bold) + " " + value + "  " + paint.paint(span.text, .dim))
            lines += diagnosticLines(take(&diagnostics, in: range), indent: 6)
        }
        return lines + diagnosticLines(diagnostics, indent: 4)
    }
}

extension JWSJSON {
    /// `json` / `dump --format json` of an external purchase token: each field's value, meaning and
    /// where it is (JSON bytes and token characters).
    static func externalPurchaseObject(_ document: Document, _ model: ExternalPurchaseModel) -> [String: Any] {
        let token = model.token
        let layer = document.layer(model.jsonLayer)
        var fields: [String: Any] = [:]
        for field in token.payload.fields {
            let range = token.tree[field.member.index].range
            let characters = layer.map?.parentRange(range) ?? range
            var o: [String: Any] = ["value": field.valueNode.map { plain(token.tree, $0.index) } ?? JSONNull(),
                                    "json_bytes": ["offset": range.lowerBound, "length": range.count],
                                    "token_characters": ["offset": characters.lowerBound, "length": characters.count],
                                    "in_schema": field.spec != nil]
            switch field.value {
            case .date(_, let iso): o["decoded"] = iso
            case .enumerated(_, let meaning?): o["decoded"] = meaning
            default: break
            }
            if let introduced = field.spec?.introduced { o["introduced"] = introduced }
            fields[field.name] = o
        }
        var object: [String: Any] = ["characters": token.text.count, "json_size": token.json.count, "signed": false,
                                     "environment": token.isSandbox ? "Sandbox" : "Production", "fields": fields]
        object["findings"] = layer.content.diagnostics.map(ReceiptJSON.findingObject)
        return object
    }
}
