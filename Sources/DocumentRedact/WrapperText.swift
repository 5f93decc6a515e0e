import ByteText
import JSONLenient
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

    /// The text around data written the way an encoder writes base64 (`Base64Layout`): what is
    /// before and after it, and the layout, from which the copy's text is made (`copyText`).
    struct AroundData {
        var before: [UInt8]
        var layout: Base64Layout
        var after: [UInt8]
        /// The line `after` starts on, and where in the text that line starts (for `place`).
        var afterLine: Int
        var afterLineStart: Int
    }

    /// Where the data sits in the input's text; nothing outside it is data.
    let dataSpan: Range<Int>
    /// The input's text, until `letTextGo`; empty from the start when `around` is kept instead.
    private(set) var raw: [UInt8]
    /// Set when the data is base64 written the regular way: the input's text is then not needed
    /// (`needsInputText`), and is let go before the document is opened (issue 32).
    private(set) var around: AroundData?
    var targets: [Target] = []
    /// A verifyReceipt body's "password" member kept (--keep password): said in the summary.
    private(set) var keptPassword = false

    init(_ input: RedactInput, fields: Set<RedactField>) {
        raw = input.raw
        dataSpan = Self.dataSpan(input)
        collectKeyed(fields: fields)
        keptPassword = !fields.contains(.password) && Self.holdsPassword(input)
        if let layout = Self.layout(input, dataSpan: dataSpan) {
            let (line, column) = Base64Text.lineAndColumn(raw, offset: dataSpan.upperBound)
            around = AroundData(before: Array(raw[..<dataSpan.lowerBound]), layout: layout, after: Array(raw[dataSpan.upperBound...]),
                                afterLine: line, afterLineStart: dataSpan.upperBound - column + 1)
            raw = []
        }
    }

    /// Whether the copy is written into the input's own text (else made from `around`).
    var needsInputText: Bool { around == nil }

    static func holdsPassword(_ input: RedactInput) -> Bool {
        guard input.loaded.encoding == .verifyReceiptJSON else { return false }
        let body = JSONParser.parse(input.raw)
        guard let root = body.root else { return false }
        return body.value("password", in: root) != nil
    }

    /// The layout the data's text is written in, when the loader read the data from that text
    /// alone (base64, PEM, a verifyReceipt body, or base64 found in a paste in one step) and found
    /// nothing wrong with it; nil otherwise (the copy is then written into the text itself).
    static func layout(_ input: RedactInput, dataSpan: Range<Int>) -> Base64Layout? {
        let loaded = input.loaded
        guard loaded.diagnostics.isEmpty else { return nil }
        if let origin = loaded.origin {
            guard origin.steps.count == 1, origin.steps[0].kind == .base64 else { return nil }
        } else {
            guard [InputEncoding.base64, .pem, .verifyReceiptJSON].contains(loaded.encoding) else { return nil }
        }
        return Base64Layout.of(input.raw[dataSpan], writing: loaded.bytes)
    }

    /// The copy's text made from the new bytes (`around` is set): the text around them as it was,
    /// with the values in it replaced.
    func copyText(_ newBytes: [UInt8], standIns: StandIns, copy: inout RedactedCopy) -> [UInt8] {
        guard let around else { preconditionFailure("copyText without the text around the data") }
        var text = around.before
        around.layout.append(newBytes, to: &text)
        text.append(contentsOf: around.after)
        writeTargets(into: &text, standIns: standIns, copy: &copy)
        return text
    }

    /// Writes the stand-ins of the values around the data into the input's text (or the copy's,
    /// which has them at the same offsets), counting them in `copy`.
    func writeTargets(into text: inout [UInt8], standIns: StandIns, copy: inout RedactedCopy) {
        for target in targets {
            guard let standIn = target.standIn else { continue }
            text.replaceSubrange(target.range, with: standIns.standIn(at: standIn).bytes)
            if target.isMention { copy.mentions += 1 } else { copy.replaced[target.field, default: 0] += 1 }
        }
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
        var (line, column) = Base64Text.lineAndColumn(raw, offset: offset)
        if let around {
            if offset < dataSpan.lowerBound {
                (line, column) = Base64Text.lineAndColumn(around.before, offset: offset)
            } else {
                let (more, inLine) = Base64Text.lineAndColumn(around.after, offset: offset - dataSpan.upperBound)
                line = around.afterLine + more - 1
                column = more == 1 ? offset - around.afterLineStart + 1 : inLine
            }
        }
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
        guard !originals.isEmpty else { return }
        // Around data kept as its layout, the text before and after it is searched piece by piece:
        // a mention never overlaps the data, so the pieces find what the whole text would.
        let pieces = around.map { [(text: $0.before, at: 0), (text: $0.after, at: dataSpan.upperBound)] }
            ?? (dataSpan == 0..<raw.count ? [] : [(text: raw, at: 0)])
        let taken = targets.map(\.range)
        for (piece, at) in pieces {
            piece.withUnsafeBufferPointer { text in
                originals.forEachMention(in: text, 0..<piece.count, allowed: { local in
                    let range = (local.lowerBound + at)..<(local.upperBound + at)
                    return outside(range) && !taken.contains { $0.overlaps(range) }
                }) { local, field in
                    let range = (local.lowerBound + at)..<(local.upperBound + at)
                    targets.append(Target(field: field, range: range, original: String(decoding: piece[local], as: UTF8.self),
                                          place: place(range.lowerBound, key: nil), isMention: true))
                }
            }
        }
    }
}
