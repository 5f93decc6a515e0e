import ByteText
import JWSKit

/// The summary view of a StoreKit 2 document: what it is, then one block per token (nested ones
/// included, in document order) with its headline fields and its verification, then the verdict
/// over all of them. The explorer escapes each line (`DetailLine`'s contract).
enum TokenSummaryLines {
    static func lines(_ document: Document) -> [DetailLine]? {
        guard let model = document.jws else { return nil }
        // The note and a token's header summary are terminal-safe as built; the token's path is escaped here.
        var out = [DetailLine(nil, "StoreKit 2 document", .title), .safe(document.note), DetailLine(nil, "")]
        for token in model.tokens {
            let indent = String(repeating: "  ", count: depth(of: token, in: model))
            let name = TerminalSafe.escape(token.path.map { "token " + $0 } ?? "token")
            out.append(.safe(indent + name + ": " + token.kind.label + " · " + token.headerSummary, .title))
            let headline = token.document.payload.headline
            // Columns line up on the escaped width of each path, as the explorer shows them.
            let shown = headline.map { TerminalSafe.escape($0.path).count }
            let width = shown.max() ?? 0
            for (field, count) in zip(headline, shown) {
                out.append(DetailLine(nil, indent + "  " + field.path + String(repeating: " ", count: width - count + 2) + field.value))
            }
            if !headline.isEmpty { out.append(DetailLine(nil, "")) }
            guard let report = token.report else {
                out.append(DetailLine(nil, indent + "  (not verified)", .dim))
                continue
            }
            for line in report.lines {
                let failed = line.contains(": failed") || line.hasPrefix("Verdict: invalid")
                out.append(DetailLine(nil, indent + "  " + line, failed ? .fail : .plain))
            }
        }
        out.append(DetailLine(nil, ""))
        let verified = model.tokens.filter { $0.report != nil }.count
        let verdict = verified == 0 ? "not verified" : (model.allValid ? "every token valid" : "at least one token invalid")
        out.append(DetailLine(nil, "Verdict: \(verdict) (\(model.tokens.count) token\(model.tokens.count == 1 ? "" : "s"))",
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
