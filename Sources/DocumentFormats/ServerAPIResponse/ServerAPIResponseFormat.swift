#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JWSKit
import DocumentCore
import DocumentTour
import DocumentTimeline

/// An App Store Server API response named by its shape (`ServerAPIResponseName`): a refund
/// history, an order lookup, a notification history (with each notification's delivery attempts),
/// an app transaction response, an Advanced Commerce response or a test-notification status. Tried
/// before `StoreKitJSONFormat`, which opens it (the body's layers and its tokens, verified token by
/// token): this format only names it, words its members and reads its delivery attempts.
public struct ServerAPIResponseFormat: DocumentFormat, TourRoute {
    public static let id = FormatID(rawValue: "server-api-response")
    public var id: FormatID { Self.id }

    public func recognize(_ probe: FormatProbe) -> Recognition? {
        guard probe.mayBeStoreKit, case .body(_, let tokens) = probe.storeKit.kind, let tree = probe.storeKit.json,
              let (_, reason) = ServerAPIResponseName.of(tree, tokens: tokens) else { return nil }
        return Recognition(.certain, reason)
    }

    public func open(_ probe: FormatProbe) -> Document {
        var document = StoreKitJSONFormat().open(probe)
        guard case .body(_, let tokens) = probe.storeKit.kind, let tree = probe.storeKit.json,
              let (name, _) = ServerAPIResponseName.of(tree, tokens: tokens) else { return document }
        document.kind = .serverAPIResponse(name, tokens: tokens.count)
        return document
    }

    public func describe(_ kind: DocumentKind) -> KindDescription? {
        guard case .serverAPIResponse(let name, let n) = kind else { return nil }
        return KindDescription(summary: "\(name.phrase) (\(name.model), \(name.endpoint)): \(n) \(name.tokenNoun)\(n == 1 ? "" : "s")",
                               title: name.title)
    }

    /// A refund history and an order lookup list transactions, as a transaction history does.
    public func expectation(_ kind: DocumentKind) -> ExpectedKind? {
        guard case .serverAPIResponse(let name, _) = kind else { return nil }
        return [.refundHistory, .orderLookup].contains(name) ? .history : nil
    }

    public func hint(expected: ExpectedKind, found kind: DocumentKind) -> String? {
        expected == .receipt ? StoreKitOutputs.notAReceiptHint : "`dump` shows each of its tokens decoded"
    }

    public func tourSteps(_ document: Document) -> [TourStep]? { StoreKitOutputs.tourSteps(document) }

    public func outlineWording(of document: Document) -> any OutlineWording { ServerAPIResponseWording(document) }

    public func optionUse(_ option: ReadingOption, kind: DocumentKind) -> OptionUse {
        guard case .serverAPIResponse(let name, _) = kind else { return .refused(OptionWhy.nothingVerified) }
        return TokenOptions.use(option, payloads: name.payloads, kindName: "none of its tokens")
    }

    /// The delivery attempts of a notification history or test-notification status.
    static func deliveries(_ document: Document) -> DeliveryAttempts? {
        guard case .serverAPIResponse(let name, _) = document.kind, [.notificationHistory, .testNotificationStatus].contains(name),
              let tree = document.jws?.body else { return nil }
        return DeliveryAttempts(tree)
    }

    /// Under each notification in `dump`: its delivery attempts and whether it arrived.
    public func tokenNotes(_ document: Document, token index: Int) -> [String] {
        guard let deliveries = Self.deliveries(document), let token = document.jws?.tokens[index] else { return [] }
        return deliveries.lines(of: token.path)
    }
}

extension ServerAPIResponseFormat: TimelineReader {
    /// Its tokens as any body's; an event a notification reported is marked when Apple did not
    /// deliver that notification (its last attempt failed): the server may never have seen it.
    package func readTimeline(_ document: Document, index: Int, into reading: inout TimelineReading) {
        let first = reading.facts.count
        StoreKitTokens.read(document, index: index, into: &reading)
        guard let deliveries = Self.deliveries(document) else { return }
        for delivery in deliveries.deliveries {
            guard let failure = delivery.failure else { continue }
            // A notification's facts are placed "PATH TYPE[/SUBTYPE]" (NotificationEvents).
            for i in first..<reading.facts.count where reading.facts[i].source.place.hasPrefix(delivery.token + " ") {
                reading.facts[i].undelivered = failure
            }
        }
    }
}

extension ServerAPIResponseFormat: VerifiesTokens {
    public func verification(_ document: Document, now: Date, words: StepText) -> VerificationReport {
        var report = StoreKitOutputs.verification(document, now: now, words: words)
        report.name(by: document)
        return report
    }
}

extension VerificationReport {
    /// A body of one token is reported as its token; a kind that names the body (a named response,
    /// a Retention Messaging request) says so in the subject, whichever token the steps judge.
    mutating func name(by document: Document) {
        subject.kind = document.kind.id
        subject.label = document.kind.summary
    }
}
