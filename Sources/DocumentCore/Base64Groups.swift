import ASN1Lenient
import ByteText
import TextOutput

/// How a layer decoded from base64 text maps onto its parent's characters, group by group (4
/// characters, 3 bytes), as `explain` and the explorer's detail pane print it. For every layer the
/// loader or a format decoded from base64 (a token's segments, an x5c certificate, base64 JSON).
public enum Base64Groups {
    /// base64url (token segments).
    public static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The standard base64 alphabet (x5c entries), beside `urlAlphabet`.
    public static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// One group of base64 characters and the bytes it makes, as `explain` prints it:
    /// `characters 12-15 "eyJh" = 6-bit values 30 34 9 33 → payload bytes 9-11: 7b 22 61 "{"a"`.
    /// `positions` are the group's characters in `text` (up to 4; not contiguous when a JSON
    /// escape sits between them), `bytes` the group's bytes in `decoded` (up to 3).
    public static func group(text: ByteWindow, positions: [Int], alphabet: [UInt8], into role: String, bytes: Range<Int>,
                             decoded: ByteWindow, asText: Bool) -> String {
        let characters = positions.map { text[$0] }
        let sextets = characters.map { ch in alphabet.firstIndex(of: ch).map { String($0) } ?? "?" }
        let span = positions.first.map { $0..<(positions[positions.count - 1] + 1) } ?? 0..<0
        let values = bytes.clamped(to: 0..<decoded.count).map { decoded[$0] }
        // Quoted with inner quotes escaped: a group of `"ve` must not read as `""ve"`.
        return "characters \(RangeText.span(span)) \(TerminalSafe.quoted(String(decoding: characters, as: UTF8.self))) = 6-bit values \(sextets.joined(separator: " "))"
            + " → \(role) bytes \(RangeText.span(bytes)): \(Hex.string(values, .lower, separator: " "))"
            + (asText ? " " + TerminalSafe.quoted(String(decoding: values, as: UTF8.self)) : "")
    }

    /// The groups of a layer decoded from base64 text in its parent (a token's header, payload or
    /// signature; an x5c certificate) that carry `range` of it, as `group` lines; nil for a layer
    /// not decoded from base64. At most `limit` groups, then "… N more groups".
    public static func groups(of range: Range<Int>, in layer: ByteLayer, parent: ByteLayer, limit: Int) -> [String]? {
        let charactersOf: (Int) -> [Int]
        switch layer.map {
        case .base64(let textStart)?:
            let end = textStart + (layer.bytes.count * 8 + 5) / 6
            charactersOf = { g in Array((textStart + 4 * g)..<min(end, textStart + 4 * g + 4)) }
        case .base64Characters(let offsets)?:
            charactersOf = { g in Array(offsets[min(offsets.count, 4 * g)..<min(offsets.count, 4 * g + 4)]) }
        default:
            return nil
        }
        let role: String, alphabet: [UInt8], asText: Bool
        switch layer.role {
        case .x5cCertificate: (role, alphabet, asText) = ("DER", standardAlphabet, false)
        case .jwsSignature: (role, alphabet, asText) = ("signature", urlAlphabet, false)
        case .decodedJSON(let urlSafe): (role, alphabet, asText) = ("JSON", urlSafe ? urlAlphabet : standardAlphabet, true)
        case .jwsHeader: (role, alphabet, asText) = ("header", urlAlphabet, true)
        default: (role, alphabet, asText) = ("payload", urlAlphabet, true)
        }
        guard !layer.bytes.isEmpty else { return [] }
        let first = min(range.lowerBound, layer.bytes.count - 1) / 3
        let last = max(first, (min(range.upperBound, layer.bytes.count) - 1) / 3)
        var lines: [String] = []
        for g in first...min(last, first + limit - 1) {
            let positions = charactersOf(g).filter { $0 < parent.bytes.count }
            lines.append(group(text: parent.bytes, positions: positions, alphabet: alphabet, into: role,
                               bytes: (3 * g)..<min(layer.bytes.count, 3 * g + 3), decoded: layer.bytes, asText: asText))
        }
        if last - first + 1 > limit { lines.append("… \(last - first + 1 - limit) more groups") }
        return lines
    }
}
