import ByteText
import JWSKit
import DocumentCore
import DocumentTour

/// What a tamper-lab edit changed in the tokens' verification, one line per changed step:
/// "token: ES256 signature: passed → failed" (terminal-safe: a token's path comes from the input).
enum TokenLabChange {
    static func describe(before: Document, after: Document) -> [LabChangeLine] {
        guard let old = before.jws?.tokens, let new = after.jws?.tokens else { return [] }
        var lines: [LabChangeLine] = []
        for (index, token) in new.enumerated() where index < old.count {
            let name = TerminalSafe.escape(token.path.map { "token " + $0 } ?? "token")
            let was = Dictionary((old[index].report?.steps ?? []).map { ($0.step, $0.status) }, uniquingKeysWith: { a, _ in a })
            for result in token.report?.steps ?? [] {
                guard let previous = was[result.step], previous.keyword != result.status.keyword else { continue }
                lines.append(LabChangeLine("\(name): \(result.step.title): \(word(previous)) → \(word(result.status))",
                                           nowFails: result.status.isFailed))
            }
            if old[index].report != nil, token.report == nil { lines.append(LabChangeLine("\(name): no longer verified")) }
        }
        return lines
    }

    static func word(_ status: JWSStepStatus) -> String {
        switch status {
        case .passed: "passed"
        case .failed: "failed"
        case .notChecked: "not checked"
        }
    }
}
