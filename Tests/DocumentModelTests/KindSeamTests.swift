import ByteText
import ASN1Lenient
@testable import DocumentCore
@testable import DocumentRedact
@testable import DocumentFormats
import Foundation
import ReceiptKit
import Testing
import TestSupport
import TextLoader

/// Issue 19's and 30's seam: outside its folder under `Formats/`, no code names a kind's own type
/// (its model, its sides of diff and timeline, its outputs) or a `DocumentKind` case; what the
/// features, the explorer and the commands need of a kind is its format's answer. Checked on the
/// sources by type (`KindSeamScan`, names read from the kinds' folders), and each hook on real samples.
@Suite struct KindSeamTests {
    @Test("no code outside a kind's folder names its types or a DocumentKind case")
    func noKindNamedOutsideItsFolder() throws {
        let uses = try KindSeamScan.usesOutsideFolders()
        #expect(uses.isEmpty, "ask the document's format instead: \(uses.map(\.description).joined(separator: "; "))")
    }

    @Test("the names come from the kinds' folders: their models, their sides, the kinds' cases")
    func theNamesComeFromTheFolders() throws {
        let files = try KindSeamScan.sourceFiles()
        let types = try KindSeamScan.kindTypes(files)
        #expect(types["ReceiptAnalysis"] == "Sources/DocumentFormats/AppReceipt")
        #expect(types["JWSModel"] == "Sources/DocumentFormats/StoreKitToken")
        #expect(types["ExternalPurchaseModel"] == "Sources/DocumentFormats/ExternalPurchaseToken")
        #expect(types["ReceiptSide"] == "Sources/DocumentFormats/AppReceipt" && types["StoreKitSide"] != nil)
        // A format type is what the registry lists: not a model.
        #expect(types["AppReceiptFormat"] == nil && types["StoreKitTokenFormat"] == nil)
        let cases = try KindSeamScan.kindCases(files)
        #expect(cases.count == 20 && cases.first == "receipt" && cases.contains("externalPurchaseToken") && cases.last == "offerSignatureV1")
    }

    @Test("the scan sees a model type, a compared case and a case in a switch over a kind, not other enums' cases")
    func theScanSeesUses() throws {
        let text = """
            let side = ReceiptSide(document) // ReceiptSide in a comment is not a use
            let name = "JWSModel"
            if document.kind == .receipt { }
            switch document.kind {
            case .transaction: break
            default: break
            }
            switch layer.content {
            case .asn1: break
            }
            """
        let uses = try KindSeamScan.uses(in: text, file: "F.swift", types: ["ReceiptSide": "Formats/AppReceipt", "JWSModel": "Formats/StoreKitToken"],
                                         cases: ["receipt", "transaction", "asn1"])
        #expect(uses.map(\.description) == ["F.swift:1 names ReceiptSide (AppReceipt)", "F.swift:3 names .receipt (DocumentKind)",
                                            "F.swift:5 names .transaction (DocumentKind)"])
    }

    static func open(_ name: String) throws -> Document {
        Document.open(try InputLoader.load(path: Paths.samples.appendingPathComponent(name).path), options: AnalysisOptions())
    }

    /// typical.receipt's entry in samples/manifest.json.
    static func typicalFacts() throws -> [String: Any] {
        let data = try Data(contentsOf: Paths.samples.appendingPathComponent("manifest.json"))
        func find(_ value: Any) -> [String: Any]? {
            if let object = value as? [String: Any] {
                if object["file"] as? String == "typical.receipt" { return object }
                return object.values.lazy.compactMap(find).first
            }
            return (value as? [Any])?.lazy.compactMap(find).first
        }
        return try #require(find(try JSONSerialization.jsonObject(with: data)))
    }

    // MARK: - redactionParts

    @Test("a receipt gives its attributes' values, its string attributes and the PKCS#7 signature over the payload")
    func receiptRedactionParts() throws {
        let document = try Self.open("typical.receipt")
        let parts = document.redactionParts(fields: [.transactionID])
        let purchases = try #require((try Self.typicalFacts()["receipt"] as? [String: Any])?["purchases"] as? [[String: Any]])
        let ids = purchases.compactMap { $0["transaction_id"] as? String }
        #expect(ids.count == 10)
        let targets = targets(parts)
        #expect(targets.map { $0.original(in: document.layer($0.layer).bytes) }.sorted() == ids.map(RedactedValue.text).sorted())
        for target in targets {
            #expect(target.field == .transactionID && !target.isMention && target.kind == .utf8)
            // Read from the layer, not kept beside it.
            #expect(target.original(in: ByteWindow([UInt8](repeating: 0x39, count: target.range.upperBound))) == .text(String(repeating: "9", count: target.range.count)))
        }
        #expect(targets.first?.place.hasPrefix("in-app purchase #1, ") == true)
        #expect(parts.notReplaced.isEmpty && parts.tokens.isEmpty)
        #expect(parts.signatures.count == 1)
        #expect(parts.signatures.first?.layers.contains(.file) == true)
        #expect(parts.signatures.first?.note == "the PKCS#7 signature no longer verifies: it signs the digest of the receipt payload, whose bytes changed")
        let bundle = try #require(try Self.typicalFacts()["receipt"] as? [String: Any])["bundle_id"] as? String
        #expect(mentionPlaces(parts).contains { String(decoding: document.layer($0.layer).bytes[$0.range], as: UTF8.self) == bundle })
    }

    @Test("a token gives its three segments' characters and its ES256 signature; no values of its own")
    func tokenRedactionParts() throws {
        let document = try Self.open("jws/transaction.jws")
        let parts = document.redactionParts(fields: Set(RedactField.allCases))
        let text = Array(document.fileLayer.bytes)
        let dots = text.indices.filter { text[$0] == UInt8(ascii: ".") }
        #expect(dots.count == 2)
        let token = try #require(document.jws?.tokens.first)
        let segment = try #require(parts.tokens.first)
        #expect(parts.tokens.count == 1 && segment.inHolder == nil)
        #expect(segment.segments.map(\.layer) == [token.layers.header, token.layers.payload, token.layers.signature].compactMap { $0 })
        #expect(segment.segments.map(\.characters) == [0..<dots[0], (dots[0] + 1)..<dots[1], (dots[1] + 1)..<text.count])
        #expect(targets(parts).isEmpty && mentionPlaces(parts).isEmpty)
        #expect(parts.signatures.map(\.note) == ["the token: its ES256 signature no longer verifies: it signs the token's header.payload text, which changed"])
        #expect(parts.signatures.map(\.layers) == [[token.layers.token]])
    }

    @Test("a body's tokens sit in its JSON strings: each holder range holds the token's characters")
    func bodyTokensInTheirHolders() throws {
        let document = try Self.open("jws/transaction-history.json")
        let parts = document.redactionParts(fields: [])
        let tokens = try #require(document.jws?.tokens)
        #expect(parts.tokens.count == tokens.count && tokens.count > 1)
        for (part, token) in zip(parts.tokens, tokens) {
            let spot = try #require(part.inHolder)
            #expect(Array(document.layer(spot.layer).bytes[spot.range]) == document.layer(token.layers.token).bytes.array)
        }
        #expect(parts.signatures.first?.note.hasPrefix("token signedTransactions[0]: its ES256 signature") == true)
    }

    @Test("kinds with no model of their own give nothing", arguments: ["external/external-purchase-token.txt", "pki/test-ec-root.cer"])
    func emptyRedactionParts(_ name: String) throws {
        let document = try Self.open(name)
        let parts = document.redactionParts(fields: Set(RedactField.allCases))
        #expect(targets(parts).isEmpty && parts.notReplaced.isEmpty && mentionPlaces(parts).isEmpty)
        #expect(parts.tokens.isEmpty && parts.signatures.isEmpty)
    }

    // MARK: - payloadStringNode, --device-id

    @Test("a receipt's payload string is the OCTET STRING the manifest places; tokens and certificates have none")
    func payloadStringNode() throws {
        let receipt = try Self.open("typical.receipt")
        let payload = try #require(try Self.typicalFacts()["payload"] as? [String: Int])
        let node = try #require(receipt.format.payloadStringNode(receipt))
        #expect(receipt.fileTree.nodes[node].isUniversal(4))
        #expect(receipt.fileTree.nodes[node].contentRange == payload["offset"]!..<(payload["offset"]! + payload["length"]!))
        for name in ["jws/transaction.jws", "pki/test-ec-root.cer"] {
            let other = try Self.open(name)
            #expect(other.format.payloadStringNode(other) == nil)
        }
    }

    @Test("only a receipt's format takes --device-id (its attribute 5 is a device hash)", arguments: [
        ("typical.receipt", true), ("xcode-ber.receipt", true), ("jws/transaction.jws", false),
        ("jws/transaction-history.json", false), ("pki/test-ec-root.cer", false), ("external/external-purchase-token.txt", false),
    ])
    func deviceIDApplies(name: String, has: Bool) throws {
        let document = try Self.open(name)
        #expect(OptionTable.use(.deviceID, kind: document.kind).applies == has)
        #expect((document.refusal(of: [.deviceID]) == nil) == has)
    }

    // MARK: - verdict words

    @Test("the verdict, quiet and nothing-to-verify lines and a token's subject are worded in Report/Wording")
    func verdictWords() {
        let words = StepText.plain
        #expect(words.verdictLine(valid: true, summary: "valid App Store receipt", environment: nil) == "Verdict: VALID — valid App Store receipt")
        #expect(words.verdictLine(valid: false, summary: "INVALID", environment: .sandbox) == "Verdict: INVALID (sandbox receipt)")
        #expect(words.quietLine(valid: true, summary: "signed by Apple", firstReason: nil, environment: nil, ascii: true) == "VALID - signed by Apple")
        #expect(words.quietLine(valid: false, summary: "INVALID", firstReason: "x5c chain: \u{1B}[2J", environment: nil, ascii: false)
                == "INVALID: x5c chain: \\x1b[2J")
        #expect(words.quietLine(valid: false, summary: "INVALID", firstReason: nil, environment: .sandbox, ascii: false) == "INVALID (sandbox receipt)")
        #expect(words.nothingToVerify("an iOS 6 style transaction receipt") == "nothing to verify: an iOS 6 style transaction receipt")
        #expect(words.tokenLabel("StoreKit 2 transaction", signedByXcode: true)
                == "StoreKit 2 transaction signed by Xcode StoreKit Testing (local testing only)")
        #expect(words.tokenLabel("StoreKit 2 transaction", signedByXcode: false) == "StoreKit 2 transaction")
        #expect(words.tokenNote(path: "signedTransactions[0]", kindLabel: "StoreKit 2 transaction", headerSummary: "ES256, x5c 3")
                == "signedTransactions[0]: StoreKit 2 transaction (JWS, ES256, x5c 3)")
        #expect(words.tokenNote(path: nil, kindLabel: "StoreKit 2 renewal info", headerSummary: "ES256") == "token: StoreKit 2 renewal info (JWS, ES256)")
    }

    /// The values a kind's `forEachTarget` walks.
    func targets(_ parts: RedactionParts) -> [RedactTarget] {
        var all: [RedactTarget] = []
        parts.forEachTarget { all.append($0) }
        return all
    }

    /// The places a kind's `forEachMentionPlace` walks.
    func mentionPlaces(_ parts: RedactionParts) -> [RedactionParts.MentionPlace] {
        var all: [RedactionParts.MentionPlace] = []
        parts.forEachMentionPlace { all.append($0) }
        return all
    }
}
