import ASN1Lenient
import ReceiptKit
import Foundation
@testable import ExplorerUI

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

    static func small(size: Size = Size(width: 80, height: 24)) -> AppState {
        var state = AppState(tree: ASN1Parser.parse(smallBytes, options: ParseOptions(guessEncapsulation: false)),
                             fileName: "small.der", screen: size)
        state.expanded.fill(0..<state.tree.count, false)
        state.expanded[0] = true
        state.selection = 0
        state.treeTop = 0
        return state
    }

    /// Deterministic analysis: the samples' TEST root is trusted and "now" is the typical
    /// receipt's creation date, so verdicts, expiration and active subscriptions never drift.
    static let options: AnalysisOptions = {
        var roots: [[UInt8]] = []
        if let root = readFile(samplesDirectory + "/pki/test-root.cer") { roots.append(root) }
        let now = Date(timeIntervalSince1970: 1_709_294_400)  // 2024-03-01T12:00:00Z
        return AnalysisOptions(roots: roots, at: now, now: now)
    }()

    static func state(_ bytes: [UInt8], name: String = "test.der", size: Size = Size(width: 80, height: 24)) -> AppState {
        AppState(load: bytes, fileName: name, options: options, screen: size)
    }

    static func sample(size: Size = Size(width: 80, height: 24)) -> AppState {
        AppState(load: EmbeddedSample.bytes, fileName: EmbeddedSample.name, options: options, screen: size)
    }

    static func sampleState(_ file: String, size: Size = Size(width: 80, height: 24)) -> AppState? {
        guard let bytes = sampleFile(file) else { return nil }
        return state(bytes, name: file, size: size)
    }

    static let samplesDirectory: String = {
        var url = #filePath
        for _ in 0..<4 { url = String(url[..<url.lastIndex(of: "/")!]) }
        return url + "/samples"
    }()

    static func sampleFile(_ name: String) -> [UInt8]? {
        readFile(samplesDirectory + "/" + name)
    }

    static func readFile(_ path: String) -> [UInt8]? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, f)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
