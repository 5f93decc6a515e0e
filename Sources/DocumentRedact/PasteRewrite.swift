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

    /// `text` with the data at `origin` rewritten to decode to `newBytes` (as many bytes as the
    /// data read from it). The data as read is not needed: each step's characters say what they
    /// decode to, and the copy is read back and checked against `newBytes` (`TextFormRewrap`).
    static func rewrite(_ text: [UInt8], origin: PasteOrigin, newBytes: [UInt8]) throws -> [UInt8] {
        let steps = origin.steps
        guard !steps.isEmpty else { throw Failure(message: "the paste has no record of where the data sits") }
        // Each level's bytes, outside in: level[steps.count] is the text, level[1] what the data
        // is read from.
        var levels = [[UInt8]](repeating: [], count: steps.count + 1)
        levels[steps.count] = text
        for k in stride(from: steps.count - 1, through: 1, by: -1) {
            levels[k] = try decode(levels[k + 1], step: steps[k])
        }
        var new = newBytes
        for k in 0..<steps.count {
            let out = try rewritten(levels[k + 1], step: steps[k], new: new)
            // Only the text itself may change length (`\/` becoming one character): an inner
            // level is base64 of the next, whose characters stay where they are.
            if k + 1 < steps.count && out.count != levels[k + 1].count {
                throw Failure(message: "an escape inside base64 inside base64 cannot hold its new character")
            }
            levels[k + 1] = []
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

    /// `parent` with `step`'s characters rewritten to decode to `new`, built front to back, a
    /// character looked at when it is reached: a list of the characters (32 bytes each) and of the
    /// edits was 3.4 GB at once for 67 MB of pasted text (issue 32). Only the characters that carry
    /// a changed byte (or sextet) are written; the rest of the text is copied as it is.
    static func rewritten(_ parent: [UInt8], step: PasteOrigin.Step, new: [UInt8]) throws -> [UInt8] {
        let offsets = step.parentOffsets
        let style = Style(parent, offsets: offsets)
        var out: [UInt8] = []
        out.reserveCapacity(parent.count)
        var copied = 0
        func replace(_ unit: Unit, with character: UInt8) throws {
            guard unit.range.lowerBound >= copied else {
                throw Failure(message: "the data's characters are not in the order of the text, so they cannot be rewritten in place")
            }
            out.append(contentsOf: parent[copied..<unit.range.lowerBound])
            style.write(character, in: parent[unit.range], to: &out)
            copied = unit.range.upperBound
        }
        switch step.kind {
        case .copied:
            guard offsets.count == new.count else {
                throw Failure(message: "the pasted text no longer holds the data it was read as")
            }
            for (i, offset) in offsets.enumerated() {
                let unit = unit(parent, at: offset)
                if unit.character != new[i] { try replace(unit, with: new[i]) }
            }
        case .base64:
            let pad = UInt8(ascii: "=")
            let urlDefault = offsets.contains { offset in
                let c = unit(parent, at: offset).character
                return c == UInt8(ascii: "-") || c == UInt8(ascii: "_")
            }
            var k = 0  // the data character's index, padding not counted
            for offset in offsets {
                let unit = unit(parent, at: offset)
                guard unit.character != pad else { continue }
                defer { k += 1 }
                guard let old = Base64Rewrite.sextet(unit.character, .either) else {
                    throw Failure(message: "a character of the base64 around the data is not base64")
                }
                let mask = Base64Rewrite.usedMask(character: k, byteCount: new.count)
                let sextet = (Base64Rewrite.bits(new, from: 6 * k) & mask) | (old & ~mask & 0x3F)
                guard sextet != old else { continue }
                let c = unit.character
                let url = c == UInt8(ascii: "-") || c == UInt8(ascii: "_") ? true
                    : c == UInt8(ascii: "+") || c == UInt8(ascii: "/") ? false : urlDefault
                try replace(unit, with: Base64Rewrite.character(sextet, url: url))
            }
        }
        out.append(contentsOf: parent[copied...])
        return out
    }

    /// How the text writes the characters that need it: `/` and `+` as the text already writes them
    /// (`\/`, `%2F`, `%2B`), learnt from the data's own characters; letters and digits as themselves,
    /// or in the escape the character they replace used (`\u0041`, `%41`), keeping its length.
    struct Style {
        var slash: [UInt8] = [UInt8(ascii: "/")]
        var plus: [UInt8] = [UInt8(ascii: "+")]

        /// The first `/` and `+` among the data's characters, found in one pass that stops once both are.
        init(_ text: [UInt8], offsets: OffsetList) {
            var slashFound = false, plusFound = false
            for offset in offsets {
                if slashFound && plusFound { break }
                let u = unit(text, at: offset)
                if !slashFound && u.character == UInt8(ascii: "/") { slash = Array(text[u.range]); slashFound = true }
                if !plusFound && u.character == UInt8(ascii: "+") { plus = Array(text[u.range]); plusFound = true }
            }
        }

        func write(_ c: UInt8, in old: ArraySlice<UInt8>, to out: inout [UInt8]) {
            if c == UInt8(ascii: "/") { return out.append(contentsOf: slash) }
            if c == UInt8(ascii: "+") { return out.append(contentsOf: plus) }
            // An escaped letter or digit stays escaped the same way, in the same letter case.
            let upper = old.dropFirst().contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") }
            if old.count == 6, old.first == UInt8(ascii: "\\") {
                out.append(contentsOf: Array("\\u00".utf8))
                return Hex.append(c, to: &out, upper ? .upper : .lower)
            }
            if old.count == 3, old.first == UInt8(ascii: "%") {
                out.append(UInt8(ascii: "%"))
                return Hex.append(c, to: &out, upper ? .upper : .lower)
            }
            out.append(c)
        }
    }
}
