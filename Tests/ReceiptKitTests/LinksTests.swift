import Foundation
import Testing
import TestSupport
import ASN1Lenient
@testable import ReceiptKit

@Suite struct LinksTests {
    /// field → node → field, for every field of a receipt with purchases.
    func roundTrip(_ a: ReceiptAnalysis) throws {
        let r = try #require(a.receipt)
        for (i, f) in r.fields.enumerated() {
            let loc = try #require(a.location(of: f.attributeNode))
            #expect(loc.level == .app && loc.fieldIndex == i && loc.part == .attribute && loc.attributeType == f.type)
            #expect(r.field(at: loc) == f)
            #expect(a.location(of: f.typeNode!)?.part == .type)
            #expect(a.location(of: f.versionNode!)?.part == .version)
            #expect(a.location(of: f.valueNode!)?.part == .value)
            if let inner = f.innerNode {
                let l = try #require(a.location(of: inner))
                #expect(l.part == .innerValue && l.fieldIndex == i)
                #expect(r.node(at: l) == inner)
            }
        }
        for p in r.inApp {
            let setNode = try #require(p.setNode)
            let setLoc = try #require(a.location(of: setNode))
            #expect(setLoc.attributeType == 17 && setLoc.inAppIndex == p.index && setLoc.level == .app)
            #expect(setLoc.label == "in-app purchase #\(p.index + 1)")
            for (j, f) in p.fields.enumerated() {
                for node in [f.attributeNode, f.valueNode!] + (f.innerNode.map { [$0] } ?? []) {
                    let loc = try #require(a.location(of: node))
                    #expect(loc.level == .inApp && loc.inAppIndex == p.index && loc.fieldIndex == j && loc.attributeType == f.type)
                    #expect(r.field(at: loc) == f)
                }
            }
        }
        // Nodes outside the payload have no field; the payload SET has none either.
        #expect(a.location(of: 0) == nil)
        #expect(a.location(of: r.payloadNode) == nil)
        #expect(a.location(of: -1) == nil)
        #expect(a.location(of: a.receiptTree.count) == nil)
    }

    @Test(.enabled(if: Paths.corpusAvailable)) func roundTripOnACorpusFile() throws {
        let a = decode(try Paths.corpusReceipt("sandbox-com.revenuecat.sampleapp-2020-07-22-9iap.receipt"))
        try roundTrip(a)
        let r = try #require(a.receipt)
        let product = try #require(r.inApp[3].field(1702))
        let loc = try #require(a.location(of: product.innerNode!))
        #expect(loc.label == "in-app purchase #4 · product id (in-app 1702)")
        #expect(a.location(of: r.field(2)!.innerNode!)?.label == "bundle id (attribute 2)")
        #expect(a.location(of: r.fields.first { $0.isUnlisted }!.attributeNode)?.label.hasPrefix("unlisted type") == true)
        // Container roles for the nodes outside the payload.
        let c = try #require(a.container)
        #expect(c.role(of: 0) == "PKCS#7 ContentInfo")
        #expect(c.role(of: c.certificates[0]) == "certificate #1")
        #expect(c.role(of: c.signerInfos[0]) == "SignerInfo #1")
    }

    @Test(.enabled(if: Paths.corpusAvailable)) func roundTripOnXcodeBER() throws {
        try roundTrip(decode(try Paths.corpusReceipt("xcode-ch.protonmail.protonmail-2022-01-07-6iap.receipt")))
    }

    @Test(.enabled(if: Paths.corpusAvailable)) func everyNodeResolvesQuickly() throws {
        let a = decode(try Paths.corpusReceipt("sandbox-com.sumiapp.GridDiary-2018-01-05-120iap.receipt"))
        var linked = 0
        for node in 0..<a.tree.count where a.location(of: node) != nil { linked += 1 }
        let r = try #require(a.receipt)
        let attributeNodes = r.fields.count + r.inApp.reduce(0) { $0 + $1.fields.count }
        #expect(linked >= attributeNodes * 4)
        #expect(a.links.count == attributeNodes)
    }

    /// `location(of:)` finds the holding attribute by binary search in the field table; it agrees
    /// with the plain definition (climb to the nearest ancestor that is some record's attribute) on
    /// every node, part, purchase and position included, and the search's premise holds: each list
    /// is in node order as the decoder appends it.
    @Test func everyNodeFindsTheNearestAttributeAncestor() throws {
        var files = [try Paths.sample("typical.receipt"), try Paths.sample("unlisted-attributes.receipt"),
                     try Paths.sample("malformed-duplicate-attribute.receipt")]
        if Paths.corpusAvailable { files.append(try Paths.corpusReceipt("sandbox-com.sumiapp.GridDiary-2018-01-05-120iap.receipt")) }
        for bytes in files {
            let a = decode(bytes)
            let r = try #require(a.receipt)
            let tree = a.receiptTree
            let t = r.table
            #expect(zip(t.app, t.app.dropFirst()).allSatisfy { t.attributeNode($0) < t.attributeNode($1) })
            #expect(zip(t.inApp, t.inApp.dropFirst()).allSatisfy { t.attributeNode($0) < t.attributeNode($1) })
            // Each attribute node's field, from the fields as consumers read them.
            var holders: [Int: (field: ReceiptField, position: Int)] = [:]
            for (i, f) in r.fields.enumerated() { holders[f.attributeNode] = (f, i) }
            for p in r.inApp { for (j, f) in p.fields.enumerated() { holders[f.attributeNode] = (f, j) } }
            #expect(holders.count == a.links.count)
            for node in 0..<tree.count {
                var n = node
                while n >= 0 && holders[n] == nil { n = tree.nodes.parentIndex(n) }
                let found = a.links.location(of: node)
                #expect((found == nil) == (n < 0), "node \(node)")
                if let found, let (f, position) = holders[n] {
                    let part: FieldPart = node == f.attributeNode ? .attribute : node == f.typeNode ? .type
                        : node == f.versionNode ? .version : node == f.valueNode ? .value : node == f.innerNode ? .innerValue
                        : .insideValue
                    var purchase = f.inAppIndex
                    if case .inAppPurchase(let i) = f.value { purchase = i }
                    #expect(found == FieldLocation(level: f.level, inAppIndex: purchase, fieldIndex: position,
                                                   attributeType: f.type, part: part), "node \(node)")
                }
            }
        }
    }
}
