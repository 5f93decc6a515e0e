import DocumentModel
import JWSKit

/// The detail pane's extra lines for a token's own row: what the token is made of and what it says,
/// so that the first row of a StoreKit document answers "what is this, and is it valid?" without a
/// trip to the summary view. Lines are unwrapped, labels 17 columns wide like the rest of the pane.
enum TokenDetail {
    static let column = 17

    /// Nil unless `row` is a token's row (node 0 of its text layer).
    static func lines(_ model: JWSModel, row: OutlineRow, ascii: Bool) -> [StyledLine]? {
        guard row.node.index == 0, let index = model.tokens.firstIndex(where: { $0.layers.token == row.node.layer }) else {
            return nil
        }
        let token = model.tokens[index]
        var out: [StyledLine] = []
        out += labelled("parts", JWSExplain.segmentLines(token).map { StyledLine(UIText.display($0, ascii: ascii)) })
        let nested = model.nested(in: index)
        if !nested.isEmpty {
            let paths = nested.map { UIText.escape($0.path ?? "token") }.joined(separator: ", ")
            out += labelled("nested", [StyledLine("\(nested.count) token\(nested.count == 1 ? "" : "s"): \(paths)")])
        }
        let headline = token.document.payload.headline
        let width = headline.map { UIText.escape($0.path).count }.max() ?? 0
        // Under their own heading, two columns in: ids and product names are long, the pane narrow.
        if !headline.isEmpty { out.append(StyledLine("headline")) }
        for field in headline {
            let path = UIText.escape(field.path)
            out.append(StyledLine("  " + path + String(repeating: " ", count: width - path.count + 2)
                                  + UIText.display(UIText.escape(field.value), ascii: ascii)))
        }
        out += labelled("verification", verification(token.report, ascii: ascii))
        return out
    }

    /// The verdict first, then the steps that failed (the summary view lists every step).
    static func verification(_ report: JWSVerificationReport?, ascii: Bool) -> [StyledLine] {
        guard let report else { return [StyledLine("not verified", .dim)] }
        let lines = report.lines.map { UIText.display(UIText.escape($0), ascii: ascii) }
        let verdict = lines.last ?? ""
        let failed = lines.dropLast().filter { $0.contains(": failed") }
        return [StyledLine(verdict, report.isValid ? .ok : .fail)] + failed.map { StyledLine($0, .fail) }
    }

    /// `label` in the first line's left column; the others indented to the same column.
    static func labelled(_ label: String, _ lines: [StyledLine]) -> [StyledLine] {
        lines.enumerated().map { i, line in
            let left = i == 0 ? label + String(repeating: " ", count: max(1, column - label.count)) : String(repeating: " ", count: column)
            return StyledLine(left + line.text, line.style)
        }
    }
}
