import Foundation
import DocumentCore
import DocumentFormats
import Testing
import TestSupport
import ASN1Lenient
@testable import ReceiptKit

@Suite struct RobustnessTests {
    /// Mutated receipts (flipped bytes, cuts, insertions, length bytes bumped) never crash the
    /// analysis, the JSON or the report, and everything they point at is inside the input.
    @Test func mutationsNeverCrash() throws {
        var bases: [[UInt8]] = [container(payload: minimalPayload([
            attribute(17, DER.tlv(0x31, attribute(1702, DER.utf8("p")) + attribute(1703, DER.utf8("t")) + attribute(1704, DER.ia5("2024-01-01T00:00:00Z")))),
        ]))]
        if Paths.corpusAvailable {
            bases.append(try Paths.corpusReceipt("production-net.shinyfrog.bear-2019-09-26-1iap.receipt"))
            bases.append(try Paths.corpusReceipt("xcode-net.zachariadis.cyclemaps-2020-07-22-1iap.receipt"))
        }
        bases.append(try Paths.sample("typical.receipt"))
        var rng = SplitMix64(state: 0x5EED)
        for (b, base) in bases.enumerated() {
            for round in 0..<150 {
                var bytes = base
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    guard !bytes.isEmpty else { break }
                    let at = Int.random(in: 0..<bytes.count, using: &rng)
                    switch Int.random(in: 0..<5, using: &rng) {
                    case 0: bytes[at] = UInt8.random(in: 0...255, using: &rng)
                    case 1: bytes.removeSubrange(at...)
                    case 2: bytes.insert(contentsOf: (0..<Int.random(in: 1...8, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }, at: at)
                    case 3: bytes[at] = bytes[at] &+ 1
                    default: bytes[at] = [0x80, 0x00, 0xFF, 0x30, 0x31, 0x04][Int.random(in: 0..<6, using: &rng)]
                    }
                }
                let validate = round % 25 == 0
                let a = ReceiptAnalyzer.analyze(bytes: bytes, options: AnalysisOptions(validate: validate))
                for d in a.allDiagnostics {
                    #expect(d.offset >= 0 && d.offset + d.length <= bytes.count, "base \(b) round \(round): \(d.code) \(d.offset)+\(d.length)")
                    if let n = d.node?.index { #expect(n >= 0 && n < a.tree.count) }
                }
                if let r = a.receipt {
                    let t = a.receiptTree
                    for f in r.fields + r.inApp.flatMap(\.fields) {
                        #expect(f.valueRange.upperBound <= t.bytes.count)
                        #expect(a.location(of: f.attributeNode).map { r.field(at: $0) == f } ?? false)
                    }
                }
                let json = ReceiptJSON.text(a)
                #expect((try? JSONSerialization.jsonObject(with: Data(json.utf8))) != nil, "base \(b) round \(round): invalid JSON")
                _ = VerifyReport.text(a, inputName: "mutant")
            }
        }
    }
}
