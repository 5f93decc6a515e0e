import ASN1Lenient
import ReceiptKit
import DocumentCore

/// Any other input read as BER/DER: the fallback, so every input opens as something.
public struct ASN1Format: DocumentFormat {
    public static let id = FormatID(rawValue: "asn1")
    public var id: FormatID { Self.id }

    /// Any other DER found in a paste: taken only when nothing more specific is there.
    public var pasteHints: [PasteHint] { [PasteHint(.der, score: 20)] }

    public func recognize(_ probe: FormatProbe) -> Recognition? {
        Recognition(.fallback, "no other format recognised it: read as BER/DER")
    }

    public func open(_ probe: FormatProbe) -> Document {
        Self.openTree(probe, kind: .asn1)
    }

    /// One file layer holding the parsed tree. With `ReceiptReading.always` the input is read as a
    /// receipt as well, so that `json` and `verify` say why it is not one; `kind` stays what it is.
    static func openTree(_ probe: FormatProbe, kind: DocumentKind) -> Document {
        if probe.reading == .always { return AppReceiptFormat.openAsReceipt(probe) { _ in kind } }
        var tree = probe.asn1
        tree.append(probe.input.diagnostics)  // the loader's findings count like the parser's
        return Document(source: probe.source, kind: kind, layers: [ByteLayer(id: .file, role: .file, name: "file", tree: tree)])
    }

    public func describe(_ kind: DocumentKind) -> KindDescription? {
        kind == .asn1 ? KindDescription(summary: "other ASN.1 (not a receipt or a certificate)", title: "ASN.1") : nil
    }
}
