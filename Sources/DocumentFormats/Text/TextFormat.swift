import ASN1Lenient
import DocumentCore

/// Text with no data in it (prose, HTML, JSON without purchase data): never read as ASN.1 (nor as a
/// receipt, even for `ReceiptReading.always`); the loader's one finding says what it looks like.
public struct TextFormat: DocumentFormat {
    public static let id = FormatID(rawValue: "text")
    public var id: FormatID { Self.id }

    public func recognize(_ probe: FormatProbe) -> Recognition? {
        probe.isText ? Recognition(.certain, "the loader found text and no DER, base64, PEM or token in it") : nil
    }

    public func open(_ probe: FormatProbe) -> Document {
        let tree = Tree.unparsed(probe.input.bytes, diagnostics: probe.input.diagnostics)
        return Document(source: probe.source, kind: .text, layers: [ByteLayer(id: .file, role: .file, name: "file", tree: tree)])
    }

    public func describe(_ kind: DocumentKind) -> KindDescription? {
        kind == .text ? KindDescription(summary: "text without purchase data", title: "Text") : nil
    }
}
