import Testing
@testable import ASN1Lenient

/// `Tree.forEachTextPiece`: a string node's text in pieces that put together are exactly what
/// `value(of:)` decodes whole, wherever a piece boundary falls (issue 32: `dump --format json` of
/// a 37 MB string must not hold it whole).
@Suite struct TextPieceTests {
    /// The tree of one primitive universal node with `content`.
    static func tree(tag: UInt8, _ content: [UInt8]) -> Tree {
        ASN1Parser.parse(TestElement.primitive(tag: tag, content: content).encoded)
    }

    static func joined(_ tree: Tree, pieceBytes: Int) -> (text: String, pieces: Int, lossy: Bool?) {
        var text = "", pieces = 0
        let lossy = tree.forEachTextPiece(of: 0, pieceBytes: pieceBytes) { text += $0; pieces += 1 }
        return (text, pieces, lossy)
    }

    /// Content mixing what each decoding finds hard at a boundary: multi-byte UTF-8, stray
    /// continuation bytes, truncated sequences, surrogate pairs and lone surrogates in UTF-16,
    /// invalid UTF-32 scalars, bytes ≥ 0x80 in the one-octet alphabets.
    static func content(seed: UInt64, count: Int) -> [UInt8] {
        var state = seed
        let fragments: [[UInt8]] = [
            Array("plain ascii ".utf8), Array("é".utf8), Array("€".utf8), Array("𝄞".utf8), [0x80], [0xBF, 0xBF, 0xBF, 0xBF],
            [0xE2, 0x82], [0xF0, 0x9D], [0xC3], [0xD8, 0x34, 0xDD, 0x1E], [0xD8, 0x00], [0xDC, 0x00], [0x00, 0x00, 0x00, 0x41],
            [0x00, 0x11, 0x00, 0x00], [0xFF], [0x22, 0x5C, 0x0A, 0x1B], [0x00, 0xAD], [0xAD],
        ]
        var bytes: [UInt8] = []
        while bytes.count < count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            bytes += fragments[Int(state >> 33) % fragments.count]
        }
        return Array(bytes.prefix(count))
    }

    @Test(arguments: [12, 18, 19, 20, 21, 22, 25, 26, 27, 28, 30] as [UInt8])
    func piecesPutTogetherAreTheWholeValue(_ tag: UInt8) throws {
        for seed in 1...40 as ClosedRange<UInt64> {
            let bytes = Self.content(seed: seed, count: 300 + Int(seed) * 7)
            let tree = Self.tree(tag: tag, bytes)
            guard case .string(let whole, let wholeLossy) = try #require(tree.value(of: 0)) else {
                Issue.record("tag \(tag): not a string value")
                return
            }
            for pieceBytes in [16, 17, 18, 19, 33, 64, 1 << 16] {
                let (text, pieces, lossy) = Self.joined(tree, pieceBytes: pieceBytes)
                #expect(text == whole, "tag \(tag), seed \(seed), pieces of \(pieceBytes)")
                #expect(lossy == wholeLossy, "tag \(tag), seed \(seed)")
                if pieceBytes == 1 << 16 { #expect(pieces == 1) } else { #expect(pieces >= bytes.count / (pieceBytes + 1)) }
            }
        }
    }

    @Test func aPieceOfUTF8NeverEndsInsideACharacter() {
        // "é" (C3 A9) straddles byte 16: the first piece stops before C3.
        let bytes = Array(String(repeating: "a", count: 15).utf8) + Array("é".utf8) + Array("bc".utf8)
        var pieces: [String] = []
        _ = Self.tree(tag: 12, bytes).forEachTextPiece(of: 0, pieceBytes: 16) { pieces.append($0) }
        #expect(pieces == [String(repeating: "a", count: 15), "ébc"])
    }

    @Test func aPieceOfBMPStringNeverSplitsASurrogatePair() {
        // Seven "A" units, then U+1D11E as D834 DD1E at units 7-8: bytes 14-17 straddle byte 16.
        let sevenA: [UInt8] = Array(repeating: [0x00, 0x41] as [UInt8], count: 7).flatMap { $0 }
        let bytes = sevenA + [0xD8, 0x34, 0xDD, 0x1E, 0x00, 0x42]
        var pieces: [String] = []
        let lossy = Self.tree(tag: 30, bytes).forEachTextPiece(of: 0, pieceBytes: 16) { pieces.append($0) }
        #expect(pieces == ["AAAAAAA", "𝄞B"])
        #expect(lossy == false)
    }

    @Test func notAStringHasNoPieces() {
        var called = false
        #expect(Self.tree(tag: 4, [1, 2, 3]).forEachTextPiece(of: 0) { _ in called = true } == nil)
        #expect(!called)
    }

    @Test func latin1IsEveryByteAsItsOwnScalar() {
        let tree = Self.tree(tag: 21, Array(0...255))
        #expect(tree.value(of: 0) == .string(String(String.UnicodeScalarView((0...255).map { Unicode.Scalar(UInt8($0)) })), lossy: true))
        #expect(Self.tree(tag: 20, [0xE9]).value(of: 0) == .string("é", lossy: false))  // TeletexString: never lossy
    }
}
