import ASN1Lenient
import JSONLenient
import JWSKit
import ReceiptKit
import TextLoader

/// The loaded input and the options it is opened with, plus what recognising it parsed: the StoreKit
/// classification and the ASN.1 tree are computed at most once, whichever format asks first, and
/// reused by the format that opens it. Lives for one `FormatRegistry.open` call on one thread.
public final class FormatProbe {
    public let input: LoadedInput
    public let options: AnalysisOptions
    public let reading: ReceiptReading
    public let jws: JWSOptions

    public init(_ input: LoadedInput, options: AnalysisOptions = AnalysisOptions(), reading: ReceiptReading = .ifSignedData,
                jws: JWSOptions = JWSOptions()) {
        self.input = input
        self.options = options
        self.reading = reading
        self.jws = jws
    }

    /// Whether the StoreKit formats should look at all: the loader recognised StoreKit text, or
    /// base64 decoded to text starting with `{` (a base64 iOS 6 transaction receipt).
    public var mayBeStoreKit: Bool {
        switch input.encoding {
        case .jws, .storeKitText: true
        case .base64: input.bytes.first == UInt8(ascii: "{")
        default: false
        }
    }

    /// JWSKit's classification with what it parsed: a body's JSON tree (it becomes the file layer),
    /// a whole token's split and payload tree (the token format decodes on from there).
    public private(set) lazy var storeKit: StoreKitClassification = StoreKitInput.classifyKeepingWork(input.bytes, compactJWS: input.isCompactJWS)

    /// Text, UTF-16 text or base64 padded with NULs: the loader said what it is instead of DER.
    public var isText: Bool {
        input.encoding == .binary && input.diagnostics.contains { $0.code == InputCode.unrecognizedText.code }
    }

    /// The input parsed as ASN.1 with the caller's parse options (without the loader's findings).
    public var asn1: Tree {
        if let parsedASN1 { return parsedASN1 }
        let parsed = ASN1Parser.parse(input.bytes, options: options.parseOptions)
        parsedASN1 = parsed
        return parsed
    }
    private var parsedASN1: Tree?

    /// `asn1`, handed over: the probe keeps no reference to it (asked again, it parses again), so
    /// that a format can let the tree go while it opens the input, as a receipt's second,
    /// purposeful parse does (one tree of a large receipt at a time, not two).
    public func takeASN1() -> Tree {
        let tree = asn1
        parsedASN1 = nil
        return tree
    }

    public private(set) lazy var isSignedData: Bool = ReceiptAnalyzer.isSignedData(asn1)

    public var source: DocumentSource { DocumentSource(input) }
}
