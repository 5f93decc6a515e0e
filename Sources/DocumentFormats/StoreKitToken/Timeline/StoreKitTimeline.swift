import JWSKit
import DocumentCore
import DocumentTimeline

/// The tokens of a StoreKit 2 document, each handed to the reader of its payload kind.
enum StoreKitTokens {
    static func read(_ document: Document, index: Int, into reading: inout TimelineReading) {
        guard let side = StoreKitSide(document) else { return }
        for (i, token) in side.model.tokens.enumerated() {
            let payload = token.document.payload
            let source = Self.source(side, i, document: index)
            let marks = (reading.facts.count, reading.observations.count, reading.graces.count)
            defer { reading.scope(payload.bundleId, facts: marks.0, observations: marks.1, graces: marks.2) }
            let parentKind = token.parent.map { side.model.tokens[$0].document.payload.kind }
            switch payload.kind {
            // A notification's transaction: the notification says which of its events it is about.
            case .transaction: TransactionEvents.read(payload, source: source, events: parentKind != .notification, into: &reading)
            // A notification's renewal info is read with its notification (it explains it).
            case .renewalInfo where parentKind != .notification: RenewalInfoEvents.read(payload, source: source, into: &reading)
            case .notification:
                let nested = side.model.tokens.enumerated().filter { $0.element.parent == i }.map(\.element.document.payload)
                NotificationEvents.read(payload, transaction: nested.first { $0.kind == .transaction },
                                        renewal: nested.first { $0.kind == .renewalInfo }, source: source, into: &reading)
            default: break
            }
        }
    }

    static func mentions(of id: String, in document: Document, index: Int) -> [TransactionLookup.Mention] {
        guard let side = StoreKitSide(document) else { return [] }
        var out: [TransactionLookup.Mention] = []
        for (i, token) in side.model.tokens.enumerated() {
            let path = side.path(i)
            for field in token.document.payload.fields where TransactionLookup.fields.contains(field.name) && token.document.payload.text(field.path) == id {
                let at = side.side(i, field)
                out.append(TransactionLookup.Mention(field: field.name, source: TimelineSource(document: index, place: path.isEmpty ? field.path : "\(path) · \(field.path)",
                                                                             node: at.node, fileOffset: at.fileRange?.lowerBound)))
            }
        }
        return out
    }

    /// A token's payload (its root object) and the token's path in the document.
    static func source(_ side: StoreKitSide, _ token: Int, document: Int) -> TimelineSource {
        let whole = side.transactionSide(token)
        let path = side.path(token)
        let label = side.model.tokens[token].document.payload.kind.label
        return TimelineSource(document: document, place: path.isEmpty ? label : path, node: whole.node,
                              fileOffset: whole.fileRange?.lowerBound)
    }
}

/// Reading payload values as the timeline needs them.
extension StoreKitPayload {
    func milliseconds(_ path: String) -> Int64? {
        switch value(path) {
        case .date(let ms, _)?, .number(let ms)?: ms.isFinite && abs(ms) < 9e15 ? Int64(ms) : nil
        case .integer(let ms)?: ms
        default: nil
        }
    }

    /// A string, an enumeration's raw value or an integer, as text.
    func text(_ path: String) -> String? {
        switch value(path) {
        case .integer(let v)?: String(v)
        case .bool(let b)?: b ? "true" : "false"
        default: string(path)
        }
    }

    func flag(_ path: String) -> Bool { if case .bool(true)? = value(path) { return true }; return false }
}

/// A document carrying tokens tells the timeline what each token's payload says (`StoreKitTokens`).
extension VerifiesTokens {
    package func readTimeline(_ document: Document, index: Int, into reading: inout TimelineReading) {
        StoreKitTokens.read(document, index: index, into: &reading)
    }

    package func mentions(of id: String, in document: Document, index: Int) -> [TransactionLookup.Mention] {
        StoreKitTokens.mentions(of: id, in: document, index: index)
    }
}

extension StoreKitTokenFormat: TimelineReader {}
extension StoreKitJSONFormat: TimelineReader {}
extension DeveloperTokenFormat: TimelineReader {}
