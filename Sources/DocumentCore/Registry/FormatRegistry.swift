import ASN1Lenient
import ReceiptKit
import TextLoader

/// How `Document.open` decides whether to read the input as a receipt.
public enum ReceiptReading: Sendable, Equatable {
    /// Only a PKCS#7 SignedData is read as a receipt; anything else is plain ASN.1, without
    /// receipt findings about what it is not (dump, explain, explore).
    case ifSignedData
    /// Always, so that `json` and `verify` can say why an input is not a receipt.
    case always
}

/// The list of formats, which DocumentFormats gives (`extension FormatRegistry: FormatListing`):
/// the core defines the registry and the features their hooks; the kinds sit above both.
package protocol FormatListing {
    static var formatsInOrder: [any DocumentFormat] { get }
}

/// Every kind of input the tool reads, in recognition order: the first format that recognises an
/// input opens it. A new kind is a folder under `Sources/DocumentFormats/` with a `DocumentFormat`
/// and one entry in that module's `FormatList.swift`.
public enum FormatRegistry {
    /// The kinds' formats in recognition order. The list is DocumentFormats' (`FormatList.swift`,
    /// beside the kinds' folders, which this module cannot name): it declares `FormatRegistry`'s
    /// conformance to `FormatListing`, which is looked up once, when the first input is read.
    public static let formats: [any DocumentFormat] = {
        guard let listing = (FormatRegistry.self as Any.Type) as? any FormatListing.Type else {
            preconditionFailure("no formats: link DocumentFormats, whose FormatList.swift lists the kinds")
        }
        return listing.formatsInOrder
    }()

    /// The formats' hints to the paste finder, and every key whose value is some kind's data.
    static let pasteHints: [PasteHint] = formats.flatMap(\.pasteHints)
    static let pasteDataKeys: Set<String> = Set(pasteHints.flatMap(\.keys))

    /// Every format that would claim the probe's input, in recognition order ("what is this?").
    public static func recognitions(_ probe: FormatProbe) -> [(format: FormatID, recognition: Recognition)] {
        formats.compactMap { format in format.recognize(probe).map { (format.id, $0) } }
    }

    /// The first format in recognition order that claims the input.
    public static func format(for probe: FormatProbe) -> any DocumentFormat {
        // The last format (generic ASN.1) claims everything, so this always finds one.
        formats.first { $0.recognize(probe) != nil } ?? formats[formats.count - 1]
    }

    public static func format(_ id: FormatID) -> (any DocumentFormat)? {
        formats.first { $0.id == id }
    }

    /// The summary and title of `kind`, from the format that declares it.
    static func describe(_ kind: DocumentKind) -> KindDescription {
        for format in formats {
            if let description = format.describe(kind) { return description }
        }
        preconditionFailure("no format describes \(kind)")  // every case of DocumentKind has its format
    }

    /// The format that declares `kind` (a notification body is opened by the JSON format but is a
    /// notification: the token format words it).
    public static func format(of kind: DocumentKind) -> any DocumentFormat {
        guard let format = formats.first(where: { $0.describe(kind) != nil }) else {
            preconditionFailure("no format describes \(kind)")
        }
        return format
    }
}

extension Document {
    /// Opens decoded input with the format that recognises it (`FormatRegistry`): parses it once,
    /// reads it as its kind and, when `options.validate`, verifies it. Never throws: every problem
    /// is a diagnostic in some layer. `jws` carries the expectations only tokens have.
    public static func open(_ input: LoadedInput, options: AnalysisOptions = AnalysisOptions(),
                            reading: ReceiptReading = .ifSignedData, jws: JWSOptions = JWSOptions()) -> Document {
        let probe = FormatProbe(input, options: options, reading: reading, jws: jws)
        var document = FormatRegistry.format(for: probe).open(probe)
        document.openedWith = OpenOptions(analysis: options, reading: reading, jws: jws)
        return document
    }

    /// Opens `input` the way `opening` says (the options another document was opened with).
    public static func open(_ input: LoadedInput, _ opening: OpenOptions) -> Document {
        open(input, options: opening.analysis, reading: opening.reading, jws: opening.jws)
    }
}
