import ASN1Lenient

/// An ECDSA signature in the two encodings that get mixed up. JWS (RFC 7518 §3.4) writes raw
/// r‖s, each a fixed-width big-endian integer (32 bytes for P-256); X.509, CMS and OpenSSL's
/// `ECDSA_do_verify`/`EVP_DigestVerify` use DER `ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }`.
public struct ECDSASignature: Sendable, Equatable {
    public var r: [UInt8]
    public var s: [UInt8]

    /// Splits raw r‖s; nil unless the length is even and nonzero.
    public init?(raw: [UInt8]) {
        guard !raw.isEmpty, raw.count % 2 == 0 else { return nil }
        r = Array(raw[0..<raw.count / 2])
        s = Array(raw[(raw.count / 2)..<raw.count])
    }

    /// Reads DER `ECDSA-Sig-Value` (strictly: definite short or long lengths, nothing after),
    /// widening r and s to `componentLength` bytes; nil if it is not that.
    public init?(der: [UInt8], componentLength: Int = 32) {
        var reader = DERCursor(bytes: der)
        guard let body = reader.read(tag: 0x30), reader.atEnd else { return nil }
        var inner = DERCursor(bytes: Array(body))
        guard let rBytes = inner.read(tag: 0x02), let sBytes = inner.read(tag: 0x02), inner.atEnd,
              let r = Self.widen(Array(rBytes), to: componentLength),
              let s = Self.widen(Array(sBytes), to: componentLength) else { return nil }
        self.r = r
        self.s = s
    }

    /// r‖s as JWS writes it.
    public var raw: [UInt8] { r + s }

    /// The DER `ECDSA-Sig-Value` OpenSSL wants: minimal INTEGERs (leading zeros dropped, one
    /// 0x00 added when the top bit is set, since INTEGER is signed).
    public var der: [UInt8] {
        let body = Self.integer(r) + Self.integer(s)
        return [0x30] + Self.length(body.count) + body
    }

    static func integer(_ magnitude: [UInt8]) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.isEmpty { bytes = [0] }
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return [0x02] + length(bytes.count) + bytes
    }

    static func length(_ n: Int) -> [UInt8] {
        if n < 0x80 { return [UInt8(n)] }
        var octets: [UInt8] = []
        var v = n
        while v > 0 { octets.insert(UInt8(v & 0xFF), at: 0); v >>= 8 }
        return [0x80 | UInt8(octets.count)] + octets
    }

    static func widen(_ integer: [UInt8], to width: Int) -> [UInt8]? {
        let trimmed = Array(integer.drop { $0 == 0 })
        guard trimmed.count <= width else { return nil }
        return Array(repeating: 0, count: width - trimmed.count) + trimmed
    }
}

/// Just enough DER walking for `ECDSA-Sig-Value`; headers are read by the parser's `BERHeader`.
private struct DERCursor {
    let bytes: [UInt8]
    var pos = 0

    var atEnd: Bool { pos == bytes.count }

    /// The content of the element at `pos` when its one-octet identifier is `tag` and its length is
    /// definite, in at most two long-form octets, and inside the bytes.
    mutating func read(tag: UInt8) -> ArraySlice<UInt8>? {
        guard pos < bytes.count, bytes[pos] == tag else { return nil }
        let header = bytes.withUnsafeBufferPointer { BERHeader.read($0, at: pos, limit: $0.count) }
        guard case .success(let h) = header, case .definite(let length, _) = h.length,
              h.contentStart - h.lengthStart <= 3, length <= bytes.count - h.contentStart else { return nil }
        pos = h.contentStart + length
        return bytes[h.contentStart..<pos]
    }
}
