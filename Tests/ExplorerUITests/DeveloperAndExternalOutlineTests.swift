import ASN1Lenient
import DocumentCore
import Foundation
import ReceiptKit
import Testing
import TestSupport
@testable import ExplorerUI
import TextLoader

/// The explorer's outline for issue 20's new kinds: an external purchase token's JSON fields (with
/// their meanings) and an Advanced Commerce request's decoded JSON under its `request` claim.
@Suite struct DeveloperAndExternalOutlineTests {
    static func state(_ file: String) throws -> AppState {
        let input = try InputLoader.decode(try Paths.sample(file), name: (file as NSString).lastPathComponent)
        return AppState(document: Document.open(input, options: Fixtures.options), screen: GridSize(width: 120, height: 40))
    }

    @Test func externalPurchaseTokenIsAnOutlineOfItsFields() throws {
        let s = try Self.state("external/external-purchase-token-unknown.txt")
        let outline = s.outline
        #expect(outline.rows.map(\.label) == ["external purchase token", "appAppleId", "bundleId", "tokenCreationDate",
                                              "externalPurchaseId", "tokenType", "storefront"])
        let tokenType = try #require(outline.rows.first { $0.label == "tokenType" })
        #expect(tokenType.node.layer == LayerID(1))
        #expect(tokenType.range == 160..<185)
        #expect(tokenType.meaning.contains("introduced in App Store Server Notifications 2.17"))
        let storefront = try #require(outline.rows.first { $0.label == "storefront" })
        #expect(storefront.meaning == "not in Apple's schema: kept as it is")
    }

    @Test func advancedCommerceRequestHangsUnderItsClaim() throws {
        let s = try Self.state("developer/advanced-commerce-request.jws")
        let outline = s.outline
        let labels = outline.rows.map(\.label)
        let request = try #require(labels.firstIndex(of: "request (base64 → JSON)"))
        #expect(labels[request - 1] == "request")
        #expect(Array(labels[(request + 1)...(request + 3)]) == ["operation", "version", "requestInfo"])
        let layer = try #require(s.layered.document.jws?.tokens.first?.layers.request)
        #expect(outline.rows[request].node == NodeID(layer, 0))
        #expect(outline.rows[request].range == 0..<406)
    }
}
