import ASN1Lenient
import Platform
import ByteText
import TextLoader

/// A compact JWS in pasted text, whole or cut off: which segment ends early, and how many
/// characters are there and missing where that is knowable (an ES256 signature is 86 characters).
enum PasteToken {
    /// base64url of a 64-byte ES256 signature (r ‖ s), without padding.
    static let es256SignatureCharacters = 86

    /// The token `reading` finds, as a candidate the paste finder ranks; nil when `text` is not a token's start.
    static func read(_ text: [UInt8], offsets: OffsetList) -> PasteCandidate? {
        guard let reading = reading(text) else { return nil }
        let step = PasteOrigin.Step(kind: .copied, parentOffsets: offsets)
        let count = NumberText.grouped(text.count)
        guard case .cutOff(let message) = reading else {
            return PasteCandidate(shape: .token, bytes: text, steps: [step], what: "a compact JWS, \(count) characters", start: 0)
        }
        return PasteCandidate(shape: .cutOffToken, bytes: text, steps: [step], what: "a compact JWS cut off, \(count) characters",
                              start: 0, cutOff: (message, cutOffRange(text)))
    }

    /// What `read` finds a token's start to be, before any of its words are made: a whole file's
    /// token asks only whether it is cut off, and a batch line's token is whole (naming it
    /// "a compact JWS, 5,322 characters" for every line was half of asking).
    enum Reading: Equatable {
        case whole
        /// With the finding's message.
        case cutOff(String)
    }

    /// Nil when `text` is not a token's start (its first segment must decode to a JSON header).
    static func reading(_ text: [UInt8]) -> Reading? {
        // memchr, not `split` and `contains`: every batch line passes here (13 instructions a byte).
        guard !ByteSearch.contains(text, "="), let parts = segments(text), let headerText = parts.first,
              !headerText.isEmpty else { return nil }
        // Three segments and a signature of full ES256 length: whole whatever the header says, so
        // the header (an Apple one carries ≈ 4 KB of x5c) is not decoded for every batch line.
        if parts.count == 3, parts[2].count >= es256SignatureCharacters { return .whole }
        // An Apple header carries its x5c chain (≈ 4 KB): searched as bytes, not Characters.
        let header = decodeURL(Array(headerText))
        guard ["\"alg\"", "\"typ\"", "\"kid\"", "\"x5c\""].contains(where: { ByteSearch.contains(header, $0) }) || parts.count == 3 else { return nil }
        func cut(_ message: String) -> Reading {
            .cutOff("the token is cut off after \(NumberText.grouped(text.count)) of its characters; " + message)
        }
        switch parts.count {
        case 1:
            return cut("it ends in the header segment after \(NumberText.grouped(headerText.count)) characters; the payload and signature segments are missing")
        case 2:
            let payload = parts[1]
            if payload.isEmpty { return cut("it ends after the header segment; the payload and signature segments are missing") }
            return cut("it ends in the payload segment after \(NumberText.grouped(payload.count)) characters; the signature segment is missing")
        default:
            let signature = parts[2]
            let es256 = ByteSearch.contains(header, "\"ES256\"")
            // `alg: none` has an empty signature by design: not cut off (verification says why it fails).
            let unsigned = ByteSearch.contains(header.filter { $0 != UInt8(ascii: " ") }, "\"alg\":\"none\"")
            if signature.isEmpty && !unsigned {
                let expected = es256 ? " (ES256: \(es256SignatureCharacters) characters)" : ""
                return cut("the signature segment is empty\(expected)")
            }
            if es256 && signature.count < es256SignatureCharacters {
                let missing = es256SignatureCharacters - signature.count
                return cut("the signature segment has \(signature.count) of \(es256SignatureCharacters) characters (ES256: 64 bytes); \(missing) are missing")
            }
            return .whole
        }
    }

    /// Where a cut-off token's finding points: its last character, where the rest is missing.
    static func cutOffRange(_ text: [UInt8]) -> Range<Int> { max(0, text.count - 1)..<text.count }

    /// The text split at its dots, empty segments kept; nil for more than three segments.
    static func segments(_ text: [UInt8]) -> [ArraySlice<UInt8>]? {
        var parts: [ArraySlice<UInt8>] = []
        parts.reserveCapacity(3)
        var start = 0
        while let dot = ByteSearch.firstIndex(of: UInt8(ascii: "."), in: text, from: start) {
            guard parts.count < 2 else { return nil }
            parts.append(text[start..<dot])
            start = dot + 1
        }
        parts.append(text[start...])
        return parts
    }

    /// base64url without padding, as far as it goes (a cut-off header decodes to its first bytes).
    static func decodeURL(_ text: [UInt8]) -> [UInt8] {
        let usable = text.count % 4 == 1 ? Array(text.dropLast()) : text
        if case .success(let decoded) = Base64Text.decode(usable) { return decoded.bytes }
        return []
    }
}
