import ByteText
import TextLoader
import TextOutput

/// Where one input came from, as the user would say it. Every message, note and "found at" names
/// the input by this, so that a token found in line 4 of a log is never described as a file of its own.
public enum InputPlace: Sendable, Equatable {
    /// A FILE operand, the path as given.
    case file(String)
    /// `-`.
    case standardInput
    /// A FILE argument that names no file but is the data itself (a token pasted on the command line).
    case argument
    /// One `--lines` line: line `number` (from 1) of the FILE operand `file` as given ("-": standard input).
    case line(Int, of: String)
    /// Bytes built into the tool (the embedded sample), by name.
    case builtIn(String)
    /// A document made from options (`verify --offer-signature …`), by the option that makes it.
    case options(String)

    /// The name notes, headers and JSON `input.name` use: a file's last path component, "stdin",
    /// "argument", "line 4", "embedded sample: …". Not escaped (printers escape it).
    public var name: String {
        switch self {
        case .file(let path): Self.lastComponent(path)
        case .standardInput: "stdin"
        case .argument: "argument"
        case .line(let number, _): "line \(number)"
        case .builtIn(let name): name
        case .options(let option): option
        }
    }

    /// The place as the end of a phrase ("characters 62-5383 of line 4 of app.log"): "app.log",
    /// "standard input", "the argument", "line 4 of app.log". Terminal-safe.
    public var words: String {
        switch self {
        case .file(let path): TerminalSafe.escape(Self.lastComponent(path))
        case .standardInput: "standard input"
        case .argument: "the argument"
        case .line(let number, let file):
            "line \(NumberText.grouped(number)) of " + (file == "-" || file == "stdin" ? "standard input" : TerminalSafe.escape(Self.lastComponent(file)))
        case .builtIn(let name): TerminalSafe.escape(name)
        case .options(let option): "the options of " + TerminalSafe.escape(option)
        }
    }

    /// A batch line's text is one line: its own line numbers say nothing, the batch line's number does.
    var isOneLine: Bool {
        if case .line = self { return true }
        return false
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    }
}

extension PasteOrigin {
    /// Where the found data sits in the text it was found in, in the user's words:
    /// "characters 62-5383 of line 4 of app.log", "line 3, character 5 to line 80, character 12 of
    /// dump.txt", with the JSON path or form field when the data was a value
    /// ("characters 30-4585 of line 1 of body.json (JSON path signedPayload)").
    /// `range` is a range of `text` (bytes); characters count UTF-8 scalars, from 1.
    public func words(_ range: Range<Int>, place: InputPlace, path: String? = nil) -> String {
        words(range, place: place, path: path, positions: positions)
    }

    /// `words` with the positions of `text` made once by the caller, which names many places in it.
    public func words(_ range: Range<Int>, place: InputPlace, path: String? = nil, positions: TextPositions) -> String {
        let first = positions.position(of: range.lowerBound)
        let last = positions.position(of: max(range.lowerBound, range.upperBound - 1))
        var out: String
        if place.isOneLine {
            // A one-line place can still hold a newline (an inline argument, a batch line's escapes):
            // across lines the characters are counted per line, so no range of them is formed.
            out = first.line != last.line
                ? "line \(first.line), character \(first.character) to line \(last.line), character \(last.character) of \(place.words)"
                : "\(RangeText.text(first.character..<(last.character + 1), plural: "characters", singular: "character")) of \(place.words)"
        } else if first.line == last.line {
            out = "\(RangeText.text(first.character..<(last.character + 1), plural: "characters", singular: "character")) of line \(NumberText.grouped(first.line)) of \(place.words)"
        } else {
            out = "line \(NumberText.grouped(first.line)), character \(NumberText.grouped(first.character)) to line "
                + "\(NumberText.grouped(last.line)), character \(NumberText.grouped(last.character)) of \(place.words)"
        }
        if let path { out += " (" + TerminalSafe.escape(path.hasPrefix("form field ") ? path : "JSON path " + path) + ")" }
        return out
    }

    /// The range of `text` that encodes loaded bytes `range` (all of them: `0..<count`).
    public func textRange(_ range: Range<Int>) -> Range<Int> {
        offsetMaps.reduce(range) { $1.parentRange($0) }
    }
}
