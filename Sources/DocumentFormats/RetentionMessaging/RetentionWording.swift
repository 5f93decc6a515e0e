import DocumentCore

/// A Retention Messaging document in the explorer: the token wording for its tokens, and the
/// meaning of the request's claims and of the reply's members.
struct RetentionWording: OutlineWording {
    let tokens: JWSOutlineWording
    let document: RetentionDocument?

    init(_ document: Document) {
        tokens = JWSOutlineWording(document)
        if case .retentionMessaging(let kind) = document.kind { self.document = kind } else { self.document = nil }
    }

    func heading(of layer: LayerID, in document: Document) -> LayerHeading? {
        if layer == .file, self.document != nil, self.document != .request { return LayerHeading("reply", value: "RealtimeResponseBody") }
        if let heading = tokens.heading(of: layer, in: document) { return heading }
        return document.layer(layer).json != nil ? LayerHeading(document.layer(layer).name) : nil
    }

    /// The request's payload and the reply's JSON layers by Retention Messaging's meanings; a
    /// nested developer token's payload as its own schema says.
    func fields(of layer: LayerID, in document: Document) -> [Int: FieldWording] {
        let own = document.layer(layer).json.map(RetentionFields.wording) ?? [:]
        let token = tokens.fields(of: layer, in: document)
        return token.merging(own) { schema, retention in schema.meaning.hasPrefix("not in Apple's schema") ? retention : schema }
    }

    func parts(of layer: LayerID, in document: Document) -> [LayerPart] { tokens.parts(of: layer, in: document) }
    func details(of layer: LayerID, in document: Document) -> [DetailLine] { tokens.details(of: layer, in: document) }
    func summary(of document: Document) -> [DetailLine]? { TokenSummaryLines.lines(document) }
}
