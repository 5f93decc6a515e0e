import Testing
import ASN1Lenient
import ReceiptKit
import TestSupport
@testable import ExplorerUI

/// Input that is not a PKCS#7 SignedData is explored as plain ASN.1: no receipt tabs, no
/// findings about what it is not.
@Suite struct NonReceiptInputTests {
    @Test func bareSetHasNoReceiptAndNoFindings() {
        // SET { SEQUENCE { INTEGER 1, INTEGER 2 } }
        let bytes: [UInt8] = [0x31, 0x08, 0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02]
        let state = Fixtures.state(bytes, name: "set.der")
        #expect(!state.hasAdditions)
        #expect(state.tree.diagnostics.isEmpty)
        #expect(state.nodeCount == 4)
    }

    @Test func receiptIsStillReadAsOne() {
        let state = Fixtures.sample()
        #expect(state.hasAdditions)
        #expect(state.additions?.purchases.count == 10)
    }
}
