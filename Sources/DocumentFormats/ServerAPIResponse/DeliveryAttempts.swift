import ByteText
import JSONLenient
import DocumentCore

/// The delivery attempts Apple records for a notification (`sendAttempts[{attemptDate,
/// sendAttemptResult}]`, App Store Server API 1.8): beside each notification of a notification
/// history, and beside the TEST notification of a test-notification status. Read from the body's
/// tree, never from a token, so a damaged token keeps its attempts.
public struct DeliveryAttempts: Sendable, Equatable {
    public struct Attempt: Sendable, Equatable {
        /// Milliseconds since 1970; nil when absent or not a number.
        public var date: Int64?
        /// Apple's `sendAttemptResult` ("SUCCESS", "TIMED_OUT", …); nil when absent.
        public var result: String?
        /// The attempt object's bytes in the body.
        public var range: Range<Int>

        /// "2024-03-01T12:00:00Z SUCCESS".
        public var words: String {
            let when = date.map { ISO8601Text.string(epochMilliseconds: $0, fraction: .whenNonZero, farYears: .julianEra) } ?? "no attemptDate"
            return when + " " + TerminalSafe.escape(result ?? "no sendAttemptResult")
        }
    }

    /// One notification's attempts: `token` is the path of its signedPayload in the body.
    public struct Delivery: Sendable, Equatable {
        public var token: String
        public var attempts: [Attempt]

        /// Apple retries until one attempt succeeds: delivered when the last one did. No attempts: unknown.
        public var delivered: Bool? { attempts.last.map { $0.result == "SUCCESS" } }

        /// "delivered (1 attempt)" or "⚠ not delivered: last attempt TIMED_OUT (3 attempts)".
        public var verdict: String {
            switch delivered {
            case nil: return "no delivery attempts recorded"
            case true?: return "delivered (\(count))"
            case false?: return "⚠ not delivered: " + (failure ?? "")
            }
        }

        /// "last attempt TIMED_OUT (3 attempts)" when it was not delivered; nil otherwise.
        public var failure: String? {
            delivered == false ? "last attempt \(TerminalSafe.escape(attempts.last?.result ?? "without a result")) (\(count))" : nil
        }

        var count: String { "\(attempts.count) attempt\(attempts.count == 1 ? "" : "s")" }
    }

    public var deliveries: [Delivery]

    /// The attempts of `notificationHistory[i]` (each at `notificationHistory[i].signedPayload`) or
    /// of the top-level `sendAttempts` (at `signedPayload`).
    public init(_ tree: JSONTree) {
        deliveries = []
        guard let root = tree.root, tree[root].kind == .object else { return }
        if let history = tree.value("notificationHistory", in: root), tree[history].kind == .array {
            for (i, item) in tree.children(of: history).enumerated() where tree[item].kind == .object {
                deliveries.append(Delivery(token: "notificationHistory[\(i)].signedPayload", attempts: Self.attempts(tree, in: item)))
            }
        } else if tree.value("sendAttempts", in: root) != nil {
            deliveries.append(Delivery(token: "signedPayload", attempts: Self.attempts(tree, in: root)))
        }
    }

    static func attempts(_ tree: JSONTree, in object: Int) -> [Attempt] {
        guard let list = tree.value("sendAttempts", in: object), tree[list].kind == .array else { return [] }
        return tree.children(of: list).filter { tree[$0].kind == .object }.map { item in
            let date = tree.value("attemptDate", in: item).flatMap { tree.number(at: $0)?.integer }
            let result = tree.value("sendAttemptResult", in: item).flatMap { tree.string(at: $0) }
            return Attempt(date: date, result: result, range: tree[item].range)
        }
    }

    /// The attempts of the notification at `path`; nil when the body records none for it.
    public func delivery(of path: String?) -> Delivery? { deliveries.first { $0.token == path } }

    /// The lines `dump` and the summary print under a notification: each attempt, then the verdict.
    public func lines(of path: String?) -> [String] {
        guard let delivery = delivery(of: path) else { return [] }
        return delivery.attempts.enumerated().map { i, a in "attempt \(i + 1): \(a.words)" } + [delivery.verdict]
    }
}
