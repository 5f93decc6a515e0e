import ASN1Lenient
import DocumentModel
import ReceiptKit
import Foundation
import Testing
import TestSupport
@testable import ExplorerUI
import TextLoader

/// The explorer asks the document's format which views it adds (issue 19, item 3) instead of
/// testing which kind the document is: StoreKit tokens, JSON bodies, certificates and other DER
/// are shown as the layer outline; receipts keep the node tree until their views move onto it.
@Suite struct ExplorerViewsTests {
    static func open(_ file: String) throws -> Document {
        Document.open(try InputLoader.decode(try Paths.sample(file), name: (file as NSString).lastPathComponent),
                      options: AnalysisOptions(validate: false))
    }

    @Test(arguments: [("jws/transaction.jws", true), ("jws/notification.jws", true), ("jws/transaction-history.json", true),
                      ("pki/test-root.pem", true), ("pki/test-storekit.cer", true),
                      ("typical.receipt", false), ("typical.b64", false), ("xcode-ber.receipt", false), ("malformed-truncated.receipt", false)])
    func theFormatSaysWhetherTheOutlineIsShown(file: String, outline: Bool) throws {
        let document = try Self.open(file)
        #expect(document.explorerViews == (outline ? .layerOutline : []))
        #expect((AppState(document: document).layered != nil) == outline)
    }
}
