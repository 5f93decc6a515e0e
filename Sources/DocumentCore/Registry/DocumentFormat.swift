import ASN1Lenient
import ReceiptKit

/// How sure a format is that an input is its kind.
public enum Confidence: Int, Sendable, Comparable, CustomStringConvertible {
    /// Nothing else claimed it and this format reads anything (generic ASN.1).
    case fallback
    /// The shape fits, but a bad input could fit it too.
    case likely
    /// The structure says so (a SignedData OID, three base64url segments, a token key).
    case certain

    public static func < (a: Confidence, b: Confidence) -> Bool { a.rawValue < b.rawValue }
    public var description: String {
        switch self {
        case .fallback: "fallback"
        case .likely: "likely"
        case .certain: "certain"
        }
    }
}

/// A format's answer to "is this input yours?": how sure, and one line saying why ("what is this?").
public struct Recognition: Sendable, Equatable {
    public var confidence: Confidence
    /// Why, worded when asked (`explain`, `json`'s recognition): opening a batch line only asks
    /// which format recognised it, and wording a token's kind for every line was 5 K instructions.
    public var reason: String { wording() }
    private let wording: @Sendable () -> String

    public init(_ confidence: Confidence, _ reason: @autoclosure @escaping @Sendable () -> String) {
        self.confidence = confidence
        wording = reason
    }

    public static func == (a: Recognition, b: Recognition) -> Bool { a.confidence == b.confidence && a.reason == b.reason }
}

/// Stable name of a format (its folder under `Formats/`), in kebab-case like `DocumentKind.id`.
public struct FormatID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// What a kind's format says about it: its summary for the one-line note and its title in the explorer.
public struct KindDescription: Sendable, Equatable {
    /// "a PKCS#7 App Store receipt", "a StoreKit 2 transaction", …
    public var summary: String
    /// "Receipt", "StoreKit 2 transaction", … (the explorer's summary pane: "<title> summary").
    public var title: String
    package init(summary: String, title: String) {
        self.summary = summary
        self.title = title
    }
}

/// One kind of input: how to recognise it, how to open it into a `Document`, what it says about
/// the kinds it produces, and (`DocumentOutputs`) what it adds to the commands' outputs. Every format is listed once in `FormatRegistry.formats`.
public protocol DocumentFormat: DocumentOutputs, Sendable {
    var id: FormatID { get }
    /// Nil when the input is not this format's; else how sure and why. Cheap: the probe parses
    /// lazily and shares what it parsed between formats.
    func recognize(_ probe: FormatProbe) -> Recognition?
    /// Opens an input `recognize` claimed. Never fails: every problem is a diagnostic in some layer.
    func open(_ probe: FormatProbe) -> Document
    /// The summary and title of `kind`; nil when `kind` is not one of this format's.
    func describe(_ kind: DocumentKind) -> KindDescription?
    /// What an opened document of one of this format's kinds is, in one line (`Document.summary`).
    func summary(of document: Document) -> String
    /// How the explorer's outline names this format's layers (see `OutlineWording`).
    func outlineWording(of document: Document) -> any OutlineWording
    /// The `--expect` value `kind` satisfies; nil when none does.
    func expectation(_ kind: DocumentKind) -> ExpectedKind?
    /// How a mismatch names what was found: "a renewal info token (JWSRenewalInfoDecodedPayload)".
    func foundPhrase(_ kind: DocumentKind) -> String
    /// What to do instead when `--expect expected` met `kind`; nil when there is nothing useful to say.
    func hint(expected: ExpectedKind, found kind: DocumentKind) -> String?
    /// What the kind adds to the explorer's one outline (purchase table, summary steps, verdict,
    /// node meanings, searchable fields; built in the format's `Explorer/` folder); nil: nothing.
    func explorerAdditions(of document: Document) -> ExplorerAdditions?
    /// Whether `kind` uses `option` (`OptionTable`, the one options × kinds table); by default only
    /// `--expect` applies, and every option that reads or verifies is refused: nothing is verified.
    func optionUse(_ option: ReadingOption, kind: DocumentKind) -> OptionUse
    /// What the paste finder should prefer of the kind's data and under which JSON keys it sits
    /// (`PasteHint`); none by default.
    var pasteHints: [PasteHint] { get }
}

extension DocumentFormat {
    public func summary(of document: Document) -> String { document.kind.summary }
    public func outlineWording(of document: Document) -> any OutlineWording { LayerNameWording() }
    public func explorerAdditions(of document: Document) -> ExplorerAdditions? { nil }
    public var pasteHints: [PasteHint] { [] }
    public func optionUse(_ option: ReadingOption, kind: DocumentKind) -> OptionUse {
        option == .expect ? .applies(OptionWhy.expect) : .refused(OptionWhy.nothingVerified)
    }
}
