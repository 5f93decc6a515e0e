import ByteText
import TextLoader
import DocumentCore

/// Writes redacted data back into the pasted text it was found in (a log line, a JSON log object,
/// a HAR, a `curl -d` body, quotes), through the loader's own record of where each byte came from
/// (`PasteOrigin.steps`): only the characters that carry changed bytes are rewritten, each in the
/// form it had (a plain character, `\/`, `\u00XX`, `%XX`), so the text around the data stays as
/// it was, byte for byte.
enum PasteRewrite {
    struct Failure: Error {
        var message: String
    }

    /// One character of data in its text: where it is and what it stands for (`\/` is `/`).
    struct Unit {
        var range: Range<Int>
        var character: UInt8
    }

    /// `text` with the data at `origin` rewritten to decode to `newBytes` (as many as `old`).
    static func rewrite(_ text: [UInt8], origin: PasteOrigin, old: [UInt8], newBytes: [UInt8]) throws -> [UInt8] {
        let steps = origin.steps
        guard !steps.isEmpty else { throw Failure(message: "the paste has no record of where the data sits") }
        // Each level's bytes, outside in: level[steps.count] is the text, level[0] the data.
        var levels = [[UInt8]](repeating: [], count: steps.count + 1)
        levels[steps.count] = text
        for k in stride(from: steps.count - 1, through: 1, by: -1) {
            levels[k] = try decode(levels[k + 1], step: steps[k])
        }
        levels[0] = old
        guard try decode(levels[1], step: steps[0]) == old else {
            throw Failure(message: "the pasted text no longer decodes to the data it was read as")
        }
        var new = newBytes
        for k in 0..<steps.count {
            let parent = levels[k + 1]
            let edits = try edits(parent, step: steps[k], old: levels[k], new: new)
            var out = parent
            for edit in edits.reversed() { out.replaceSubrange(edit.range, with: edit.bytes) }
            // Only the text itself may change length (`\/` becoming one character): an inner
            // level is base64 of the next, whose characters stay where they are.
            if k + 1 < steps.count && out.count != parent.count {
                throw Failure(message: "an escape inside base64 inside base64 cannot hold its new character")
            }
            new = out
        }
        return new
    }

    /// The bytes a step reads from its parent level.
    static func decode(_ parent: [UInt8], step: PasteOrigin.Step) throws -> [UInt8] {
        let characters = step.parentOffsets.map { unit(parent, at: $0).character }
        switch step.kind {
        case .copied:
            return characters
        case .base64:
            guard case .success(let decoded) = Base64Text.decode(characters) else {
                throw Failure(message: "the base64 around the data does not decode as it did")
            }
            return decoded.bytes
        }
    }

    /// The character at `p` in `text` as the paste finder read it: a JSON escape (`\/`, `\\\/`
    /// inside JSON inside a JSON string, `\u00XX`), a percent escape, a `/` after a `\`, or itself.
    static func unit(_ text: [UInt8], at p: Int) -> Unit {
        let backslash = UInt8(ascii: "\\"), slash = UInt8(ascii: "/")
        func at(_ i: Int) -> UInt8? { i >= 0 && i < text.count ? text[i] : nil }
        if text[p] == backslash {
            if at(p + 1) == slash { return Unit(range: p..<(p + 2), character: slash) }
            if at(p + 1) == backslash, at(p + 2) == backslash, at(p + 3) == slash { return Unit(range: p..<(p + 4), character: slash) }
            if at(p + 1) == UInt8(ascii: "u"), p + 6 <= text.count,
               let value = hexValue(text[(p + 2)..<(p + 6)]), value < 0x80 {
                return Unit(range: p..<(p + 6), character: UInt8(value))
            }
        }
        if text[p] == UInt8(ascii: "%"), p + 3 <= text.count, let value = hexValue(text[(p + 1)..<(p + 3)]) {
            return Unit(range: p..<(p + 3), character: UInt8(value))
        }
        if text[p] == slash, at(p - 1) == backslash, at(p - 2) != backslash {
            return Unit(range: (p - 1)..<(p + 1), character: slash)
        }
        return Unit(range: p..<(p + 1), character: text[p])
    }

    static func hexValue(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for d in digits {
            guard let v = Hex.value(ofDigit: d) else { return nil }
            value = value << 4 | Int(v)
        }
        return value
    }

    struct Edit {
        var range: Range<Int>
        var bytes: [UInt8]
    }

    /// The edits, in text order, that make `step`'s characters in `parent` decode to `new`.
    static func edits(_ parent: [UInt8], step: PasteOrigin.Step, old: [UInt8], new: [UInt8]) throws -> [Edit] {
        let units = step.parentOffsets.map { unit(parent, at: $0) }
        let style = Style(parent, units: units)
        var edits: [Edit] = []
        switch step.kind {
        case .copied:
            for i in old.indices where old[i] != new[i] {
                edits.append(Edit(range: units[i].range, bytes: style.write(new[i], in: parent[units[i].range])))
            }
        case .base64:
            let data = units.filter { $0.character != UInt8(ascii: "=") }
            let urlDefault = data.contains { $0.character == UInt8(ascii: "-") || $0.character == UInt8(ascii: "_") }
            for (k, unit) in data.enumerated() {
                guard let old = Base64Rewrite.sextet(unit.character, .either) else {
                    throw Failure(message: "a character of the base64 around the data is not base64")
                }
                let mask = Base64Rewrite.usedMask(character: k, byteCount: new.count)
                let sextet = (Base64Rewrite.bits(new, from: 6 * k) & mask) | (old & ~mask & 0x3F)
                guard sextet != old else { continue }
                let c = unit.character
                let url = c == UInt8(ascii: "-") || c == UInt8(ascii: "_") ? true
                    : c == UInt8(ascii: "+") || c == UInt8(ascii: "/") ? false : urlDefault
                let character = Base64Rewrite.character(sextet, url: url)
                edits.append(Edit(range: unit.range, bytes: style.write(character, in: parent[unit.range])))
            }
        }
        return edits.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// How the text writes the characters that need it: `/` and `+` as the text already writes them
    /// (`\/`, `%2F`, `%2B`), learnt from the data's own characters; letters and digits as themselves,
    /// or in the escape the character they replace used (`\u0041`, `%41`), keeping its length.
    struct Style {
        var slash: [UInt8] = [UInt8(ascii: "/")]
        var plus: [UInt8] = [UInt8(ascii: "+")]

        init(_ text: [UInt8], units: [Unit]) {
            if let u = units.first(where: { $0.character == UInt8(ascii: "/") }) { slash = Array(text[u.range]) }
            if let u = units.first(where: { $0.character == UInt8(ascii: "+") }) { plus = Array(text[u.range]) }
        }

        func write(_ c: UInt8, in old: ArraySlice<UInt8>) -> [UInt8] {
            if c == UInt8(ascii: "/") { return slash }
            if c == UInt8(ascii: "+") { return plus }
            // An escaped letter or digit stays escaped the same way, in the same letter case.
            let upper = old.dropFirst().contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") }
            if old.count == 6, old.first == UInt8(ascii: "\\") {
                var out = Array("\\u00".utf8)
                Hex.append(c, to: &out, upper ? .upper : .lower)
                return out
            }
            if old.count == 3, old.first == UInt8(ascii: "%") {
                var out = [UInt8(ascii: "%")]
                Hex.append(c, to: &out, upper ? .upper : .lower)
                return out
            }
            return [c]
        }
    }
}
