import ByteText
import ASN1Lenient

/// How the bytes handed to the parser were found in the input.
public enum InputEncoding: String, Sendable, CaseIterable {
    /// The file is the DER/BER itself.
    case binary
    /// Base64 text (with or without line breaks and whitespace, standard or URL-safe alphabet).
    case base64
    /// PEM armour: `-----BEGIN PKCS7-----`, `-----BEGIN CMS-----` or any other label.
    case pem
    /// An App Store verifyReceipt request body: `{"receipt-data": "<base64>", ...}`.
    case verifyReceiptJSON = "verify-receipt-json"
    /// A StoreKit 2 compact JWS (`header.payload.signature`, base64url): the bytes are the token's
    /// characters, surrounding whitespace and quotes removed. DocumentModel decodes it (JWSKit).
    case jws
    /// Text carrying StoreKit data: a JSON body with `signedPayload`, `signedTransactions`,
    /// `signedTransactionInfo`… tokens, or an iOS 6 style transaction receipt plist. The bytes are
    /// the text (after any byte-order mark).
    case storeKitText = "storekit-text"
    /// An external purchase token (base64url JSON, unsigned): the bytes are its characters, surrounding
    /// whitespace and quotes removed. DocumentModel decodes the JSON as a layer of its own.
    case externalPurchaseToken = "external-purchase-token"
}

/// Decoded input, ready for the parser. Every offset shown anywhere is an offset into `bytes`.
public struct LoadedInput: Sendable {
    /// The decoded DER/BER bytes.
    public var bytes: [UInt8] { didSet { isCompactJWS = false } }
    /// The file's name (last path component), "stdin", or "embedded sample".
    public var name: String
    public var encoding: InputEncoding
    /// One line saying how the bytes were found, e.g. "raw DER/BER, 5,162 bytes" or
    /// "decoded from base64: 6,884 characters → 5,162 bytes". Terminal-safe as built (the one piece
    /// of input text in it, a PEM label, is escaped), so it is written as it is: escaping it again
    /// would show an escape's backslash doubled.
    public var note: String
    /// Problems with the input as a whole that the loader found (`InputCode`): each is an error
    /// pinned to a range of `bytes`, so a command counts them with the parser's and exits 1.
    /// Empty for every input the loader fully recognised.
    public var diagnostics: [Diagnostic]
    /// Set when the bytes were found inside a larger pasted text (DocumentModel's paste finder):
    /// the text and how each loaded byte maps into it. Nil for a clean input.
    public var origin: PasteOrigin?
    /// Set by the loader's compact-JWS step, which checked that `bytes` are, whole, one token's
    /// characters (`CompactJWSShape`): the StoreKit classifier then takes that answer instead of
    /// reading every byte again. Any change of `bytes` (the redactor's copy) clears it.
    public internal(set) var isCompactJWS = false

    public init(bytes: [UInt8], name: String, encoding: InputEncoding, note: String, diagnostics: [Diagnostic] = [],
                origin: PasteOrigin? = nil) {
        self.bytes = bytes
        self.name = name
        self.encoding = encoding
        self.note = note
        self.diagnostics = diagnostics
        self.origin = origin
    }
}

/// A problem that prevents loading the input at all: one clear line, shown as
/// `receipt-explorer: <message>` with exit status 2. An input that loads but has problems carries
/// them as `LoadedInput.diagnostics` instead (exit status 1).
///
/// `message` is safe to print to a terminal as it is: every part that came from outside (a path, a
/// file name, a JSON key, a PEM label) is escaped where it is inserted, so printers must not escape
/// it again (that doubled every backslash: docs/robustness.md, finding 6).
public struct InputError: Error, CustomStringConvertible, Sendable, Equatable {
    public var message: String
    public var description: String { message }

    /// `'name'` with control characters, bidi overrides and invalid UTF-8 escaped.
    public static func quoted(_ outside: String) -> String { "'" + TerminalSafe.escape(outside) + "'" }

    public init(_ message: String) { self.message = message }
    public init(message: String) { self.message = message }
}
