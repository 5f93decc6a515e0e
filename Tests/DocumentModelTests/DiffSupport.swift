import ASN1Lenient
import DocumentCore
import Foundation
import ReceiptKit
import TestSupport
import TextLoader

/// Opening diff inputs and reading `diff_pairs` from samples/manifest.json.
enum DiffFixtures {
    static func open(_ url: URL) throws -> Document {
        Document.open(try InputLoader.load(path: url.path), options: AnalysisOptions(validate: false))
    }

    static func open(diff name: String) throws -> Document {
        try open(Paths.samples.appendingPathComponent("diff").appendingPathComponent(name))
    }

    static func open(bytes: [UInt8], name: String = "mutated") -> Document {
        Document.open(LoadedInput(bytes: bytes, name: name, encoding: .binary, note: "test bytes"),
                      options: AnalysisOptions(validate: false))
    }

    static func pairs() throws -> [[String: Any]] {
        let data = try Data(contentsOf: Paths.samples.appendingPathComponent("manifest.json"))
        let manifest = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return manifest?["diff_pairs"] as? [[String: Any]] ?? []
    }

    static func pair(_ a: String, _ b: String) throws -> [String: Any] {
        try pairs().first { $0["a"] as? String == a && $0["b"] as? String == b } ?? [:]
    }

    static func range(_ value: Any?) -> Range<Int>? {
        guard let bounds = value as? [Int], bounds.count == 2 else { return nil }
        return bounds[0]..<bounds[1]
    }
}
