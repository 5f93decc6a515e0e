import ByteText
import TextLoader
import DocumentCore

/// The text around the data (a log line, a JSON log object, a HAR, a `curl -d` body, a
/// verifyReceipt body): kept as it is, except for the values in it that would name the customer or
/// the app — a member or field named like one of the redacted keys (`"password": "…"`,
/// `password=…`, `"transaction_id":"…"`) and any run value it mentions (an id in a URL or a log
/// message). Those are replaced in place, with stand-ins of the same length from the run's table.
struct WrapperText {
    /// A value in the text: a byte range of the input as read, written as itself (no escapes).
    struct Target {
        var field: RedactField
        var range: Range<Int>
        var original: String
        var place: String
        var isMention: Bool
        /// The value's place in the run's table, once it is drawn (`resolve`); nil for no stand-in.
        var standIn: Int?
    }

    /// Where the data sits in the input's text; nothing outside it is data.
    let dataSpan: Range<Int>
    /// The input's text, until `letTextGo`.
    private(set) var raw: [UInt8]
    var targets: [Target] = []

    init(_ input: RedactInput, fields: Set<RedactField>) {
        raw = input.raw
        dataSpan = Self.dataSpan(input)
        collectKeyed(fields: fields)
    }

    /// The range from the data's first character to its last (whitespace and escapes inside it
    /// included); the whole input when the data is the input or cannot be placed.
    static func dataSpan(_ input: RedactInput) -> Range<Int> {
        let raw = input.raw, loaded = input.loaded
        let whole = 0..<raw.count
        if let origin = loaded.origin, let step = origin.steps.last, !step.parentOffsets.isEmpty {
            // In one pass, no list of the characters (16 bytes each: 1 GB for 67 MB of text; issue 32).
            var lower = Int.max, upper = Int.min
            for offset in step.parentOffsets {
                let unit = PasteRewrite.unit(raw, at: offset).range
                lower = min(lower, unit.lowerBound)
                upper = max(upper, unit.upperBound)
            }
            return lower..<upper
        }
        if raw == loaded.bytes { return whole }
        if let range = raw.firstRange(of: loaded.bytes) { return range }
        if let run = Base64Rewrite.locate(loaded.bytes, in: raw) { return run }
        return whole
    }

    /// Once the targets are found (mentions too): the text is the input's, which must be free to go
    /// before the copy is opened (issue 32).
    mutating func letTextGo() { raw = [] }

    /// Once the run's table is drawn: each value as its place there, so that the copy is written
    /// from the stand-ins alone.
    mutating func resolve(_ table: StandIns) {
        for i in targets.indices { targets[i].standIn = table.index(of: .text(targets[i].original)) }
    }

    func outside(_ range: Range<Int>) -> Bool { !range.overlaps(dataSpan) }

    /// "the text around the data, line 2, column 7".
    func place(_ offset: Int, key: String?) -> String {
        let (line, column) = Base64Text.lineAndColumn(raw, offset: offset)
        let at = "the text around the data, line \(NumberText.grouped(line)), column \(NumberText.grouped(column))"
        return key.map { "\(at): \(TerminalSafe.escape($0))" } ?? at
    }

    // MARK: - Keyed values

    static func isKeyCharacter(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
    }

    /// Ends a value written without quotes, or inside quotes: quotes, separators, brackets, space.
    static func endsValue(_ c: UInt8) -> Bool {
        c <= 0x20 || c == 0x7F || [UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "&"), UInt8(ascii: ","),
                                   UInt8(ascii: ";"), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"), UInt8(ascii: "<"),
                                   UInt8(ascii: ">")].contains(c)
    }

    /// `KEY` then `"`, `\"` or `'` (optional), `:` or `=` with spaces around, an opening quote
    /// (optional), and the value up to its end: JSON members (escaped in a log line too), form
    /// fields, `key=value` in a log message.
    mutating func collectKeyed(fields: Set<RedactField>) {
        let keys = RedactField.byJSONKey.filter { fields.contains($0.value) }
        guard !keys.isEmpty, dataSpan != 0..<raw.count else { return }
        let byFirst = Dictionary(grouping: keys.keys.map { Array($0.utf8) }, by: { $0[0] })
        var i = 0
        while i < raw.count {
            guard let candidates = byFirst[raw[i]], i == 0 || !Self.isKeyCharacter(raw[i - 1]) else { i += 1; continue }
            var matched: (key: [UInt8], value: Range<Int>)?
            for key in candidates where raw[i...].starts(with: key) {
                if let value = valueAfter(key: i..<(i + key.count)) { matched = (key, value); break }
            }
            guard let (key, value) = matched else { i += 1; continue }
            if let text = UTF8Text.string(raw, value), outside(i..<value.upperBound), text != "null", text != "true", text != "false",
               let field = keys[String(decoding: key, as: UTF8.self)] {
                targets.append(Target(field: field, range: value, original: text,
                                      place: place(value.lowerBound, key: String(decoding: key, as: UTF8.self)), isMention: false))
            }
            i = value.upperBound
        }
    }

    func valueAfter(key: Range<Int>) -> Range<Int>? {
        var j = key.upperBound
        func skip(_ bytes: [UInt8]) -> Bool {
            guard raw[j...].starts(with: bytes) else { return false }
            j += bytes.count
            return true
        }
        if j < raw.count && Self.isKeyCharacter(raw[j]) { return nil }
        _ = skip(Array("\\\"".utf8)) || skip([UInt8(ascii: "\"")]) || skip([UInt8(ascii: "'")])
        while j < raw.count && (raw[j] == 0x20 || raw[j] == 0x09) { j += 1 }
        guard j < raw.count, raw[j] == UInt8(ascii: ":") || raw[j] == UInt8(ascii: "=") else { return nil }
        j += 1
        while j < raw.count && (raw[j] == 0x20 || raw[j] == 0x09) { j += 1 }
        _ = skip(Array("\\\"".utf8)) || skip([UInt8(ascii: "\"")]) || skip([UInt8(ascii: "'")])
        let start = j
        while j < raw.count && !Self.endsValue(raw[j]) { j += 1 }
        return j > start ? start..<j : nil
    }

    // MARK: - Mentions

    /// Every occurrence, outside the data and the keyed values, of a run value long enough to
    /// look for (`JSONPath.minimumMention`).
    mutating func collectMentions(of originals: MentionTable) {
        guard !originals.isEmpty, dataSpan != 0..<raw.count else { return }
        let taken = targets.map(\.range)
        let raw = raw
        raw.withUnsafeBufferPointer { text in
            originals.forEachMention(in: text, 0..<raw.count,
                                     allowed: { range in outside(range) && !taken.contains { $0.overlaps(range) } }) { range, field in
                targets.append(Target(field: field, range: range, original: String(decoding: raw[range], as: UTF8.self),
                                      place: place(range.lowerBound, key: nil), isMention: true))
            }
        }
    }
}
