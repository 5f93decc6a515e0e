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
///
/// 28 bytes (issue 32: memory bounded by the input; it was 72): offsets and indices are kept in
/// 32 bits, which the input limit (512 MiB) and the node budget (`JSONParser.nodeBudget`) keep
/// them within, and a member's key start is its own start.
public struct JSONNode: Sendable, Hashable {
    public var kind: JSONKind
    private var depth16: UInt16
    private var start32: Int32
    private var end32: Int32
    private var keyEnd32: Int32
    private var parent32: Int32
    private var subtreeEnd32: Int32
    private var text32: Int32

    init(kind: JSONKind, at offset: Int, parent: Int, subtreeEnd: Int, depth: Int) {
        self.kind = kind
        depth16 = UInt16(truncatingIfNeeded: depth)
        start32 = Int32(truncatingIfNeeded: offset)
        end32 = start32
        keyEnd32 = start32
        parent32 = Int32(truncatingIfNeeded: parent)
        subtreeEnd32 = Int32(truncatingIfNeeded: subtreeEnd)
        text32 = -1
    }

    /// The whole node in the input: quotes of a string included; for a member, key through value.
    public var start: Int {
        get { Int(start32) }
        set { start32 = Int32(truncatingIfNeeded: newValue) }
    }
    public var end: Int {
        get { Int(end32) }
        set { end32 = Int32(truncatingIfNeeded: newValue) }
    }
    /// For a member: its key, quotes included (empty elsewhere). A member starts with its key.
    public var keyStart: Int { kind == .member ? start : keyEnd }
    public var keyEnd: Int {
        get { Int(keyEnd32) }
        set { keyEnd32 = Int32(truncatingIfNeeded: newValue) }
    }
    /// Index of the parent, or -1 for the root.
    public var parent: Int {
        get { Int(parent32) }
        set { parent32 = Int32(truncatingIfNeeded: newValue) }
    }
    public var subtreeEnd: Int {
        get { Int(subtreeEnd32) }
        set { subtreeEnd32 = Int32(truncatingIfNeeded: newValue) }
    }
    /// Members nest two levels per object (the member, then its value): at most 2 × 256 + 1.
    public var depth: Int {
        get { Int(depth16) }
        set { depth16 = UInt16(truncatingIfNeeded: newValue) }
    }
    /// Index into `JSONTree.strings`: the decoded value of a string, the decoded key of a member; -1 otherwise.
    public var text: Int {
        get { Int(text32) }
        set { text32 = Int32(truncatingIfNeeded: newValue) }
    }

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
