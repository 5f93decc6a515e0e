@testable import ASN1Lenient
import DocumentCore
import ReceiptKit
import Testing
import TestSupport
import TextLoader

/// A format can take the probe's tree instead of sharing it (`FormatProbe.takeASN1`): a receipt
/// whose payload must be parsed again on purpose then lets the first tree go before the second
/// parse, so a large receipt holds one tree at a time, not two (issue 32).
@Suite struct ProbeHandoverTests {
    @Test func theProbeKeepsNoReferenceToATreeItHandsOver() throws {
        let input = try InputLoader.load(path: Paths.samples.appendingPathComponent("typical.receipt").path)
        let probe = FormatProbe(input, options: AnalysisOptions(validate: false))
        #expect(probe.isSignedData)
        weak var storage: NodeStorage?
        var count = 0
        do {
            let tree = probe.takeASN1()
            storage = tree.nodes.storage
            count = tree.count
        }
        #expect(storage == nil, "nothing else holds the tree's nodes once the taker lets them go")
        // Asked again, the probe parses again: the same tree.
        #expect(count > 100 && probe.asn1.count == count && probe.asn1.nodes == ASN1Parser.parse(input.bytes).nodes)
    }
}
