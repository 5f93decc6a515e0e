import ASN1Lenient
import ByteText

/// Where the loaded bytes were found inside a pasted text (a log line, a JSON body, a HAR capture,
/// a form body, an argument): the pasted text is the outermost layer, so every offset of the
/// loaded bytes still maps to the characters the user pasted.
public struct PasteOrigin: Sendable, Equatable {
    /// How one layer of the found data sits in the text around it.
    public enum StepKind: Sendable, Equatable {
        /// Each byte was copied from the enclosing text (JSON escapes, percent-encoding and line
        /// breaks removed): `parentOffsets[i]` is where byte `i` came from.
        case copied
        /// The bytes were base64-decoded from characters at `parentOffsets` (whitespace excluded).
        case base64
    }

    public struct Step: Sendable, Equatable {
        public var kind: StepKind
        public var parentOffsets: OffsetList

        public init(kind: StepKind, parentOffsets: OffsetList) {
            self.kind = kind
            self.parentOffsets = parentOffsets
        }
    }

    /// The whole pasted text, as read (the outermost layer). A document lets it go once opened
    /// (`withoutText`): what it names places with is `positions` (issue 32: the text of a 50 MB
    /// receipt in a log line was held through every command).
    public var text: [UInt8]
    /// The text's length, and where its offsets are in lines and characters.
    public let textCount: Int
    public let positions: TextPositions
    /// Where the data was found: "line 1, column 21", "JSON path log.entries[0].request.postData.text".
    public var location: String
    /// From the loaded bytes outwards: the last step's offsets are offsets into `text`.
    public var steps: [Step]
    /// The other candidates that were found and not chosen, one short phrase each ("a compact JWS at
    /// line 3, column 9"), so that the choice is never silent.
    public var others: [String]

    /// `positions`: the text's, when the caller has made them already.
    public init(text: [UInt8], location: String, steps: [Step], others: [String] = [], positions: TextPositions? = nil) {
        self.text = text
        self.textCount = text.count
        self.positions = positions ?? TextPositions(text)
        self.location = location
        self.steps = steps
        self.others = others
    }

    /// The same origin without its text.
    public var withoutText: PasteOrigin {
        var origin = self
        origin.text = []
        return origin
    }

    /// Equal when found the same way in the same text (the positions follow from the text).
    public static func == (a: PasteOrigin, b: PasteOrigin) -> Bool {
        a.text == b.text && a.textCount == b.textCount && a.location == b.location && a.steps == b.steps && a.others == b.others
    }

    /// The offset in `text` of the first character that encodes loaded byte `offset`.
    public func textOffset(_ offset: Int) -> Int {
        var position = offset
        for step in steps {
            guard let last = step.parentOffsets.last else { return position }
            let index = step.kind == .base64 ? position * 8 / 6 : position
            position = index < step.parentOffsets.count ? step.parentOffsets[index] : last + 1
        }
        return position
    }
}
