import ASN1Lenient
import DocumentCore
import Foundation
import Testing
import TestSupport
@testable import ExplorerUI
import TextLoader

/// Certificates and SignerInfos named part by part in the tree pane (RFC 5280 / RFC 5652 names from
/// the one schema `dump` and `explain` read), and labels cut at a word or name boundary.
@Suite struct NamedStructureTests {
    static let g3 = Paths.certs.appendingPathComponent("AppleRootCA-G3.cer")
    static let token = Paths.jws.appendingPathComponent("transaction-sandbox-com.app.qysmat-2023-03-27.jws")
    static var g3Available: Bool { FileManager.default.fileExists(atPath: g3.path) }
    static var tokenAvailable: Bool { FileManager.default.fileExists(atPath: token.path) }

    static func open(_ url: URL, size: GridSize) throws -> AppState {
        let input = try InputLoader.decode(try Paths.bytes(url), name: url.lastPathComponent)
        return AppState(document: Document.open(input, options: Fixtures.options), screen: size)
    }

    /// The tree pane's rows as text (the pane's own columns only).
    static func treeRows(_ s: AppState, size: GridSize) throws -> [String] {
        let rect = try #require(Layout(size: size, state: s).tree)
        let lines = render(s, size: size).text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.unicodeScalars) }
        return (rect.y..<(rect.y + rect.height)).map { y in
            let line = lines[y]
            let end = min(line.count, rect.x + rect.width)
            return rect.x < end ? String(String.UnicodeScalarView(line[rect.x..<end])) : ""
        }
    }

    /// The narrowest tree pane any screen gets (ExplorerUI's geometry, every width from the minimum
    /// up, hex pane shown or not) and the screen size that gives it.
    static func narrowestTree(byteCount: Int) -> (size: GridSize, width: Int) {
        var best = (size: Layout.minimum, width: Int.max)
        for width in Layout.minimum.width...300 {
            for hex in [true, false] {
                let size = GridSize(width: width, height: 40)
                let layout = Layout(size: size, mode: .tree, hexVisible: hex, byteCount: byteCount, base: .hex)
                if let tree = layout.tree, tree.width < best.width, hex { best = (size, tree.width) }
            }
        }
        return best
    }

    @Test(.enabled(if: g3Available)) func aCorpusCertificateIsNamedPartByPart() throws {
        let size = GridSize(width: 120, height: 40)
        let s = try Self.open(Self.g3, size: size)
        let rows = try Self.treeRows(s, size: size)
        #expect(rows[0] == "  ▾ SEQUENCE (579)  Certificate: Apple Root …")
        #expect(rows[1] == "    ▾ SEQUENCE (457)  tbsCertificate         ")
        #expect(rows[3] == "          INTEGER (1)  Version: v3           ")
        #expect(rows[5] == "      ▾ SEQUENCE (10)  signature: ecdsa-…    ")
        #expect(rows[8] == "        ▸ SET (27)  CN=Apple Root CA - G3    ")
        #expect(rows[20] == "      ▾ SEQUENCE (118)  EC P-384             ")
        #expect(rows[28] == "      ▾ SEQUENCE (101)  ECDSA-Sig-Value      ")
        Snapshot.assert(render(s, size: size), named: "cert-g3-named-120x40")
    }

    @Test(.enabled(if: tokenAvailable)) func anX5cLeafIsNamedPartByPart() throws {
        let size = GridSize(width: 120, height: 40)
        var s = try Self.open(Self.token, size: size)
        let leaf = try JWSNavigationTests.token(s).layers.certificates[0]
        // The leaf's subjectPublicKeyInfo, opened: its algorithm (curve) and key.
        let spki = try #require(s.outline.row(of: NodeID(leaf, 44)))
        s.selectOutlineRow(spki)
        press(&s, .right)
        let rows = try Self.treeRows(s, size: size)
        #expect(rows[5] == "          ▾ SEQUENCE (1072)  Certificate: …  ")
        #expect(rows[12] == "              ▸ SEQUENCE (146)  subject: CN=…")
        #expect(rows[13] == "              ▾ SEQUENCE (89)  EC P-256      ")
        #expect(rows[15] == "                  BIT STRING (66)  P-256 …   ")
        #expect(rows[17] == "            ▸ SEQUENCE (10)  ecdsa-with-…    ")
        let detail = DetailContent.lines(s, width: 70).map(\.text)
        #expect(detail.contains("name             subjectPublicKeyInfo: EC P-256"))
        Snapshot.assert(render(s, size: size), named: "jws-x5c-leaf-named-120x40")
    }

    @Test func aCutNameEndsAtABoundary() {
        let g = Glyphs.unicode
        let text = "1.2.840.10045.4.3.3 ecdsa-with-SHA384"
        var shown: [String] = []
        for width in 1...text.count {
            let cut = g.fitAtBoundary(text, width)
            #expect(cut.unicodeScalars.count <= width)
            #expect(!cut.contains("SHA3…"))
            shown.append(cut)
        }
        #expect(shown[36 - 1] == "1.2.840.10045.4.3.3 ecdsa-with-…")
        #expect(shown[20 - 1] == "1.2.840.10045.4.3.3…")  // a number may be cut anywhere: it is data
        #expect(shown[31 - 1] == "1.2.840.10045.4.3.3 ecdsa-…")
        #expect(shown[22 - 1] == "1.2.840.10045.4.3.3 …")
        #expect(shown[37 - 1] == text)
        // A hex value is data, not a name: cut where it must be.
        #expect(g.fitAtBoundary("0498E92F3D4072A4ED93", 9) == "0498E92F…")
        // A name with no boundary at all is left out rather than shown in part.
        #expect(g.fitAtBoundary("sha256WithRSAEncryption", 10) == "…")
        #expect(Glyphs.ascii.fitAtBoundary("signature: ecdsa-with-SHA384", 16) == "signature: ~")
    }

    @Test(.enabled(if: g3Available)) func theNarrowestTreePaneCutsLabelsAtBoundaries() throws {
        let narrowest = Self.narrowestTree(byteCount: 583)
        #expect(narrowest.width == 36)
        #expect(narrowest.size == GridSize(width: 111, height: 40))
        var s = try Self.open(Self.g3, size: narrowest.size)
        // Open the signature AlgorithmIdentifier: its OID row is the longest name on screen.
        press(&s, .down, .down, .down, .down, .down, .down, .right)
        let rows = try Self.treeRows(s, size: narrowest.size)
        #expect(rows[5] == "      ▾ SEQUENCE (10)  signature: … ")
        #expect(rows[8] == "        ▸ SET (27)  CN=Apple Root … ")
        #expect(rows[25] == "    ▾ SEQUENCE (10)  ecdsa-with-…   ")
        Self.expectBoundaryCuts(rows)
        Snapshot.assert(render(s, size: narrowest.size), named: "cert-g3-narrowest-tree")
    }

    @Test(.enabled(if: tokenAvailable)) func theNarrowestX5cTreeNeverShowsAPartialName() throws {
        var s = try Self.open(Self.token, size: GridSize(width: 120, height: 40))
        let size = Self.narrowestTree(byteCount: s.tree.bytes.count).size
        s = try Self.open(Self.token, size: size)
        let leaf = try JWSNavigationTests.token(s).layers.certificates[0]
        // tbsCertificate's signature AlgorithmIdentifier (ecdsa-with-SHA384), opened.
        s.selectOutlineRow(try #require(s.outline.row(of: NodeID(leaf, 5))))
        press(&s, .right)
        let rows = try Self.treeRows(s, size: size)
        #expect(rows[9] == "              ▾ SEQUENCE (10)  …    ")
        #expect(rows[16] == "            ▸ SEQUENCE (10)  ecdsa-…")
        Self.expectBoundaryCuts(rows)
    }

    /// No row shows a partial name: each cut ends after a space or separator, or inside a value
    /// (digits, or a run too long to be a name), and "ecdsa-with-SHA3…" never appears.
    static func expectBoundaryCuts(_ rows: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for row in rows {
            #expect(!row.contains("SHA3…"), sourceLocation: sourceLocation)
            let scalars = Array(row.trimmingCharacters(in: .whitespaces).unicodeScalars)
            guard scalars.last == "…", scalars.count >= 2 else { continue }
            let before = scalars[scalars.count - 2]
            let word = String(String.UnicodeScalarView(scalars.dropLast().reversed().prefix { !" -._:,/=(·".unicodeScalars.contains($0) }.reversed()))
            let value = word.unicodeScalars.allSatisfy { $0.properties.isASCIIHexDigit || $0 == "x" } || word.unicodeScalars.count >= 20
            #expect(" -._:,/=(·".unicodeScalars.contains(before) || value, "cut inside a name: \(row)", sourceLocation: sourceLocation)
        }
    }
}
