import DocumentModel
import JWSKit

/// The summary of a StoreKit 2 document: what it is, then one block per token (nested ones
/// included, in document order) with its headline fields and its verification, then the verdict
/// over all of them.
enum JWSSummaryContent {
    static func lines(_ state: AppState) -> [StyledLine]? {
        guard let layered = state.layered, let model = layered.document.jws else { return nil }
        let ascii = state.preferences.ascii
        var out = [StyledLine("StoreKit 2 document", .title),
                   StyledLine(UIText.display(layered.document.note, ascii: ascii)), StyledLine("")]
        for token in model.tokens {
            let depth = depth(of: token, in: model)
            let indent = String(repeating: "  ", count: depth)
            let name = token.path.map { "token " + $0 } ?? "token"
            out.append(StyledLine(indent + UIText.escape(name) + ": " + token.kind.label + " · " + token.headerSummary, .title))
            let headline = token.document.payload.headline
            let width = headline.map { UIText.escape($0.path).count }.max() ?? 0
            for field in headline {
                let path = UIText.escape(field.path)
                let gap = String(repeating: " ", count: width - path.count + 2)
                out.append(StyledLine(indent + "  " + path + gap + UIText.display(UIText.escape(field.value), ascii: ascii)))
            }
            if !headline.isEmpty { out.append(StyledLine("")) }
            guard let report = token.report else {
                out.append(StyledLine(indent + "  (not verified)", .dim))
                continue
            }
            for line in report.lines {
                let style: StyleClass = line.contains(": failed") || line.hasPrefix("Verdict: invalid") ? .fail : .plain
                out.append(StyledLine(indent + "  " + UIText.display(UIText.escape(line), ascii: ascii), style))
            }
        }
        out.append(StyledLine(""))
        let verified = model.tokens.filter { $0.report != nil }.count
        let verdict = verified == 0 ? "not verified" : (model.allValid ? "every token valid" : "at least one token invalid")
        out.append(StyledLine("Verdict: \(verdict) (\(model.tokens.count) token\(model.tokens.count == 1 ? "" : "s"))",
                              model.allValid ? .ok : (verified == 0 ? .dim : .fail)))
        return out
    }

    static func depth(of token: JWSToken, in model: JWSModel) -> Int {
        var depth = 0
        var parent = token.parent
        while let p = parent, depth < 16 { depth += 1; parent = model.tokens[p].parent }
        return depth
    }
}
