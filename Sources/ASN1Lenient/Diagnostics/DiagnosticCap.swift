/// At most `maxPerCode` diagnostics of each code are listed; past it, one summary of the same code
/// and severity, pinned to the first one left out, says how many more there are. A diagnostic
/// costs ~150 bytes against a node's 16, so a finding per element of dense input (a payload of a
/// million empty attributes) would cost far more than the input: this keeps every list a small
/// multiple of it. The parser caps its own codes this way (`ParseOptions.maxDiagnosticsPerCode`);
/// later layers (the receipt decoder) collect theirs through this type.
public struct DiagnosticCap: Sendable {
    public let maxPerCode: Int
    public private(set) var listed: [Diagnostic] = []
    private var perCode: [DiagnosticCode: Int] = [:]
    /// Per code over the cap: how many were left out and the first one, in the order first left out.
    private var leftOut: [(code: DiagnosticCode, count: Int, first: Diagnostic)] = []
    /// The last listed message: one worded the same shares its storage (dense input repeats one
    /// finding thousands of times, ~180 bytes of message each).
    private var lastMessage = ""

    public init(maxPerCode: Int = 10_000) { self.maxPerCode = max(1, maxPerCode) }

    public mutating func append(_ diagnostic: Diagnostic) {
        append(diagnostic.code) { diagnostic }
    }

    /// Appends the diagnostic of `code` that `make` builds, built only when it is listed or is
    /// the first of its code left out: a dense payload had millions of messages worded and dropped.
    public mutating func append(_ code: DiagnosticCode, _ make: () -> Diagnostic) {
        let seen = perCode[code, default: 0]
        perCode[code] = seen + 1
        guard seen >= maxPerCode else {
            var diagnostic = make()
            if diagnostic.message == lastMessage { diagnostic.message = lastMessage } else { lastMessage = diagnostic.message }
            return listed.append(diagnostic)
        }
        if let index = leftOut.firstIndex(where: { $0.code == code }) {
            leftOut[index].count += 1
        } else {
            leftOut.append((code, 1, make()))
        }
    }

    public mutating func append(contentsOf diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics { append(diagnostic) }
    }

    /// The listed diagnostics, then one summary per capped code.
    public var diagnostics: [Diagnostic] {
        listed + leftOut.map { Self.summary(of: $0.first, more: $0.count, maxPerCode: maxPerCode) }
    }

    /// `diagnostics`, handing over the listed ones instead of copying them (10,000 findings of a
    /// dense payload are 1.2 MB, and the copy was made while a second document opened in `diff`);
    /// afterwards the cap lists none of them (its summaries of the left-out stay).
    public mutating func takeDiagnostics() -> [Diagnostic] {
        var all = listed
        listed = []
        all.append(contentsOf: leftOut.map { Self.summary(of: $0.first, more: $0.count, maxPerCode: maxPerCode) })
        return all
    }

    /// The summary of `more` diagnostics of `first`'s code left out: `first`, reworded.
    public static func summary(of first: Diagnostic, more: Int, maxPerCode: Int) -> Diagnostic {
        var summary = first
        summary.message = "\(more) more \(first.code.rawValue) diagnostic(s) not listed (at most \(maxPerCode) per code); the first not listed: \(first.message)"
        return summary
    }
}
