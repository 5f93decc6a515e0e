/// A tiny DER builder for hand-made test inputs, shared by every test target.
public enum DER {
    /// Definite length octets, short form below 128, minimal long form above.
    public static func length(_ n: Int) -> [UInt8] {
        if n < 0x80 { return [UInt8(n)] }
        var bytes: [UInt8] = []
        var v = n
        while v > 0 { bytes.insert(UInt8(v & 0xFF), at: 0); v >>= 8 }
        return [0x80 | UInt8(bytes.count)] + bytes
    }
    public static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag] + length(content.count) + content }
    public static func seq(_ parts: [UInt8]...) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }
    public static func set(_ parts: [UInt8]...) -> [UInt8] { tlv(0x31, parts.flatMap { $0 }) }
    public static func int(_ v: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var x = v
        repeat { bytes.insert(UInt8(x & 0xFF), at: 0); x >>= 8 } while x > 0
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tlv(0x02, bytes)
    }
    public static func utf8(_ s: String) -> [UInt8] { tlv(0x0C, Array(s.utf8)) }
    public static func ia5(_ s: String) -> [UInt8] { tlv(0x16, Array(s.utf8)) }
    public static func octets(_ b: [UInt8]) -> [UInt8] { tlv(0x04, b) }
    public static func oid(_ b: [UInt8]) -> [UInt8] { tlv(0x06, b) }
    public static let null: [UInt8] = [0x05, 0x00]

    /// Bytes from hex text; anything that is not a hex digit (spaces, line breaks) is ignored.
    public static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.filter(\.isHexDigit))
        precondition(digits.count % 2 == 0, "odd number of hex digits")
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    /// A SignedData ContentInfo around a receipt payload, without certificates or signer infos
    /// (for decoding only).
    public static func unsignedReceipt(payload: [UInt8]) -> [UInt8] {
        let eci = seq(oid(hex("2A 86 48 86 F7 0D 01 07 01")), tlv(0xA0, octets(payload)))
        return seq(oid(hex("2A 86 48 86 F7 0D 01 07 02")), tlv(0xA0, seq(int(1), set(), eci, set())))
    }

    /// An unsigned receipt of bundle "com.example.bulk" and `purchases` purchases, the i-th of
    /// product "com.example.bulk.coins" and transaction id 1000000000000000 + i: 90 bytes a purchase.
    public static func bulkReceipt(purchases: Int) -> [UInt8] {
        func attribute(_ type: Int, _ value: [UInt8]) -> [UInt8] { seq(int(type), int(1), octets(value)) }
        var content = attribute(2, utf8("com.example.bulk")) + attribute(3, utf8("1.0"))
        content.reserveCapacity(content.count + purchases * 90)
        for i in 0..<purchases {
            let fields = attribute(1701, int(1)) + attribute(1702, utf8("com.example.bulk.coins"))
                + attribute(1703, utf8(String(1_000_000_000_000_000 + i)))
            content += attribute(17, tlv(0x31, fields))
        }
        return unsignedReceipt(payload: tlv(0x31, content))
    }

    /// A SET of `count` SEQUENCE { INTEGER i, INTEGER i*2 }: 1 + 3·count nodes.
    public static func wideSet(count: Int) -> [UInt8] {
        var content: [UInt8] = []
        content.reserveCapacity(count * 12)
        for i in 0..<count {
            let pair = int(i & 0x7FFF) + int((i * 2) & 0x7FFF)
            content += [0x30] + length(pair.count) + pair
        }
        return [0x31] + length(content.count) + content
    }
}
