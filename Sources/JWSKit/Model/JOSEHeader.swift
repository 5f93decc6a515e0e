import ASN1Lenient
import JSONLenient

/// A typed index of a node in one of the document's JSON layers.
public struct JSONNodeIndex: Sendable, Hashable {
    public var index: Int
    public init(_ index: Int) { self.index = index }
}

/// The protected header's fields (decoded from the header JSON layer).
public struct JOSEHeader: Sendable, Equatable {
    /// `alg` as written ("ES256" for Apple and Xcode tokens); nil when absent or not a string.
    public var alg: String?
    public var algNode: JSONNodeIndex?
    public var typ: String?
    public var kid: String?
    public var certificates: [X5CCertificate] = []
}

/// One `x5c` entry: standard base64 DER inside a JSON string of the header, decoded into a DER
/// layer parsed by ASN1Lenient. Leaf first, then the certificates that sign it, in order.
public struct X5CCertificate: Sendable, Equatable {
    public var position: Int
    /// The JSON string node in the header layer.
    public var node: JSONNodeIndex
    /// The base64 text after JSON unescaping (`\/` → `/`).
    public var base64: [UInt8]
    /// Header-JSON offset of each character of `base64` (not linear when `\/` escapes occur).
    public var headerOffsets: [Int]
    /// Header-JSON offset just past the last character (the closing quote), so that a range ending
    /// at an escaped last character covers its whole escape.
    public var headerEnd: Int
    /// DER byte ↔ character of `base64`.
    public var map: Base64Map
    public var der: [UInt8]
    public var tree: Tree

    public static func == (a: X5CCertificate, b: X5CCertificate) -> Bool {
        a.position == b.position && a.node == b.node && a.der == b.der
    }

    /// Header-JSON offset of the first base64 character when the entry has no escapes (the usual
    /// case): then DER ↔ header is plain base64 arithmetic (`OffsetMap.base64(textStart:)`).
    /// Nil when `\/` escapes make it non-linear; use `headerRange(ofBytes:)`.
    public var contiguousTextStart: Int? {
        guard let first = headerOffsets.first, headerOffsets.last == first + headerOffsets.count - 1 else { return nil }
        return first
    }

    /// The header-JSON bytes that encode the DER bytes `range`.
    public func headerRange(ofBytes range: Range<Int>) -> Range<Int> {
        headerRange(ofCharacters: map.characterRange(ofBytes: range))
    }

    /// The header-JSON bytes of the characters `characters` of `base64` (escapes included).
    public func headerRange(ofCharacters characters: Range<Int>) -> Range<Int> {
        Self.headerRange(ofCharacters: characters, offsets: headerOffsets, end: headerEnd)
    }

    /// The one mapping from characters of an unescaped JSON string to the header bytes that hold
    /// them, used for DER ranges and for base64 diagnostics alike. Clamped: never past `end`.
    static func headerRange(ofCharacters characters: Range<Int>, offsets: [Int], end: Int) -> Range<Int> {
        guard !offsets.isEmpty else { return end..<end }
        let lower = min(max(characters.lowerBound, 0), offsets.count)
        let upper = min(max(characters.upperBound, lower), offsets.count)
        let start = lower < offsets.count ? offsets[lower] : end
        let stop = upper < offsets.count ? offsets[upper] : end
        return start..<max(start, stop)
    }
}
