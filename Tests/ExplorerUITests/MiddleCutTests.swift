import Testing
@testable import ExplorerUI

/// Tree labels keep what tells rows apart: an id cut in the middle keeps its start and its end.
@Suite struct MiddleCutTests {
    @Test func aQuotedIdKeepsItsHeadAndTail() {
        let label = "attribute 1702 · product id = \"com.example.receiptexplorer.pro_monthly\""
        let cut = Glyphs.unicode.fitAtBoundary(label, 50)
        #expect(cut == "attribute 1702 · product id = \"com.…r.pro_monthly\"")
        #expect(cut.unicodeScalars.count == 50)
        // Two purchases' rows stay different.
        #expect(Glyphs.unicode.fitAtBoundary(label.replacing("pro_monthly", with: "pro_yearly"), 50) != cut)
    }

    @Test func aDottedIdOnItsOwnKeepsItsHeadAndTail() {
        #expect(Glyphs.unicode.fitAtBoundary("com.example.receiptexplorer.monthly", 24) == "com.example…orer.monthly")
        #expect(Glyphs.ascii.fitAtBoundary("com.example.receiptexplorer.monthly", 24) == "com.example~orer.monthly")
    }

    @Test func otherTextIsCutAtTheEndAsBefore() {
        // Words with spaces, or too little room for both ends, keep the end cut at a boundary.
        #expect(Glyphs.unicode.fitAtBoundary("Auto-Renewable Subscription (a subscription)", 20) == "Auto-Renewable …")
        #expect(Glyphs.unicode.fitAtBoundary("\"com.example.app\"", 8) == "\"com.…")
    }
}
