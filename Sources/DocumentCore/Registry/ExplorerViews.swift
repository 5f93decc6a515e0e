extension Document {
    /// How this document's format words its layers in the explorer's outline (every kind is shown
    /// as the one outline of its layers; the wording is what a kind adds to it).
    public var outlineWording: any OutlineWording { FormatRegistry.format(of: kind).outlineWording(of: self) }

    /// What this document's kind adds to the explorer (the purchase table, summary, verdict): the
    /// views a kind adds beside the one outline, never a second tree. Built on each call (once per
    /// explorer state).
    public var explorerAdditions: ExplorerAdditions? { FormatRegistry.format(of: kind).explorerAdditions(of: self) }
}

/// The first row of a layer in the outline: its label and (terminal-safe) value.
public struct LayerHeading: Sendable, Equatable {
    public var label: String
    /// Already terminal-safe (the format escapes what came from the input); nil: the outline's own
    /// summary of the layer's content ("{4}", "64 bytes").
    public var value: String?

    public init(_ label: String, value: String? = nil) {
        self.label = label
        self.value = value
    }
}

/// What a JSON member means (Apple's schema) and its decoded value ("2024-03-01T12:00:00Z"); nil
/// `display` keeps the outline's own summary (containers, a nested token).
public struct FieldWording: Sendable, Equatable {
    public var display: String?
    public var meaning: String

    public init(display: String?, meaning: String) {
        self.display = display
        self.meaning = meaning
    }
}

/// A named part of a layer without a tree (a signature's r and s).
public struct LayerPart: Sendable, Equatable {
    public var label: String
    public var range: Range<Int>

    public init(_ label: String, _ range: Range<Int>) {
        self.label = label
        self.range = range
    }
}

/// A line the detail pane shows for a layer's first row: `label` in a 17-column left column
/// (continuation lines leave it empty), or, with no label, the whole line. The text is the input's
/// or ours, not yet made terminal-safe (the explorer escapes every line).
public struct DetailLine: Sendable, Equatable {
    public enum Tone: Sendable, Equatable { case plain, ok, fail, dim, title }
    public var label: String?
    public var text: String
    public var tone: Tone
    /// The text is terminal-safe already (it holds text escaped when built, as a token's header
    /// summary does): the explorer writes it as it is.
    public var isTerminalSafe = false

    public init(_ label: String?, _ text: String, _ tone: Tone = .plain) {
        self.label = label
        self.text = text
        self.tone = tone
    }

    /// A line whose text is terminal-safe as built.
    public static func safe(_ text: String, _ tone: Tone = .plain) -> DetailLine {
        var line = DetailLine(nil, text, tone)
        line.isTerminalSafe = true
        return line
    }
}

/// What a kind says about its layers in the explorer's outline. The rows themselves come from each
/// layer's tree (ASN.1 nodes, JSON members, a text layer's parts), with each child layer under the
/// row of the range it was decoded from; the wording only names them.
public protocol OutlineWording: Sendable {
    /// The heading of `layer`'s first row (a JSON root, a text or raw layer's one row); nil: the
    /// layer shows no row of its own and its child layers take its place (a paste's outer text,
    /// the base64url characters of an external purchase token). ASN.1 layers show their nodes.
    func heading(of layer: LayerID, in document: Document) -> LayerHeading?
    /// The members of a JSON layer that the kind's schema describes, by JSON node index.
    func fields(of layer: LayerID, in document: Document) -> [Int: FieldWording]
    /// The named parts of a layer without a tree, in order.
    func parts(of layer: LayerID, in document: Document) -> [LayerPart]
    /// What the detail pane adds for `layer`'s first row (a token: its parts, nested tokens,
    /// headline and verdict).
    func details(of layer: LayerID, in document: Document) -> [DetailLine]
    /// The summary view's lines for the document (a StoreKit document: each token's headline and
    /// verification, then the verdict); nil: the receipt summary (or none).
    func summary(of document: Document) -> [DetailLine]?
}

extension OutlineWording {
    public func fields(of layer: LayerID, in document: Document) -> [Int: FieldWording] { [:] }
    public func parts(of layer: LayerID, in document: Document) -> [LayerPart] { [] }
    public func details(of layer: LayerID, in document: Document) -> [DetailLine] { [] }
    public func summary(of document: Document) -> [DetailLine]? { nil }
}

/// The wording of a kind that adds none: each layer by its name (the file layer of a receipt or
/// any other ASN.1 shows its nodes).
public struct LayerNameWording: OutlineWording {
    public init() {}
    public func heading(of layer: LayerID, in document: Document) -> LayerHeading? { LayerHeading(document.layer(layer).name) }
}
