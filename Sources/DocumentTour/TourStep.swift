import ASN1Lenient
import DocumentCore

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

/// A question the learner answers with one key; every choice, right or wrong, says why.
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

    public init(question: String, choices: [Choice], answer: Character) {
        self.question = question
        self.choices = choices
        self.answer = answer
    }

    /// A question from its right choice and wrong ones (each with why), keyed a, b, c. The right
    /// one goes to position `seed % count` (seeded by the document's offsets) so the answer key
    /// varies from stop to stop; a wrong choice that reads like an earlier one is dropped.
    public init?(_ question: String, right: (text: String, why: String), wrong: [(text: String, why: String)], seed: Int) {
        var options: [(text: String, why: String)] = []
        for w in wrong where w.text != right.text && !options.contains(where: { $0.text == w.text }) && options.count < 2 {
            options.append(w)
        }
        guard !options.isEmpty else { return nil }
        let at = abs(seed) % (options.count + 1)
        options.insert(right, at: at)
        let keys: [Character] = ["a", "b", "c"]
        self.init(question: question,
                  choices: options.enumerated().map { Choice(key: keys[$0.offset], text: $0.element.text, why: $0.element.why) },
                  answer: keys[at])
    }

    /// The verdict for `key`: nil when `key` is not one of the choices.
    public func reply(to key: Character) -> (correct: Bool, text: String)? {
        guard let choice = choices.first(where: { $0.key == key }) else { return nil }
        return choice.key == answer ? (true, "right: \(choice.why)") : (false, "not quite: \(choice.why)")
    }

    /// "check: question [a] …  [b] …": the line the explorer and `tour --print` show.
    public var line: String { "check: \(question) " + choices.map { "[\($0.key)] \($0.text)" }.joined(separator: "  ") }

    public var rightChoice: Choice? { choices.first { $0.key == answer } }
}

/// One stop of a tour: a node, the bytes it is about, a title and a short lesson.
public struct TourStep: Sendable, Equatable {
    public var node: NodeID
    public var focus: TourFocus
    /// The bytes this step is about, in the node's layer.
    public var range: Range<Int>
    public var title: String
    /// Lesson lines: the `explain` lines for the focused bytes, then what the element means here.
    /// They never give away the self-check's answer: the right choice's `why` does, once picked.
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
