import DocumentCore

/// The tamper lab edits the file's bytes; a byte of a derived layer (a token's decoded header or
/// payload JSON, its signature bytes, an `x5c` certificate's DER, a nested token's characters) is
/// carried down to the file by re-encoding: each base64 group that holds a changed byte is encoded
/// again (3 bytes → 4 characters, base64url for token segments, standard base64 for `x5c`), and
/// the changed characters are the parent's edits, layer by layer down to the file.
enum LabLayerEdit {
    /// The file edits (offset → new byte, only bytes that change) for setting byte `offset` of
    /// `layer` to `value`, or why that byte cannot be edited.
    static func fileEdits(_ document: Document, layer: LayerID, offset: Int, value: UInt8) -> Result<[Int: UInt8], Refusal> {
        guard document.layers.indices.contains(layer.index), document.layer(layer).bytes.indices.contains(offset) else {
            return .failure(Refusal("no byte under the cursor to edit"))
        }
        var id = layer
        var edits = [offset: value]
        while id != .file {
            let current = document.layer(id)
            guard let parent = current.parent, let map = current.map else {
                return .failure(Refusal("this layer's bytes are not carried by the file's: nothing here can be edited"))
            }
            var bytes = current.bytes.array
            for (at, byte) in edits { bytes[at] = byte }
            let parentBytes = document.layer(parent).bytes
            var next: [Int: UInt8] = [:]
            switch map {
            case .segments:
                for (at, byte) in edits { next[map.parentOffset(at)] = byte }
            case .base64, .base64Characters:
                let alphabet = base64Alphabet(for: current.role)
                for group in Set(edits.keys.map { $0 / 3 }) {
                    let characters = encodeGroup(Array(bytes[(group * 3)..<min(bytes.count, group * 3 + 3)]), alphabet: alphabet)
                    for (i, character) in characters.enumerated() {
                        let at = characterOffset(map, group * 4 + i)
                        guard parentBytes.indices.contains(at) else {
                            return .failure(Refusal("the characters that encode this byte are outside the file"))
                        }
                        next[at] = character
                    }
                }
            }
            edits = next.filter { parentBytes[$0.key] != $0.value }
            id = parent
        }
        return .success(edits)
    }

    struct Refusal: Error, Equatable { let reason: String; init(_ reason: String) { self.reason = reason } }

    /// The parent offset of base64 character `index` of a mapped layer.
    static func characterOffset(_ map: OffsetMap, _ index: Int) -> Int {
        switch map {
        case .base64(let textStart): return textStart + index
        case .base64Characters(let offsets): return index < offsets.count ? offsets[index] : -1
        case .segments: return -1
        }
    }

    /// JWS segments are base64url (RFC 7515 §2); `x5c` entries are standard base64 (RFC 7515 §4.1.6).
    static func base64Alphabet(for role: LayerRole) -> [UInt8] {
        if role.usesStandardBase64 { return Base64Groups.standardAlphabet }
        return Base64Groups.standardAlphabet.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 }
    }

    /// One to three bytes as two to four unpadded characters.
    static func encodeGroup(_ bytes: [UInt8], alphabet: [UInt8]) -> [UInt8] {
        let padded = bytes + Array(repeating: 0, count: 3 - bytes.count)
        let v = Int(padded[0]) << 16 | Int(padded[1]) << 8 | Int(padded[2])
        let all = [alphabet[v >> 18 & 63], alphabet[v >> 12 & 63], alphabet[v >> 6 & 63], alphabet[v & 63]]
        return Array(all.prefix(bytes.count + 1))
    }
}
