import ByteText
import DocumentCore

/// A named response in the explorer: the token wording of any JSON body of tokens, plus the
/// meaning of the response's own members and, in the summary, each notification's delivery attempts.
struct ServerAPIResponseWording: OutlineWording {
    let tokens: JWSOutlineWording
    let name: ServerAPIResponseName?

    init(_ document: Document) {
        tokens = JWSOutlineWording(document)
        if case .serverAPIResponse(let name, _) = document.kind { self.name = name } else { name = nil }
    }

    func heading(of layer: LayerID, in document: Document) -> LayerHeading? {
        if layer == .file, let name { return LayerHeading("body", value: name.model) }
        return tokens.heading(of: layer, in: document)
    }

    func fields(of layer: LayerID, in document: Document) -> [Int: FieldWording] {
        guard layer == .file, let name, let tree = document.jws?.body else { return tokens.fields(of: layer, in: document) }
        return ServerAPIResponseFields.wording(tree, name: name)
    }

    func parts(of layer: LayerID, in document: Document) -> [LayerPart] { tokens.parts(of: layer, in: document) }

    /// A notification's row adds its delivery attempts after what every token's row shows.
    func details(of layer: LayerID, in document: Document) -> [DetailLine] {
        var out = tokens.details(of: layer, in: document)
        if let deliveries = ServerAPIResponseFormat.deliveries(document),
           let token = document.jws?.tokens.first(where: { $0.layers.token == layer }) {
            let lines = deliveries.lines(of: token.path).map { DetailLine.safe($0, $0.hasPrefix("⚠") ? .fail : .plain) }
            out += JWSOutlineWording.labelled("delivery", lines)
        }
        return out
    }

    /// The token summary, with each notification's delivery attempts after its block's title.
    func summary(of document: Document) -> [DetailLine]? {
        guard var lines = TokenSummaryLines.lines(document) else { return nil }
        guard let deliveries = ServerAPIResponseFormat.deliveries(document), let model = document.jws else { return lines }
        for token in model.tokens.reversed() where token.parent == nil {
            let title = TerminalSafe.escape(token.path.map { "token " + $0 } ?? "token") + ": "
            guard let at = lines.firstIndex(where: { $0.text.hasPrefix(title) }) else { continue }
            let added = deliveries.lines(of: token.path).map { DetailLine.safe("  " + $0, $0.hasPrefix("⚠") ? .fail : .plain) }
            lines.insert(contentsOf: added, at: at + 1)
        }
        return lines
    }
}
