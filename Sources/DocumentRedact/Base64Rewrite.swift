import DocumentCore

/// Writes new bytes into existing base64 text character by character, so that everything else
/// about the text stays: line breaks, whitespace, padding, which alphabet each character used,
/// JSON `\/` escapes, and the unused bits of the last character. The new bytes must be as many as
/// the text decodes to.
enum Base64Rewrite {
    /// One base64 character in the text: one byte, or `\/` (two) inside a JSON string.
    struct Slot: Equatable {
        var offset: Int
        var length: Int
    }

    enum Alphabet {
        /// base64url only: `+` and `/` are not characters (a JWS segment; its decoder reads them as zero bits).
        case url
        /// Either alphabet (the loader's base64 text).
        case either
    }

    struct Failure: Error {
        var message: String
    }

    static func sextet(_ c: UInt8, _ alphabet: Alphabet) -> UInt8? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        case UInt8(ascii: "+") where alphabet == .either: 62
        case UInt8(ascii: "/") where alphabet == .either: 63
        default: nil
        }
    }

    /// The sextet a slot's character stands for (`\/` is `/`), nil when it is not in the alphabet.
    static func sextet(_ text: [UInt8], _ slot: Slot, _ alphabet: Alphabet) -> UInt8? {
        slot.length == 2 ? (alphabet == .either ? 63 : nil) : sextet(text[slot.offset], alphabet)
    }

    /// Bits `start ..< start + 6` of `bytes`, zero past the end.
    static func bits(_ bytes: [UInt8], from start: Int) -> UInt8 {
        var value: UInt8 = 0
        for b in start..<(start + 6) {
            let byte = b / 8
            let bit = byte < bytes.count ? (bytes[byte] >> UInt8(7 - b % 8)) & 1 : 0
            value = value << 1 | bit
        }
        return value
    }

    /// Of the sextet of character `k`, the bits that carry bytes (the rest are unused bits).
    static func usedMask(character k: Int, byteCount: Int) -> UInt8 {
        let used = max(0, min(6, byteCount * 8 - 6 * k))
        return used == 0 ? 0 : UInt8((0x3F << (6 - used)) & 0x3F)
    }

    /// The text with `slots` rewritten to decode to `bytes`. A character whose sextet is unchanged
    /// is kept as it is; one that is not in the alphabet (decoded as zero bits) may only keep
    /// zero bits, else the text cannot carry the new bytes. `escapedSlash`: a new `/` is written
    /// `\/`, as the text writes its own (the input's text only: an inner layer keeps its length).
    static func rewrite<Slots: Sequence<Slot>>(_ text: [UInt8], slots: Slots, bytes: [UInt8], alphabet: Alphabet,
                                               escapedSlash: Bool = false) throws -> [UInt8] {
        let urlDefault = slots.contains { $0.length == 1 && (text[$0.offset] == UInt8(ascii: "-") || text[$0.offset] == UInt8(ascii: "_")) }
            || alphabet == .url
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var copied = 0
        for (k, slot) in slots.enumerated() {
            out.append(contentsOf: text[copied..<slot.offset])
            copied = slot.offset + slot.length
            let old = sextet(text, slot, alphabet)
            let mask = usedMask(character: k, byteCount: bytes.count)
            let new = (bits(bytes, from: 6 * k) & mask) | ((old ?? 0) & ~mask & 0x3F)
            if new == (old ?? 0) {
                out.append(contentsOf: text[slot.offset..<copied])
                continue
            }
            guard old != nil else {
                throw Failure(message: "a value shares bits with the character at offset \(slot.offset), which is not base64url")
            }
            if slot.length == 2 && new == 63 {
                out.append(contentsOf: text[slot.offset..<copied])  // keep the escape
                continue
            }
            let c = text[slot.offset]
            let url = c == UInt8(ascii: "-") || c == UInt8(ascii: "_") ? true
                : c == UInt8(ascii: "+") || c == UInt8(ascii: "/") || slot.length == 2 ? false : urlDefault
            let written = character(new, url: url)
            if written == UInt8(ascii: "/") && escapedSlash { out.append(UInt8(ascii: "\\")) }
            out.append(written)
        }
        out.append(contentsOf: text[copied...])
        return out
    }

    static func character(_ sextet: UInt8, url: Bool) -> UInt8 {
        switch sextet {
        case 0..<26: UInt8(ascii: "A") + sextet
        case 26..<52: UInt8(ascii: "a") + sextet - 26
        case 52..<62: UInt8(ascii: "0") + sextet - 52
        case 62: url ? UInt8(ascii: "-") : UInt8(ascii: "+")
        default: url ? UInt8(ascii: "_") : UInt8(ascii: "/")
        }
    }

    /// Where `bytes`' base64 characters sit in `text`: a run that decodes to exactly `bytes`,
    /// allowing whitespace (and JSON's `\n`, `\r`, `\t` escapes) between characters, `\/` for `/`,
    /// either alphabet, and any unused bits in the last character; from its first character to
    /// the end of its last. Nil when there is none. `slots(in:)` walks its characters again: a
    /// list of them cost 16 bytes a character (107 MB for 6.7 MB of text; issue 32).
    static func locate(_ bytes: [UInt8], in text: [UInt8]) -> Range<Int>? {
        let count = (bytes.count * 8 + 5) / 6
        guard count > 0 else { return nil }
        // Character k's expected bits, read from `bytes` as needed (no array of them either).
        func matches(_ sextet: UInt8, _ k: Int) -> Bool {
            let mask = usedMask(character: k, byteCount: bytes.count)
            return sextet & mask == bits(bytes, from: 6 * k) & mask
        }
        for start in text.indices {
            guard let first = slot(text, at: start), matches(first.sextet, 0) else { continue }
            var found = 1
            var i = start + first.slot.length, end = i
            while found < count && i < text.count {
                if let next = slot(text, at: i) {
                    guard matches(next.sextet, found) else { break }
                    found += 1
                    i += next.slot.length
                    end = i
                } else if let skip = skippable(text, at: i) {
                    i += skip
                } else {
                    break
                }
            }
            if found == count { return start..<end }
        }
        return nil
    }

    /// Whether the text writes `/` as `\/` (JSON's escape), learnt from the run's first `/`.
    static func escapesSlash(_ text: [UInt8], in run: Range<Int>) -> Bool {
        slots(text, in: run).first { $0.length == 2 || text[$0.offset] == UInt8(ascii: "/") }?.length == 2
    }

    /// The characters of a run `locate` found, in order (what lies between them is skippable).
    static func slots(_ text: [UInt8], in run: Range<Int>) -> UnfoldSequence<Slot, Int> {
        sequence(state: run.lowerBound) { i in
            while i < run.upperBound {
                if let found = slot(text, at: i) {
                    i += found.slot.length
                    return found.slot
                }
                i += skippable(text, at: i) ?? 1
            }
            return nil
        }
    }

    static func slot(_ text: [UInt8], at i: Int) -> (slot: Slot, sextet: UInt8)? {
        if let s = sextet(text[i], .either) { return (Slot(offset: i, length: 1), s) }
        if text[i] == UInt8(ascii: "\\"), i + 1 < text.count, text[i + 1] == UInt8(ascii: "/") {
            return (Slot(offset: i, length: 2), 63)
        }
        return nil
    }

    static func skippable(_ text: [UInt8], at i: Int) -> Int? {
        let c = text[i]
        if c == 0x20 || (c >= 0x09 && c <= 0x0D) { return 1 }
        if c == UInt8(ascii: "\\"), i + 1 < text.count, [UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t")].contains(text[i + 1]) {
            return 2
        }
        return nil
    }
}
