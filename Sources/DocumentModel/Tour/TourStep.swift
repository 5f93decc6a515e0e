import ASN1Lenient

/// Which part of a node's bytes a tour step is about.
public enum TourFocus: String, Sendable, Equatable {
    case identifier, length, content, whole

    /// "the identifier octets", … for the printed tour.
    public var phrase: String {
        switch self {
        case .identifier: "the identifier octets"
        case .length: "the length octets"
        case .content: "the content octets"
        case .whole: "the whole element"
        }
    }
}

/// A question the learner answers with one key; a wrong key explains why it is wrong.
public struct SelfCheck: Sendable, Equatable {
    public struct Choice: Sendable, Equatable {
        public var key: Character
        public var text: String
        /// Why this choice is right or wrong, shown after it is picked.
        public var why: String
    }

    public var question: String
    public var choices: [Choice]
    public var answer: Character

    /// The verdict for `key`: nil when `key` is not one of the choices.
    public func reply(to key: Character) -> (correct: Bool, text: String)? {
        guard let choice = choices.first(where: { $0.key == key }) else { return nil }
        return choice.key == answer ? (true, "right: \(choice.why)") : (false, "not quite: \(choice.why)")
    }
}

/// One stop of a tour: a node, the bytes it is about, a title and a short lesson.
public struct TourStep: Sendable, Equatable {
    public var node: NodeID
    public var focus: TourFocus
    /// The bytes this step is about, in the node's layer.
    public var range: Range<Int>
    public var title: String
    /// Lesson lines: the `explain` lines for the focused bytes, then what the element means here.
    public var lesson: [String]
    public var check: SelfCheck?

    public init(node: NodeID, focus: TourFocus, range: Range<Int>, title: String, lesson: [String], check: SelfCheck? = nil) {
        self.node = node
        self.focus = focus
        self.range = range
        self.title = title
        self.lesson = lesson
        self.check = check
    }
}
