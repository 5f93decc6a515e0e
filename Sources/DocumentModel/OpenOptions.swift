import ReceiptKit

/// Everything `Document.open` was told besides the input: the checks, trust roots and dates
/// (`AnalysisOptions`, which every kind's verification reads), how ASN.1 input is read as a
/// receipt, and the expectations only tokens have. Kept on the document, so that re-opening
/// edited bytes needs no kind's model to know how.
public struct OpenOptions: Sendable {
    public var analysis: AnalysisOptions
    public var reading: ReceiptReading
    public var jws: JWSOptions

    public init(analysis: AnalysisOptions = AnalysisOptions(), reading: ReceiptReading = .ifSignedData, jws: JWSOptions = JWSOptions()) {
        self.analysis = analysis
        self.reading = reading
        self.jws = jws
    }
}
