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
    /// The node the problem concerns, if any, in the tree the diagnostic belongs to.
    public var node: NodeIndex?

    public init(severity: Severity, code: DiagnosticCode, message: String, offset: Int, length: Int, node: NodeIndex?) {
        self.severity = severity
        self.code = code
        self.message = message
        self.offset = offset
        self.length = length
        self.node = node
    }

    public var range: Range<Int> { offset..<(offset + length) }
}

/// A node of the tree a diagnostic belongs to: its position in that tree's pre-order arena
/// (`Tree.nodes` for ASN.1, `JSONTree.nodes` for JSON). A type of its own, so that a node is never
/// taken for an offset, a length or a token index.
public struct NodeIndex: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let index: Int

    public init(_ index: Int) { self.index = index }

    public static func < (a: NodeIndex, b: NodeIndex) -> Bool { a.index < b.index }
    public var description: String { String(index) }
}
