import ASN1Lenient
import DocumentCore
import Foundation
import ReceiptKit
import Testing
import TestSupport
@testable import ExplorerUI
import TextLoader

/// The tour pane for every kind of document: the lesson and its self-check at the top of the
/// detail pane, drawn exactly; a-c answer only a question on screen.
@Suite struct TourPaneTests {
    static func detail(_ s: AppState) throws -> [String] {
        let rect = try #require(s.viewport.detail)
        return PaneRenderTests.pane(GridSize(width: rect.width, height: rect.height)) { DetailPane.draw(s, into: &$0, rect: $1) }
    }

    /// The token tour's first stop as the detail pane draws it (the JWS tour showed no lesson).
    @Test func aTokenStopWithItsSelfCheckExactly() throws {
        var s = try JWSOutlineTests.state("jws/notification.jws", size: GridSize(width: 120, height: 40))
        press(&s, .character("t"))
        #expect(s.status == StatusMessage("tour 1/9: A compact JWS: three base64url parts"))
        #expect(try Self.detail(s).prefix(13) == [
            "Step 1/9: A compact JWS: three base64url parts",
            "node 0 of layer 0: bytes 0-3637 (the content octets)",
            "text: header 3,638 characters; payload 12,126 characters; signature 86",
            "  characters",
            "meaning: header.payload.signature, each base64url (- and _ for + and /)",
            "  without = padding; 4 characters carry 3 bytes",
            "meaning: the signature covers the ASCII text header.payload exactly as",
            "  written in the token",
            "check: The header is 3,638 base64url characters: how many bytes do they",
            "  decode to? [a] 3,638  [b] 4,851  [c] 2,728",
            "n next, p previous, ↑ ↓ scroll, q leaves the tour (t resumes)",
            "",
            "token",
        ])
        press(&s, .character("a"))
        #expect(s.status == StatusMessage("not quite: a character carries 6 bits, not 8: the bytes are fewer than the characters", isError: true))
        // The reply follows the question, wrapped like every lesson line.
        let reply = try Self.detail(s)[10...11].map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(reply == "not quite: a character carries 6 bits, not 8: the bytes are fewer than the characters")
        press(&s, .character("c"))
        #expect(s.status == StatusMessage("right: each character carries 6 bits, so 4 characters carry 3 bytes: 3,638 × 6 / 8 = 2,728 (a last group of 2 or 3 characters carries 1 or 2 bytes)"))
    }

    /// `tour TOKEN`, n n n: each stop's lesson is on screen; a at a stop without a question says so.
    @Test func theTokenTourShowsEveryLessonAndAnswersOnlyAQuestionShown() throws {
        var s = try JWSOutlineTests.state("jws/notification.jws", size: GridSize(width: 120, height: 40))
        press(&s, .character("t"), .character("n"), .character("n"), .character("n"))
        let lines = DetailContent.lines(s, width: 400).map(\.text)
        #expect(lines.prefix(4) == [
            "Step 4/9: The notification's data",
            "node 5 of layer 2: bytes 3759-15705 (the whole element, in file offsets)",
            "text: data holds appAppleId, bundleId, bundleVersion, environment, signedTransactionInfo, signedRenewalInfo, status",
            "meaning: what the notification is about: the app (bundleId, appAppleId), the environment, and the transaction and renewal info as tokens of their own, signed separately",
        ])
        #expect(s.outlineRow?.label == "data")
        press(&s, .character("a"))
        #expect(s.status == StatusMessage("no question at this step: n goes on"))
        #expect(s.teaching.tour?.reply == nil)
        press(&s, .character("n"))
        #expect(DetailContent.lines(s, width: 400).map(\.text).contains("check: How many certificates does the nested token's own x5c carry? [a] 0  [b] 4  [c] 3"))
        press(&s, .character("c"))
        #expect(s.status == StatusMessage("right: its header has its own x5c with 3 certificates: each token can be verified without the one around it"))
    }

    /// A lesson longer than the pane: the question must be scrolled to before a-c answer it.
    @Test func aQuestionBelowThePaneIsScrolledToFirst() throws {
        var s = Fixtures.sample(size: GridSize(width: 100, height: 30))
        press(&s, .character("t"))
        for _ in 0..<16 { press(&s, .character("n")) }
        #expect(s.status == StatusMessage("tour 17/17: The device hash (attribute 5)"))
        let pane = try #require(s.viewport.detail)
        let rows = try #require(TourOverlay.questionRows(s, width: pane.width))
        let height = pane.height
        try #require(rows.upperBound > height, "the question must start below the pane for this test")
        press(&s, .character("c"))
        #expect(s.status == StatusMessage("the question is below: ↓ scrolls the lesson to it"))
        #expect(s.teaching.tour?.reply == nil)
        for _ in 0..<(rows.upperBound - height) { press(&s, .down) }
        #expect(s.detailView.scroll == rows.upperBound - height)
        #expect(try Self.detail(s).contains { $0.hasPrefix("check: With a 16-byte identifierForVendor, how") })
        press(&s, .character("c"))
        #expect(s.status == StatusMessage("right: 16 + 16 + 29: the device identifier, the opaque value and attribute 2's whole value"))
        // The next stop starts at the top of its lesson again.
        press(&s, .character("p"))
        #expect(s.detailView.scroll == 0)
    }

    /// `receipt-explorer FILE --device-id ID`, then t: the explorer's option reaches the device-hash stop.
    @Test func theExplorersDeviceIDReachesTheDeviceHashStop() throws {
        var options = Fixtures.options
        options.deviceID = try DeviceIdentifier.parse("A1B2C3D4-E5F6-4789-9ABC-DEF012345678")
        let input = LoadedInput(bytes: try Paths.sample("typical.receipt"), name: "typical.receipt", encoding: .binary, note: "")
        var s = AppState(document: Document.open(input, options: options), screen: GridSize(width: 120, height: 40))
        press(&s, .character("t"))
        for _ in 0..<16 { press(&s, .character("n")) }
        let lines = DetailContent.lines(s, width: 400).map(\.text)
        #expect(lines.contains("computed: SHA-1(device ‖ opaque value ‖ bundle id) = C5 47 CA EF A1 D4 56 08 71 9B 0F 5B 03 F7 07 20 2C 49 D2 3A"))
        #expect(lines.contains("verdict: it matches attribute 5: this receipt was issued to this device for this app"))
        #expect(lines.contains("check: With this identifierForVendor (16 bytes), how many bytes go into SHA-1? [a] 59  [b] 45  [c] 61"))
    }
}
