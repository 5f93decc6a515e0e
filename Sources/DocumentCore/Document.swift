import ASN1Lenient
import ReceiptKit
import TextLoader

/// Where a document's bytes came from.
public struct DocumentSource: Sendable {
    /// The file's name (last path component), "stdin", or the embedded sample's label.
    public var name: String
    /// How the input was stored, from the loader.
    public var encoding: InputEncoding
    /// The loader's one line ("raw DER/BER, 7,686 bytes", "decoded from base64: …").
    public var note: String
    /// Where in pasted text the bytes were found (nil for a clean input): its steps, its length and
    /// its positions, without the text itself, which no document reads (`PasteOrigin.withoutText`).
    public var origin: PasteOrigin?
    /// Where the input came from (a file, standard input, the argument, a `--lines` line), which
    /// `origin`'s offsets are worded against (`foundWords`). Set by the one way in (`DocumentInput`);
    /// a document opened from a hand-built `LoadedInput` is a file of that name.
    public var place: InputPlace

    public init(name: String, encoding: InputEncoding, note: String, origin: PasteOrigin? = nil, place: InputPlace? = nil) {
        self.name = name
        self.encoding = encoding
        self.note = note
        self.origin = origin?.withoutText
        self.place = place ?? .file(name)
    }

    public init(_ input: LoadedInput) {
        self.init(name: input.name, encoding: input.encoding, note: input.note, origin: input.origin)
    }
}

/// What a kind keeps beside its layers (the decoded receipt, the tokens): `Document.model`. The
/// kind's folder declares the conformance and the typed accessor; nothing else reads it.
public protocol KindModel: Sendable {}

/// One opened input: loaded once, parsed once, located once, decoded and validated once, then
/// read by every command and by the explorer.
public struct Document: Sendable {
    public var source: DocumentSource
    public var kind: DocumentKind
    /// `layers[0]` is the file's bytes; later layers were derived from earlier ones.
    public private(set) var layers: [ByteLayer]
    /// The kind's own model (a decoded receipt, a token model, …), opaque here: only the kind's
    /// format reads it, through an accessor in its folder (`Formats/<Kind>/`). Nil for kinds
    /// with nothing beyond their layers.
    public var model: (any KindModel)?
    /// How the document was opened (`Document.open` sets it), so that whatever re-opens its bytes
    /// (the tamper lab) reads them the same way whatever the kind. A document built by hand: decode only.
    public internal(set) var openedWith = OpenOptions(analysis: AnalysisOptions(validate: false))

    public init(source: DocumentSource, kind: DocumentKind, layers: [ByteLayer], model: (any KindModel)? = nil) {
        precondition(!layers.isEmpty && layers[0].id == .file, "a document starts with its file layer")
        self.source = source
        self.kind = kind
        self.layers = layers
        self.model = model
    }

    public var fileLayer: ByteLayer { layers[0] }
    /// The input as the loader gave it (the file layer's bytes), for the text outputs' headers.
    public var input: LoadedInput {
        LoadedInput(bytes: fileLayer.bytes.array, name: source.name, encoding: source.encoding, note: source.note, origin: source.origin)
    }
    public func layer(_ id: LayerID) -> ByteLayer { layers[id.index] }
    /// The ASN.1 tree of the file layer: the whole input for receipts and other ASN.1 (empty for
    /// kinds whose file layer is not ASN.1).
    public var fileTree: Tree { fileLayer.tree ?? Tree(bytes: fileLayer.bytes.array, nodes: [], diagnostics: [], roots: []) }

    /// A range of `layer` expressed in the file layer's offsets, through every enclosing layer.
    public func fileRange(_ range: Range<Int>, in layer: LayerID) -> Range<Int> {
        self.range(range, in: layer, upTo: nil)
    }

    /// A range of `layer` in the offsets of `ancestor`, a layer enclosing it (nil: the file layer),
    /// through every layer between. Reads the layers in place: a `layer(_:)` copy a step cost a
    /// verification report a tenth of its time.
    public func range(_ range: Range<Int>, in layer: LayerID, upTo ancestor: LayerID?) -> Range<Int> {
        var current = layer
        var r = range
        while current != ancestor, let parent = layers[current.index].parent, let map = layers[current.index].map {
            r = map.parentRange(r)
            current = parent
        }
        return r
    }

    /// How many bytes `id` holds, without copying the layer.
    public func byteCount(of id: LayerID) -> Int { layers[id.index].bytes.count }

    /// Every diagnostic of every layer with its layer, in layer order.
    public var diagnostics: [(layer: LayerID, diagnostic: Diagnostic)] {
        layers.flatMap { layer in layer.content.diagnostics.map { (layer.id, $0) } }
    }

    /// The loader's note and what the input is: "raw DER/BER, 7,686 bytes; a PKCS#7 App Store receipt",
    /// "a compact JWS, 4,012 characters; a StoreKit 2 transaction (JWS, ES256, 3 certificates)".
    /// Terminal-safe as built (`LoadedInput.note`, `JWSToken.headerSummary`): written as it is.
    public var note: String { "\(source.note); \(summary)" }

    /// What the input is, with a token's alg and certificates and a notification's nested tokens
    /// (the kind's format words it).
    public var summary: String { FormatRegistry.format(of: kind).summary(of: self) }

    /// The worst severity in any layer.
    public var worstSeverity: Severity? { diagnostics.map(\.diagnostic.severity).min() }
    public var hasErrors: Bool { diagnostics.contains { $0.diagnostic.severity == .error } }
}
