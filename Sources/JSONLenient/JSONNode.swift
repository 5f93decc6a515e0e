/// What a JSON node stands for. Object members are nodes of their own (key + value), so that a
/// member's key range and the member as a whole can be selected like any value.
public enum JSONKind: UInt8, Sendable, CaseIterable {
    case object, array, string, number, `true`, `false`, null
    /// `"key": value`; its value is its only child (absent when the value could not be read).
    case member

    public var name: String {
        switch self {
        case .object: "object"
        case .array: "array"
        case .string: "string"
        case .number: "number"
        case .true: "true"
        case .false: "false"
        case .null: "null"
        case .member: "member"
        }
    }
}

/// One node of the flat pre-order arena, like ASN1Lenient's `Node`: descendants of node `i` are
/// `i + 1 ..< subtreeEnd`, its first child is `i + 1` and a child's next sibling is its `subtreeEnd`.
public struct JSONNode: Sendable, Equatable {
    public var kind: JSONKind
    /// The whole node in the input: quotes of a string included; for a member, key through value.
    public var start: Int
    public var end: Int
    /// For a member: its key, quotes included (empty elsewhere).
    public var keyStart: Int
    public var keyEnd: Int
    /// Index of the parent, or -1 for the root.
    public var parent: Int
    public var subtreeEnd: Int
    public var depth: Int
    /// Index into `JSONTree.strings`: the decoded value of a string, the decoded key of a member; -1 otherwise.
    public var text: Int

    public var range: Range<Int> { start..<end }
    public var keyRange: Range<Int> { keyStart..<keyEnd }
}

/// A number as written and as read. `integer` is set when the text has no fraction or exponent
/// and fits in 64 bits; `isExactInDouble` is false beyond ±2^53, where JSON readers disagree.
public struct JSONNumber: Sendable, Equatable {
    public var text: String
    public var double: Double
    public var integer: Int64?

    public static let exactLimit: Double = 9_007_199_254_740_992  // 2^53

    public var isExactInDouble: Bool { abs(double) <= JSONNumber.exactLimit }
}
