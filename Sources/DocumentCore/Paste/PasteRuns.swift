import ASN1Lenient
import ByteText
import TextLoader

/// A run of data characters in a view: base64 / base64url, the dots of a compact JWS and trailing
/// `=` padding, with whitespace and wrapped line breaks left out. Quotes, commas, semicolons,
/// backticks and the words around stop a run, so data in a log line, in quotes or in a markdown
/// fence comes out alone.
struct PasteRun {
    /// The view's bytes the run is read from (shared, not copied).
    private let source: [UInt8]
    /// While the characters are the source's own, next to each other (no wrapped line break left
    /// out, no `\/` read as `/`): where they are. A run of a 67 MB line was a copy of it beside the
    /// text (issue 32: the paste finder keeps one copy of the text and indexes into it).
    private var span: Range<Int>
    /// Otherwise the characters, copied from the first one that is not next to the others.
    private var copied: [UInt8]?
    /// The pasted-text offset of each character.
    private(set) var offsets: OffsetList = []

    init(in source: [UInt8]) {
        self.source = source
        span = 0..<0
    }

    var characters: ArraySlice<UInt8> { copied.map { $0[...] } ?? source[span] }
    var count: Int { copied?.count ?? span.count }

    /// Adds `source[index]`, or (`character`) what the source's bytes at `index` stand for.
    mutating func append(_ index: Int, offset: Int, character: UInt8? = nil) {
        offsets.append(offset)
        if copied == nil, character == nil, span.isEmpty || index == span.upperBound {
            span = span.isEmpty ? index..<(index + 1) : span.lowerBound..<(index + 1)
            return
        }
        if copied == nil { copied = Array(source[span]) }
        copied!.append(character ?? source[index])
    }

    mutating func removeLast() {
        _ = offsets.removeLast()
        if copied != nil { copied!.removeLast() } else { span = span.lowerBound..<(span.upperBound - 1) }
    }

    /// The characters decoded as base64, read where they are.
    func decoded() -> Result<TextLoader.Base64Text.Decoded, TextLoader.Base64Text.Failure> {
        copied.map { TextLoader.Base64Text.decode($0) } ?? TextLoader.Base64Text.decode(source, range: span)
    }
}

enum PasteRuns {
    /// Shorter runs are words, dates and ids, not data (a JWS header alone is longer).
    static let minimumLength = 16
    /// A run continues on the next line only when its line is at least this long and the next line
    /// holds data characters alone (base64 wrapped at 64 or 76 characters, CRLF or LF).
    static let minimumWrappedLine = 16

    @inline(__always)
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }

    @inline(__always)
    static func isAlphabet(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39)
            || c == UInt8(ascii: "+") || c == UInt8(ascii: "/") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_")
    }

    @inline(__always)
    static func isData(_ c: UInt8) -> Bool { isAlphabet(c) || c == UInt8(ascii: ".") || c == UInt8(ascii: "=") }

    /// The runs of at least `minimumLength` characters in `view`.
    static func runs(in view: PasteView) -> [PasteRun] {
        let b = view.bytes
        var runs: [PasteRun] = []
        var current = PasteRun(in: b)
        var lineLength = 0
        func finish() {
            // A sentence's full stop or a JSON path's dot after the data is not part of it.
            while current.characters.last == UInt8(ascii: ".") { current.removeLast() }
            if current.count >= minimumLength { runs.append(current) }
            current = PasteRun(in: b)
            lineLength = 0
        }
        var i = 0
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "=") {
                // `key=value`: an `=` followed by data ends a key, not base64.
                var j = i
                while j < b.count && b[j] == UInt8(ascii: "=") { j += 1 }
                if j < b.count && isAlphabet(b[j]) {
                    current = PasteRun(in: b)
                    lineLength = 0
                    i = j
                    continue
                }
                for k in i..<j { current.append(k, offset: view.offsets[k]) }
                i = j
                finish()
                continue
            }
            if isData(c) {
                current.append(i, offset: view.offsets[i])
                lineLength += 1
                i += 1
                continue
            }
            // A JSON-escaped slash outside JSON (a log line quoting a JSON body): `\/` is `/`.
            if c == UInt8(ascii: "\\"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "/"), current.count > 0 {
                current.append(i + 1, offset: view.offsets[i + 1], character: UInt8(ascii: "/"))
                lineLength += 1
                i += 2
                continue
            }
            if (c == 0x0D || c == 0x0A), lineLength >= minimumWrappedLine, let next = wrappedLineStart(b, after: i) {
                lineLength = 0
                i = next
                continue
            }
            finish()
            i += 1
        }
        finish()
        return runs
    }

    /// Where the next line's data starts when the line break at `i` wraps base64: the next line
    /// (after CR/LF and indentation) is data characters only, up to its end or a closing quote.
    static func wrappedLineStart(_ b: [UInt8], after i: Int) -> Int? {
        var j = i
        if b[j] == 0x0D { j += 1 }
        guard j < b.count, b[j] == 0x0A else { return b[i] == 0x0D ? nil : wrappedFrom(b, i + 1) }
        return wrappedFrom(b, j + 1)
    }

    private static func wrappedFrom(_ b: [UInt8], _ start: Int) -> Int? {
        var j = start
        while j < b.count && (b[j] == 0x20 || b[j] == 0x09) { j += 1 }
        let dataStart = j
        while j < b.count && isData(b[j]) { j += 1 }
        guard j > dataStart else { return nil }
        // The rest of the line may close what opened the data: a quote, a comma, a semicolon.
        while j < b.count && b[j] != 0x0A && b[j] != 0x0D {
            guard [UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ")"),
                   UInt8(ascii: "`"), 0x20, 0x09].contains(b[j]) else { return nil }
            j += 1
        }
        return dataStart
    }
}
