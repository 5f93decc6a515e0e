/// The one base64 writer (RFC 4648): standard with padding (§4) for the clipboard, base64url without
/// padding (§5) for the JWS segments this tool signs.
public enum Base64Text {
    static let standard = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    static let url = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Standard base64 with `=` padding.
    public static func encode(_ bytes: [UInt8]) -> [UInt8] { encode(bytes, alphabet: standard, pad: true) }

    /// base64url without padding, as JWS writes its segments.
    public static func encodeURL(_ bytes: [UInt8]) -> String {
        String(decoding: encode(bytes, alphabet: url, pad: false), as: UTF8.self)
    }

    static func encode(_ bytes: [UInt8], alphabet: [UInt8], pad: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 2 < bytes.count {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [alphabet[Int(v >> 18)], alphabet[Int(v >> 12 & 63)], alphabet[Int(v >> 6 & 63)], alphabet[Int(v & 63)]]
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let v = UInt32(bytes[i]) << 16
            out += [alphabet[Int(v >> 18)], alphabet[Int(v >> 12 & 63)]]
            if pad { out += [0x3D, 0x3D] }
        } else if rest == 2 {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [alphabet[Int(v >> 18)], alphabet[Int(v >> 12 & 63)], alphabet[Int(v >> 6 & 63)]]
            if pad { out.append(0x3D) }
        }
        return out
    }
}
