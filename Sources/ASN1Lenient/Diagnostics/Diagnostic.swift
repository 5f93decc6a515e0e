/// How bad a problem is. Ordered from worst to mildest.
public enum Severity: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// The bytes cannot be read as written.
    case error = 0
    /// Legal BER, but not DER.
    case notDER = 1
    case warning = 2
    case info = 3

    public static func < (a: Severity, b: Severity) -> Bool { a.rawValue < b.rawValue }

    /// The stable spelling used in every output format.
    public var description: String {
        switch self {
        case .error: "error"
        case .notDER: "der"
        case .warning: "warning"
        case .info: "info"
        }
    }
}

/// A problem pinned to an exact byte range of the (decoded) input.
public struct Diagnostic: Sendable, Equatable {
    public var severity: Severity
    /// A stable, kebab-case code ("length-exceeds-parent", "receipt-attribute-wrong-type", …).
    public var code: DiagnosticCode
    public var message: String
    public var offset: Int
    public var length: Int
    /// The node the problem concerns, if any (an index into `Tree.nodes`).
    public var node: Int?

    public init(severity: Severity, code: DiagnosticCode, message: String, offset: Int, length: Int, node: Int?) {
        self.severity = severity
        self.code = code
        self.message = message
        self.offset = offset
        self.length = length
        self.node = node
    }

    public var range: Range<Int> { offset..<(offset + length) }
}
