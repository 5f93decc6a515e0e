import ASN1Lenient
import DocumentCore
import Foundation
import ReceiptKit
import TestSupport
@testable import ExplorerUI
import TextLoader

enum Fixtures {
    /// A small hand-built tree with a known shape (indices in pre-order):
    /// 0 SEQUENCE
    ///   1 INTEGER 1
    ///   2 SET
    ///     3 SEQUENCE
    ///       4 UTF8String "alpha"
    ///       5 INTEGER 5
    ///     6 SEQUENCE
    ///       7 IA5String "beta"
    ///   8 OCTET STRING 01 02 03
    static let smallBytes: [UInt8] = DER.seq(
        DER.int(1),
        DER.set(DER.seq(DER.utf8("alpha"), DER.int(5)), DER.seq(DER.ia5("beta"))),
        DER.octets([1, 2, 3]))

    static func small(size: GridSize = GridSize(width: 80, height: 24)) -> AppState {
        var state = Fixtures.state(smallBytes, name: "small.der", size: size)
        state.outlineView.expanded.fill(0..<state.tree.count, false)
        state.outlineView.expanded[0] = true
        state.outlineView.selection = 0
        state.outlineView.top = 0
        return state
    }

    /// Deterministic analysis: the samples' TEST root is trusted and "now" is the typical
    /// receipt's creation date, so verdicts, expiration and active subscriptions never drift.
    static let options: AnalysisOptions = {
        var roots: [[UInt8]] = []
        if let root = try? Paths.sample("pki/test-root.cer") { roots.append(root) }
        let now = Date(timeIntervalSince1970: 1_709_294_400)  // 2024-03-01T12:00:00Z
        return AnalysisOptions(roots: roots, at: now, now: now)
    }()

    /// The state the explore command builds: one `Document.open`, then `AppState(document:)`.
    static func state(_ bytes: [UInt8], name: String = "test.der", size: GridSize = GridSize(width: 80, height: 24)) -> AppState {
        let input = LoadedInput(bytes: bytes, name: name, encoding: .binary, note: "")
        return AppState(document: Document.open(input, options: options), screen: size)
    }

    /// samples/typical.receipt (the bytes the tool embeds as its demo; samples/ is committed, so a
    /// missing file is a failure, never a skip).
    static func sample(size: GridSize = GridSize(width: 80, height: 24)) -> AppState {
        state(try! Paths.sample("typical.receipt"), name: "typical.receipt", size: size)
    }

    /// A sample's state, nil when the file is missing: callers `#require` it, so a missing sample
    /// fails the test instead of passing it.
    static func sampleState(_ file: String, size: GridSize = GridSize(width: 80, height: 24)) -> AppState? {
        (try? Paths.sample(file)).map { state($0, name: file, size: size) }
    }

    static func readFile(_ path: String) -> [UInt8]? { try? Paths.bytes(URL(fileURLWithPath: path)) }
}
