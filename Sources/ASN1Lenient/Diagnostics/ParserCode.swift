/// Every problem the parser itself detects, with its stable code and severity.
/// The receipt module adds its own codes (prefixed `receipt-` / `pkcs7-`).
public enum ParserCode: String, Sendable, CaseIterable {
    // Headers
    case truncatedIdentifier = "truncated-identifier"
    case truncatedLength = "truncated-length"
    case truncatedContent = "truncated-content"
    case lengthExceedsParent = "length-exceeds-parent"
    case lengthTooManyOctets = "length-too-many-octets"
    case lengthReserved = "length-reserved"
    case lengthOverflow = "length-overflow"
    case lengthNotMinimal = "length-not-minimal"
    case indefiniteLength = "indefinite-length"
    case indefinitePrimitive = "indefinite-primitive"
    case missingEOC = "missing-eoc"
    case strayEOC = "stray-eoc"
    case eocNonZeroLength = "eoc-nonzero-length"
    case tagNotMinimal = "tag-not-minimal"
    case tagLeadingZero = "tag-leading-zero"
    case tagTooLarge = "tag-too-large"
    case trailingData = "trailing-data"
    case nestingTooDeep = "nesting-too-deep"
    case inputTooLarge = "input-too-large"
    case tooManyElements = "too-many-elements"
    // Structure
    case mustBePrimitive = "must-be-primitive"
    case mustBeConstructed = "must-be-constructed"
    case constructedString = "constructed-string"
    case setNotSorted = "set-not-sorted"
    // Values
    case booleanLength = "boolean-length"
    case booleanValue = "boolean-value"
    case nullContent = "null-content"
    case integerEmpty = "integer-empty"
    case integerNotMinimal = "integer-not-minimal"
    case bitStringEmpty = "bitstring-empty"
    case bitStringUnusedBits = "bitstring-unused-bits"
    case bitStringPadding = "bitstring-padding"
    case oidEmpty = "oid-empty"
    case oidTruncated = "oid-truncated"
    case oidLeadingZero = "oid-leading-zero"
    case utf8Invalid = "utf8-invalid"
    case stringCharset = "string-charset"
    case bmpLength = "bmp-length"
    case universalStringLength = "universal-string-length"
    case timeMalformed = "time-malformed"
    case timeNotDER = "time-not-der"

    /// A defect in headers or extents: the bytes cannot be split into elements as written.
    public var isStructural: Bool {
        switch self {
        case .truncatedIdentifier, .truncatedLength, .truncatedContent, .lengthExceedsParent,
             .lengthTooManyOctets, .lengthReserved, .lengthOverflow, .indefinitePrimitive, .missingEOC,
             .strayEOC, .eocNonZeroLength, .tagTooLarge, .nestingTooDeep, .inputTooLarge:
            true
        default:
            false
        }
    }

    public var severity: Severity {
        switch self {
        case .lengthNotMinimal, .indefiniteLength, .constructedString, .setNotSorted, .booleanValue,
             .bitStringPadding, .timeNotDER:
            .notDER
        case .trailingData:
            .warning
        default:
            .error
        }
    }

    /// One sentence for documentation and the explanation pane.
    public var summary: String {
        switch self {
        case .truncatedIdentifier: "The input ends inside the identifier octets."
        case .truncatedLength: "The input ends inside the length octets."
        case .truncatedContent: "The length claims more content octets than the input holds."
        case .lengthExceedsParent: "The length runs past the end of the enclosing element."
        case .lengthTooManyOctets: "More than 8 length octets: the length cannot be represented."
        case .lengthReserved: "Length octet 0xFF is reserved by X.690."
        case .lengthOverflow: "The length is larger than any offset this machine can address."
        case .lengthNotMinimal: "The length is not encoded in the fewest octets (DER requires it)."
        case .indefiniteLength: "Indefinite length (0x80) is BER only; DER requires definite lengths."
        case .indefinitePrimitive: "A primitive element cannot have an indefinite length."
        case .missingEOC: "An indefinite-length element has no end-of-contents marker."
        case .strayEOC: "An end-of-contents marker (00 00) appears outside an indefinite-length element."
        case .eocNonZeroLength: "An end-of-contents marker must have length 0."
        case .tagNotMinimal: "High-tag-number form used for a tag number below 31."
        case .tagLeadingZero: "A long-form tag number starts with a 0x80 octet."
        case .tagTooLarge: "The tag number does not fit in 32 bits."
        case .trailingData: "Bytes follow the end of the top-level element."
        case .nestingTooDeep: "Nesting is deeper than the parser's limit."
        case .inputTooLarge: "The input is larger than 4 GiB - 1, the largest offset a node can record."
        case .tooManyElements: "More elements than memory allows for the input's size (ASN.1: one per 8 bytes plus 1,048,576, the rest shown unparsed; JSON: one value or member per 32 bytes plus 131,072, the rest left unread)."
        case .mustBePrimitive: "This type must use the primitive encoding."
        case .mustBeConstructed: "SEQUENCE and SET must use the constructed encoding."
        case .constructedString: "Constructed (segmented) string encoding is BER only."
        case .setNotSorted: "SET elements are not in ascending order of their encodings (DER)."
        case .booleanLength: "A BOOLEAN must have exactly one content octet."
        case .booleanValue: "DER encodes TRUE as 0xFF and FALSE as 0x00."
        case .nullContent: "NULL must have no content octets."
        case .integerEmpty: "An INTEGER or ENUMERATED needs at least one content octet."
        case .integerNotMinimal: "The first 9 bits of an INTEGER must not all be 0 or all be 1."
        case .bitStringEmpty: "A BIT STRING needs its unused-bits octet."
        case .bitStringUnusedBits: "The unused-bits count must be 0-7, and 0 for an empty BIT STRING."
        case .bitStringPadding: "DER requires the unused padding bits to be zero."
        case .oidEmpty: "An OBJECT IDENTIFIER needs at least one content octet."
        case .oidTruncated: "The last subidentifier of the OBJECT IDENTIFIER is unfinished."
        case .oidLeadingZero: "A subidentifier starts with 0x80 (not minimal)."
        case .utf8Invalid: "The UTF8String is not valid UTF-8."
        case .stringCharset: "A character is outside the string type's alphabet."
        case .bmpLength: "A BMPString must have an even number of octets."
        case .universalStringLength: "A UniversalString's length must be a multiple of 4."
        case .timeMalformed: "The time value does not follow the type's format."
        case .timeNotDER: "DER requires seconds and 'Z' (and no trailing fractional zeros)."
        }
    }
}
