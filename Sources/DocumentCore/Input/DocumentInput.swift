import ASN1Lenient
import ByteText
import TextLoader

/// One input as the user gave it: the one way in for every command, every batch input and the
/// tamper lab. `read()` takes it from its bytes to the data (read the bytes, undo text encodings,
/// find the data in a paste); `Document.open(_:_:)` then asks the registry what it is and opens it.
/// Nothing else reads an input file or calls a loader, so the same bytes get the same reading
/// whichever way they come in.
public enum DocumentInput: Sendable {
    /// A FILE operand: a path, "-" for standard input, or (when it names no file and is clearly
    /// data) a token or base64 given as the argument itself.
    case path(String)
    /// One `--lines` line (line terminator removed): read exactly as a file holding that line.
    case line([UInt8], number: Int, of: String)
    /// Bytes in hand (the embedded sample): read as a file holding them; `about` replaces the
    /// loader's note when given.
    case bytes([UInt8], place: InputPlace, about: String? = nil)
    /// The tamper lab's edited copy of a document's decoded bytes: already past the loader, so it
    /// keeps the original's encoding and place (not its paste origin: an edit can move every offset).
    case edited([UInt8], of: DocumentSource)

    /// Reads the input and finds the data in it. Throws `InputError` (exit status 2) when there is
    /// nothing to read (no such file, empty, a private key, broken base64 / PEM / verifyReceipt body).
    public func read() throws -> ReadInput {
        switch self {
        case .path(let path):
            let place: InputPlace = path == "-" ? .standardInput : .file(path)
            let raw: [UInt8]
            do {
                raw = try InputLoader.readInput(path: path).raw
            } catch let error as InputError {
                // Only data that loads as data replaces the I/O error; anything else keeps it.
                guard path != "-", let inline = PasteLoader.inlineData(path),
                      let loaded = try? PasteLoader.decode(inline, place: .argument, inline: true), PasteLoader.isData(loaded) else { throw error }
                return ReadInput(raw: inline, loaded: loaded, place: .argument)
            }
            return ReadInput(raw: raw, loaded: try PasteLoader.decode(raw, place: place), place: place)
        case .line(let bytes, let number, let file):
            let place = InputPlace.line(number, of: file)
            return ReadInput(raw: bytes, loaded: try PasteLoader.decode(bytes, place: place), place: place)
        case .bytes(let bytes, let place, let about):
            var loaded = try PasteLoader.decode(bytes, place: place)
            if let about { loaded.note = about }
            return ReadInput(raw: bytes, loaded: loaded, place: place)
        case .edited(let bytes, let source):
            return Self.readEdited(bytes, of: source)
        }
    }

    /// A file's bytes as the one way in reads them, with its refusals ("cannot read 'x': …"): for
    /// the files options name (`--root`, `--key`), which are not searched for data.
    public static func bytes(ofFile path: String) throws -> [UInt8] {
        try InputLoader.readInput(path: path).raw
    }

    /// `.edited`'s reading, which cannot fail (the lab re-opens on every key, without a `try`).
    public static func readEdited(_ bytes: [UInt8], of source: DocumentSource) -> ReadInput {
        let note = "edited in the tamper lab, \(NumberText.grouped(bytes.count)) bytes"
        return ReadInput(raw: bytes, loaded: LoadedInput(bytes: bytes, name: source.name, encoding: source.encoding, note: note),
                         place: source.place)
    }
}

/// An input read: its bytes as read, the data the loader found in them, and where it came from.
public struct ReadInput: Sendable {
    /// The bytes as read (the file, the line, the argument): what `redact` writes its copy in.
    public var raw: [UInt8]
    /// The data found in `raw`, with how it was found (`loaded.origin`: where in `raw`, when it
    /// was inside a paste; the decoded bytes are `loaded.bytes`).
    public var loaded: LoadedInput
    public var place: InputPlace

    public init(raw: [UInt8], loaded: LoadedInput, place: InputPlace) {
        self.raw = raw
        self.loaded = loaded
        self.place = place
    }
}

extension Document {
    /// The one way in: reads `input` and opens it with the format that recognises it.
    public static func open(_ input: DocumentInput, _ opening: OpenOptions) throws -> Document {
        open(try input.read(), opening)
    }

    /// Opens an input already read. Handed over: the bytes as read (and the paste's copy of them)
    /// go before the data is parsed, unless the caller keeps them (a 50 MB receipt as base64 is
    /// 67 MB of text that no document reads; issue 32).
    public static func open(_ input: consuming ReadInput, _ opening: OpenOptions) -> Document {
        var (loaded, place) = (input.loaded, input.place)
        _ = consume input
        // Nor the pasted text around the data: the document keeps where it was found, not the text.
        loaded.origin = loaded.origin?.withoutText
        var document = open(loaded, opening)
        document.source.place = place
        return document
    }
}
