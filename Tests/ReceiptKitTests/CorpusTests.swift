import Foundation
import DocumentCore
import Testing
import TestSupport
import ASN1Lenient
@testable import ReceiptKit
@testable import X509Trust

/// `../shared/corpus/MANIFEST.md`, row by row.
struct CorpusFact: Sendable, CustomTestStringConvertible {
    var file: String
    var env: String
    var bundle: String
    var version: String
    var originalVersion: String?
    var created: String
    var purchases: Int
    var ber: Bool
    var testDescription: String { file }
}

let corpusFacts: [CorpusFact] = [
    .init(file: "production-ios-org.getpure.pure-iphone-2024-02-23-4iap.receipt", env: "Production", bundle: "org.getpure.pure-iphone", version: "15741", originalVersion: "434", created: "2024-02-23T17:27:16Z", purchases: 4, ber: false),
    .init(file: "production-macos-com.apple.dt.Xcode-2015-09-22-0iap.receipt", env: "Production", bundle: "com.apple.dt.Xcode", version: "7.0", originalVersion: "4.3", created: "2015-09-22T08:55:28Z", purchases: 0, ber: false),
    .init(file: "production-macos-com.mindnode.MindNodePro-2016-02-12-0iap.receipt", env: "Production", bundle: "com.mindnode.MindNodePro", version: "1.11.5", originalVersion: "1.10.6", created: "2016-02-12T10:57:42Z", purchases: 0, ber: false),
    .init(file: "production-net.shinyfrog.bear-2019-09-26-1iap.receipt", env: "Production", bundle: "net.shinyfrog.bear", version: "1.7.3", originalVersion: "1.7.3", created: "2019-09-26T14:08:37Z", purchases: 1, ber: false),
    .init(file: "sandbox-com.cocoanetics.EmmiView-2015-05-25-6iap.receipt", env: "ProductionSandbox", bundle: "com.cocoanetics.EmmiView", version: "246", originalVersion: "1.0", created: "2015-05-25T15:22:10Z", purchases: 6, ber: false),
    .init(file: "sandbox-com.hannesoid.PurchasingExperiments-2023-02-22-2iap.receipt", env: "ProductionSandbox", bundle: "com.hannesoid.PurchasingExperiments", version: "1", originalVersion: "1.0", created: "2023-02-22T14:30:15Z", purchases: 2, ber: false),
    .init(file: "sandbox-com.revenuecat.sampleapp-2020-07-22-9iap.receipt", env: "ProductionSandbox", bundle: "com.revenuecat.sampleapp", version: "4", originalVersion: "1.0", created: "2020-07-22T17:39:08Z", purchases: 9, ber: false),
    .init(file: "sandbox-com.sumiapp.GridDiary-2018-01-05-120iap.receipt", env: "ProductionSandbox", bundle: "com.sumiapp.GridDiary", version: "1445", originalVersion: "1.0", created: "2018-01-05T02:55:39Z", purchases: 120, ber: false),
    .init(file: "sandbox-ios-com.mindnode.mindnodetouch-2017-09-11-0iap.receipt", env: "ProductionSandbox", bundle: "com.mindnode.mindnodetouch", version: "3394", originalVersion: "1.0", created: "2017-09-11T09:38:34Z", purchases: 0, ber: false),
    .init(file: "xcode-ch.protonmail.protonmail-2022-01-07-6iap.receipt", env: "Xcode", bundle: "ch.protonmail.protonmail", version: "1", originalVersion: nil, created: "2022-01-07T14:54:35Z", purchases: 6, ber: true),
    .init(file: "xcode-com.example.naturelab.backyardbirds.example-2023-10-19-1iap.receipt", env: "Xcode", bundle: "com.example.naturelab.backyardbirds.example", version: "1", originalVersion: nil, created: "2023-10-19T01:45:40Z", purchases: 1, ber: true),
    .init(file: "xcode-net.zachariadis.cyclemaps-2020-07-22-1iap.receipt", env: "Xcode", bundle: "net.zachariadis.cyclemaps", version: "31.10.0", originalVersion: nil, created: "2020-07-22T17:33:15Z", purchases: 1, ber: true),
]

@Suite struct CorpusTests {
    @Test(.enabled(if: Paths.corpusAvailable), arguments: corpusFacts)
    func decodesToManifestValues(_ fact: CorpusFact) throws {
        let a = ReceiptAnalyzer.analyze(bytes: try Paths.corpusReceipt(fact.file))
        let r = try #require(a.receipt)
        #expect(r.receiptType == fact.env)
        #expect(r.bundleID == fact.bundle)
        #expect(r.appVersion == fact.version)
        #expect(r.originalAppVersion == fact.originalVersion)
        #expect(r.creationDate?.epochMilliseconds == epochMS(fact.created))
        #expect(r.inApp.count == fact.purchases)
        #expect(r.inApp.allSatisfy { $0.isComplete && $0.productID != nil && $0.transactionID != nil && $0.purchaseDate != nil })
        #expect(a.container?.isBER == fact.ber)
        #expect(r.opaqueValue?.isEmpty == false)
        #expect(r.sha1Hash?.count == 20)
        // Real receipts produce no receipt findings; Xcode's BER only "der" notes from the parser.
        #expect(a.findings.isEmpty, "\(a.findings.map(\.message))")
        #expect(!a.tree.diagnostics.contains { $0.severity == .error || $0.severity == .warning })
        #expect(a.parseCount == 1)
        #expect(a.step(StepID.contents)?.status == .passed)
        // Every signature step passes at the creation date.
        for id in [StepID.signature, StepID.chain, StepID.time] {
            #expect(a.step(id)?.status == .passed, "\(id): \(a.step(id).map { StepText.plain.summary($0.status) } ?? "missing")")
        }
        if fact.env == "Xcode" {
            #expect(a.signature?.anchor == .xcodeStoreKitTesting)
            #expect(a.step(StepID.chain)?.details.contains(TrustAnchors.xcodeTestingNote) == true)
            #expect(!a.verdict.isValid)
            #expect(a.verdict.reasons.contains(.xcodeTestingNotSupplied))
            #expect(a.receipt?.isXcode == true)
        } else {
            #expect(a.step(StepID.receiptSigner)?.status == .passed)
            #expect(a.signature?.anchor == .appleIncRoot)
            #expect(a.signature?.certificates.count == 3)
            #expect(a.verdict.isValid, "\(a.verdict.reasons)")
        }
    }

    @Test(.enabled(if: Paths.corpusAvailable)) func xcodeReceiptIsValidForLocalTestingWithItsCertificateAsRoot() throws {
        let cert = try certificateBytes(Paths.corpus.appendingPathComponent("certs/StoreKitTestCertificate.cer").path)
        let a = ReceiptAnalyzer.analyze(bytes: try Paths.corpusReceipt("xcode-net.zachariadis.cyclemaps-2020-07-22-1iap.receipt"),
                                        options: AnalysisOptions(roots: [cert]))
        #expect(a.verdict.isValid, "\(a.verdict.reasons)")
        #expect(a.verdict.outcome == .validForLocalTesting)
        #expect(a.verdict.reasons == [.acceptedForLocalTesting])
    }

    @Test(.enabled(if: Paths.corpusAvailable)) func xcodeDatesWithOffsetsWithoutColon() throws {
        let a = decode(try Paths.corpusReceipt("xcode-net.zachariadis.cyclemaps-2020-07-22-1iap.receipt"))
        let r = try #require(a.receipt)
        let created = try #require(r.creationDate)
        #expect(created.text == "2020-07-22T18:33:15+0100")
        #expect(created.utcOffsetMinutes == 60)
        #expect(created.gmtString == "2020-07-22 17:33:15 Etc/GMT")
        #expect(r.expirationDate?.text == "4001-01-01T00:00:00+0000")
        let p = try #require(r.inApp.first)
        #expect(p.productID == "CYCLEMAPS_PREMIUM")
        #expect(p.transactionID == "0")
        #expect(p.expiresDate?.text == "2021-07-22T18:33:14+0100")
    }

    @Test(.enabled(if: Paths.corpusAvailable)) func payloadSetIsInTheInputTreeAndParsedOnce() throws {
        for name in ["production-net.shinyfrog.bear-2019-09-26-1iap.receipt", "xcode-ch.protonmail.protonmail-2022-01-07-6iap.receipt"] {
            let a = decode(try Paths.corpusReceipt(name))
            let c = try #require(a.container)
            #expect(c.payloadChunks.count == 1)
            #expect(!c.payloadIsReassembled)
            #expect(a.payloadTree == nil)
            let set = try #require(c.payloadSet)
            #expect(a.tree.nodes[set].isUniversal(17))
            #expect(c.role(of: set) == "receipt payload SET")
            #expect(c.certificates.count == (name.hasPrefix("xcode") ? 1 : 3))
            #expect(c.signerInfos.count == 1)
        }
    }

    @Test(.enabled(if: Paths.corpusAvailable)) func bearJSONValues() throws {
        let a = decode(try Paths.corpusReceipt("production-net.shinyfrog.bear-2019-09-26-1iap.receipt"))
        let doc = try jsonDocument(a)
        let receipt = try #require(doc["receipt"] as? [String: Any])
        #expect(receipt["bundle_id"] as? String == "net.shinyfrog.bear")
        #expect(receipt["receipt_type"] as? String == "Production")
        #expect(receipt["application_version"] as? String == "1.7.3")
        #expect(receipt["original_application_version"] as? String == "1.7.3")
        #expect(receipt["receipt_creation_date"] as? String == "2019-09-26 14:08:37 Etc/GMT")
        #expect(receipt["receipt_creation_date_ms"] as? String == "1569506917000")
        #expect(receipt["receipt_creation_date_pst"] as? String == "2019-09-26 07:08:37 America/Los_Angeles")
        #expect(receipt["original_purchase_date"] as? String == "2019-09-26 14:07:26 Etc/GMT")
        #expect(receipt["original_purchase_date_ms"] as? String == "1569506846000")
        #expect(receipt["app_item_id"] as? String == "1091189122")
        #expect(receipt["expiration_date"] == nil)
        let inApp = try #require(receipt["in_app"] as? [[String: Any]])
        #expect(inApp.count == 1)
        let p = inApp[0]
        #expect(p["product_id"] as? String == "net.shinyfrog.bear.pro_monthly_subscription")
        #expect(p["quantity"] as? String == "1")
        #expect(p["transaction_id"] as? String == "240000651265628")
        #expect(p["original_transaction_id"] as? String == "240000651265628")
        #expect(p["purchase_date"] as? String == "2019-09-26 14:08:36 Etc/GMT")
        #expect(p["purchase_date_ms"] as? String == "1569506916000")
        #expect(p["expires_date"] as? String == "2019-10-03 14:08:36 Etc/GMT")
        #expect(p["expires_date_ms"] as? String == "1570111716000")
        #expect(p["is_trial_period"] as? String == "true")
        #expect(p["is_in_intro_offer_period"] as? String == "false")
        #expect(p["web_order_line_item_id"] as? String == "240000225193522")
        #expect(p["cancellation_date"] == nil)
        let source = try #require(doc["source"] as? [String: [String: Int]])
        // The bundle id's value bytes are the UTF8String TLV at offset 293 (0C 12 "net.shinyfrog.bear").
        let bytes = try Paths.corpusReceipt("production-net.shinyfrog.bear-2019-09-26-1iap.receipt")
        let bundle = try #require(source["bundle_id"])
        #expect(Array(bytes[bundle["offset"]! ..< bundle["offset"]! + bundle["length"]!]) == [0x0C, 0x12] + Array("net.shinyfrog.bear".utf8))
        #expect(source["in_app[0].product_id"] != nil)
        #expect(source["in_app[0]"] != nil)
        let unlisted = try #require(doc["unlisted_attributes"] as? [[String: Any]])
        #expect(Set(unlisted.compactMap { $0["type"] as? Int }) == [6, 7, 9, 11, 13, 14, 15, 16, 25, 1709, 1710, 1714, 1715, 1716, 1717, 1718])
    }

    @Test(.enabled(if: Paths.corpusAvailable)) func deviceHashForKnownDevices() throws {
        let cases = [
            ("production-macos-com.mindnode.MindNodePro-2016-02-12-0iap.receipt", "6c:40:08:b5:94:5e"),
            ("sandbox-ios-com.mindnode.mindnodetouch-2017-09-11-0iap.receipt", "3B76A7BD-8F5B-46A4-BCB1-CCE8DBD1B3CD"),
        ]
        for (file, id) in cases {
            let bytes = try Paths.corpusReceipt(file)
            let good = ReceiptAnalyzer.analyze(bytes: bytes, options: AnalysisOptions(validate: false, deviceID: try DeviceIdentifier.parse(id)))
            #expect(good.step(StepID.deviceHash)?.status == .passed, "\(file)")
            #expect(good.step(StepID.deviceHash)?.details.contains { $0.hasPrefix("computed SHA-1") } == true)
            let wrongID = id.contains(":") ? "6c:40:08:b5:94:5f" : "3B76A7BD-8F5B-46A4-BCB1-CCE8DBD1B3CE"
            let bad = ReceiptAnalyzer.analyze(bytes: bytes, options: AnalysisOptions(validate: false, deviceID: try DeviceIdentifier.parse(wrongID)))
            #expect(bad.step(StepID.deviceHash)?.status.isFailed == true, "\(file)")
        }
    }

    @Test(.enabled(if: Paths.corpusAvailable)) func appChecks() throws {
        let bytes = try Paths.corpusReceipt("production-net.shinyfrog.bear-2019-09-26-1iap.receipt")
        let ok = ReceiptAnalyzer.analyze(bytes: bytes, options: AnalysisOptions(validate: false, bundleID: "net.shinyfrog.bear", appVersion: "1.7.3"))
        #expect(ok.step(StepID.bundleID)?.status == .passed)
        #expect(ok.step(StepID.appVersion)?.status == .passed)
        let bad = ReceiptAnalyzer.analyze(bytes: bytes, options: AnalysisOptions(validate: false, bundleID: "net.shinyfrog.bearx", appVersion: "1.7.4"))
        #expect(bad.step(StepID.bundleID)?.status.isFailed == true)
        #expect(bad.step(StepID.appVersion)?.status.isFailed == true)
        #expect(!bad.verdict.isValid)
        // Xcode receipts expire in 4001.
        let x = decode(try Paths.corpusReceipt("xcode-net.zachariadis.cyclemaps-2020-07-22-1iap.receipt"))
        #expect(x.step(StepID.expiration)?.status == .passed)
    }

    @Test(.enabled(if: Paths.corpusAvailable)) func activeSubscriptions() throws {
        let a = decode(try Paths.corpusReceipt("production-net.shinyfrog.bear-2019-09-26-1iap.receipt"))
        let r = try #require(a.receipt)
        #expect(r.inApp[0].isAutoRenewable)
        #expect(r.activeSubscriptions(at: ReceiptDate(epochMilliseconds: epochMS("2019-09-30T00:00:00Z"))).count == 1)
        #expect(r.activeSubscriptions(at: ReceiptDate(epochMilliseconds: epochMS("2019-10-03T14:08:36Z"))).isEmpty)
        #expect(r.activeSubscriptions(at: ReceiptDate(epochMilliseconds: epochMS("2019-09-26T14:08:35Z"))).isEmpty)
        #expect(a.activeSubscriptions(at: Date(timeIntervalSince1970: 1569801600)).count == 1)
    }

    // MARK: - negatives

    @Test(.enabled(if: Paths.corpusAvailable)) func truncatedReceiptShowsWhatIsThere() throws {
        let a = ReceiptAnalyzer.analyze(bytes: try Paths.corpusReceipt("negative/truncated-sandbox-com.belive.app.ios-456bytes.receipt"))
        #expect(a.parseCount == 2)
        let r = try #require(a.receipt)
        #expect(r.bundleID == "com.belive.app.ios")
        #expect(r.receiptType == "ProductionSandbox")
        #expect(r.appVersion == "3")
        #expect(r.creationDate?.epochMilliseconds == epochMS("2018-11-13T16:46:31Z"))
        // The payload is parsed on purpose: its truncation is reported at the payload SET (offset 62)
        // and at the last, cut attribute (offset 420) and its value (428), besides the container's.
        let truncations = a.tree.diagnostics.filter { $0.code == ParserCode.truncatedContent.code || $0.code == ParserCode.lengthExceedsParent.code }
        let offsets = Set(truncations.compactMap { $0.node.map { Int(a.tree.nodes[$0.index].offset) } })
        #expect(offsets.isSuperset(of: [0, 15, 19, 39, 54, 58, 62, 420, 428]), "\(offsets.sorted())")
        // No receipt finding for what the cut removed.
        #expect(a.findings.isEmpty, "\(a.findings.map(\.message))")
        #expect(a.step(StepID.contents)?.status.isFailed == true)
        #expect(a.step(StepID.signature)?.status.isPassed == false)
        #expect(!a.verdict.isValid)
        // Every node lies within the input.
        #expect(a.tree.nodes.allSatisfy { $0.end <= a.tree.bytes.count })
    }

    @Test(.enabled(if: Paths.corpusAvailable)) func appleSignedValidationRecordIsNotAReceipt() throws {
        // It embeds the leaf and its intermediate, not the root: Apple Inc. Root is given as --root.
        let root = try certificateBytes(Paths.corpus.appendingPathComponent("certs/AppleIncRootCertificate.cer").path)
        let a = ReceiptAnalyzer.analyze(bytes: try Paths.corpusReceipt("negative/pkcs7-not-a-receipt-apple-signed-validation-record.p7"),
                                        options: AnalysisOptions(roots: [root]))
        #expect(a.receipt == nil)
        #expect(a.parseCount == 1)
        let finding = try #require(a.findings.first)
        #expect(finding.code == ReceiptCode.payloadNotSet.code)
        #expect(finding.message.contains("XML property list"))
        #expect(a.findings.count == 1)
        let signer = try #require(a.step(StepID.receiptSigner))
        #expect(signer.status.isFailed)
        #expect(StepText.plain.reason(signer.status)?.contains("1.2.840.113635.100.6.11.1") == true)
        #expect(a.step(StepID.chain)?.status == .passed)
        #expect(a.step(StepID.contents)?.status.isFailed == true)
        #expect(!a.verdict.isValid)
    }
}

@Suite struct DocumentationTests {
    /// The manual's receipt code table (docs/manual/exit-status.md) lists every `ReceiptCode` with its
    /// severity, and its attribute table (docs/manual/kinds.md) every attribute of the schema.
    @Test func manualListsEveryReceiptCodeAndAttribute() throws {
        let codes = try String(contentsOf: Paths.packageRoot.appendingPathComponent("docs/manual/exit-status.md"), encoding: .utf8)
        try #require(codes.contains("## Receipt finding codes"))
        for code in ReceiptCode.allCases {
            #expect(codes.contains("| `\(code.rawValue)` | \(code.severity) | \(code.summary) |"), "\(code.rawValue)")
        }
        let kinds = try String(contentsOf: Paths.packageRoot.appendingPathComponent("docs/manual/kinds.md"), encoding: .utf8)
        try #require(kinds.contains("## The attribute table"))
        for spec in ReceiptSchema.app + ReceiptSchema.inApp {
            #expect(kinds.contains("| \(spec.type) | \(spec.name)"), "attribute \(spec.type)")
        }
    }
}
