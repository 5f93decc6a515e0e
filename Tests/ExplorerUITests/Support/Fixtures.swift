import ASN1Lenient
import ReceiptKit
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

    static func state(_ bytes: [UInt8], name: String = "test.der", size: Size = Size(width: 80, height: 24)) -> AppState {
        AppState(load: bytes, fileName: name, screen: size)
    }

    static func sample(size: Size = Size(width: 80, height: 24)) -> AppState {
        AppState(load: EmbeddedSample.bytes, fileName: EmbeddedSample.name, screen: size)
    }

    static let samplesDirectory: String = {
        var url = #filePath
        for _ in 0..<3 { url = String(url[..<url.lastIndex(of: "/")!]) }
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
