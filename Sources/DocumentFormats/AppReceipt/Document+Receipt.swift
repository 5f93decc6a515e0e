import ReceiptKit
import DocumentCore

extension ReceiptAnalysis: KindModel {}

extension Document {
    /// The receipt model (decoded fields, links, validation steps, verdict) when the input was read
    /// as a PKCS#7 receipt; nil otherwise. Read only by the formats that read a document as a receipt.
    public var receipt: ReceiptAnalysis? {
        get { model as? ReceiptAnalysis }
        set { model = newValue }
    }

    init(source: DocumentSource, kind: DocumentKind, layers: [ByteLayer], receipt: ReceiptAnalysis?) {
        self.init(source: source, kind: kind, layers: layers, model: receipt)
    }
}
