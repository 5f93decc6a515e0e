import ByteText
import JWSKit
import DocumentCore

/// The summary view of a StoreKit 2 document: what it is, then one block per token (nested ones
/// included, in document order) with its headline fields and its verification, then the verdict
/// over all of them. The explorer escapes each line (`DetailLine`'s contract).
enum TokenSummaryLines {
    static func lines(_ document: Document) -> [DetailLine]? {
        guard let model = document.jws else { return nil }
        // The note and a token's header summary are terminal-safe as built; the token's path is escaped here.
        var out = [DetailLine(nil, "StoreKit 2 document", .title), .safe(document.note), DetailLine(nil, "")]
        for (index, token) in model.tokens.enumerated() {
            let indent = String(repeating: "  ", count: depth(of: token, in: model))
            let name = TerminalSafe.escape(token.path.map { "token " + $0 } ?? "token")
            out.append(.safe(indent + name + ": " + token.label + " · " + token.headerSummary, .title))
            let headline = token.document.payload.headline
            // Columns line up on the escaped width of each path, as the explorer shows them.
            let shown = headline.map { TerminalSafe.escape($0.path).count }
            let width = shown.max() ?? 0
            for (field, count) in zip(headline, shown) {
                out.append(DetailLine(nil, indent + "  " + field.path + String(repeating: " ", count: width - count + 2) + field.value))
            }
            if !headline.isEmpty { out.append(DetailLine(nil, "")) }
            guard token.report != nil else {
                out.append(DetailLine(nil, indent + "  (not verified)", .dim))
                continue
            }
            // The token's own steps and verdict, in the words `verify` prints (its nested tokens follow as their own blocks).
            let report = document.tokenReport(index)
            for step in report.steps {
                out.append(.safe(indent + "  " + TerminalSafe.escape(step.title) + ": " + TerminalSafe.escape(step.message),
                                 step.status == .failed ? .fail : .plain))
            }
            out.append(.safe(indent + "  " + VerificationText.verdictLine(report), report.verdict.valid ? .plain : .fail))
            for reason in report.verdict.reasons { out.append(.safe(indent + "    " + TerminalSafe.escape(reason.message))) }
        }
        out.append(DetailLine(nil, ""))
        // The document's verdict: what `verify` says of the whole input.
        let report = document.verificationReport()
        out.append(.safe(VerificationText.verdictLine(report) + " (\(model.tokens.count) token\(model.tokens.count == 1 ? "" : "s"))",
                         report.verdict.valid ? .ok : (report.verdict.validated ? .fail : .dim)))
        return out
    }

    static func depth(of token: JWSToken, in model: JWSModel) -> Int {
        var depth = 0
        var parent = token.parent
        while let p = parent, depth < 16 { depth += 1; parent = model.tokens[p].parent }
        return depth
    }
}
