@testable import DocumentCore
@testable import DocumentTimeline
import Foundation
import ReceiptKit
import TestSupport
import Testing
import TextLoader

/// Issue 32: the timeline keeps facts, observations and events as compact records with their
/// strings interned once (`TimelineStrings`), made into `TimelineFact`s, `TransactionObservation`s
/// and `TimelineEvent`s when read, and writes its text and JSON as it makes them. These tests hold
/// the records to what the eager values were, field by field, over every sample and corpus file.
struct TimelineRecordsTests {
    static func open(_ urls: [URL]) -> [Document] {
        urls.compactMap { url in
            guard let raw = try? Paths.bytes(url), let loaded = try? PasteLoader.decode(raw, name: url.lastPathComponent) else { return nil }
            return Document.open(loaded, options: AnalysisOptions(validate: false))
        }
    }

    static let samples = open(RedactSupport.samples)
    static let corpus = open(RedactSupport.corpus)

    @Test func recordsAreTheirDocumentedSizes() {
        #expect(MemoryLayout<FactRecord>.stride == 48)
        #expect(MemoryLayout<EventRecord>.stride == 48)
        #expect(MemoryLayout<ObservationRecord>.stride == 72)
        #expect(MemoryLayout<SourceRecord>.stride == 24)
        #expect(MemoryLayout<TimelineEvents>.stride == 16)
    }

    @Test func equalStringsShareOneReferenceAndReadBack() {
        var strings = TimelineStrings()
        let texts = ["", "2000000700000000", "com.example.bench.pro.subscription.monthly", "é€𝄞", "on", "a\u{0}b"]
            + (0..<5_000).map { "in-app purchase \($0 + 1)" }
        let refs = texts.map { strings.intern($0) }
        #expect(refs == Array(0..<Int32(texts.count)))
        #expect(texts.map { strings.intern($0) } == refs)  // the second time: the same references, nothing added
        #expect(strings.count == texts.count)
        #expect(refs.map { strings.string($0) } == texts)
        #expect(strings.intern(nil) == TimelineStrings.none)
        #expect(strings.string(TimelineStrings.none) == nil)
        #expect(strings.characterCount(refs[3]) == 3)
        #expect(strings.characterCount(TimelineStrings.none) == -1)
        // Room reserved before (less than is added) and after the strings are in: the same references.
        var reserved = TimelineStrings()
        reserved.reserve(2)
        #expect(texts.map { reserved.intern($0) } == refs)
        reserved.reserve(100_000)
        #expect(texts.map { reserved.intern($0) } == refs && reserved.count == texts.count)
        #expect(reserved.intern("one more") == Int32(texts.count) && reserved.string(Int32(texts.count)) == "one more")
    }

    /// A place ending in a number is kept as its text before the number and the number, and reads
    /// back exactly; one whose digits would not (a leading zero, past Int32) is kept whole.
    @Test func placesWithANumberShareOneStringAndReadBack() {
        let places = ["in-app purchase 1", "in-app purchase 20000", "in-app purchase 0", "in-app purchase 007", "purchase 2147483647",
                      "purchase 2147483648", "12", "", "signedTransactions[3]", "notification DID_RENEW", "é 5", "x 99999999999"]
        let split = places.map { TimelinePool.trailingNumber($0) }
        #expect(split.map { String($0.0) } == ["in-app purchase ", "in-app purchase ", "in-app purchase ", "in-app purchase 007",
                                                "purchase ", "purchase 2147483648", "", "", "signedTransactions[3]",
                                                "notification DID_RENEW", "é ", "x 99999999999"])
        #expect(split.map(\.1) == [1, 20_000, 0, -1, 2_147_483_647, -1, 12, -1, -1, -1, 5, -1])
        let pool = TimelinePool()
        let refs = places.map { pool.add(TimelineSource(document: 0, place: $0, fileOffset: 7)) }
        #expect(refs.map { pool.sources[Int($0)].source(pool.strings).place } == places)
        #expect(pool.strings.count == 9)  // "in-app purchase " once for three places
    }

    @Test func aFactAndAnObservationReadBackFieldByField() {
        var reading = TimelineReading([])
        let node = NodeID(LayerID(1), 1_234_567)
        let sources = [TimelineSource(document: 2, place: "in-app purchase 7", node: node, fileOffset: 99),
                       TimelineSource(document: 0, place: "", node: nil, fileOffset: nil),
                       TimelineSource(document: 1, place: "notification DID_RENEW", node: NodeID(.file, 0), fileOffset: 0)]
        let facts = [
            TimelineFact(kind: .renewal, date: -1_500, transactionID: "2", originalTransactionID: "1", group: "21400001",
                         productID: "monthly", detail: "free trial", source: sources[0], bundleID: "com.example", autoRenew: true,
                         undelivered: "last attempt TIMED_OUT (2 attempts)"),
            TimelineFact(kind: .renewalStatus, date: .max, originalTransactionID: "", source: sources[1], autoRenew: false),
            TimelineFact(kind: .gap, date: .min, transactionID: "", originalTransactionID: "1", productID: "", source: sources[2]),
        ]
        for f in facts { reading.facts.append(f) }
        for (i, f) in facts.enumerated() {
            let r = reading.facts[i]
            #expect(r.kind == f.kind && r.date == f.date && r.transactionID == f.transactionID)
            #expect(r.originalTransactionID == f.originalTransactionID && r.group == f.group && r.productID == f.productID)
            #expect(r.detail == f.detail && r.source == f.source && r.bundleID == f.bundleID)
            #expect(r.autoRenew == f.autoRenew && r.undelivered == f.undelivered)
        }
        let observations = [
            TransactionObservation(transactionID: "2", originalTransactionID: "1", webOrderLineItemID: "3", group: "g", productID: "p",
                                   type: "Consumable", ownership: "FAMILY_SHARED", purchase: 0, expires: -5, revocation: .max,
                                   isUpgraded: true, issued: .min, isReceipt: true, source: sources[0], bundleID: ""),
            TransactionObservation(transactionID: "", originalTransactionID: "", isReceipt: false, source: sources[1]),
        ]
        for o in observations { reading.observations.append(o) }
        for (i, o) in observations.enumerated() {
            let r = reading.observations[i]
            #expect(r.transactionID == o.transactionID && r.originalTransactionID == o.originalTransactionID)
            #expect(r.webOrderLineItemID == o.webOrderLineItemID && r.group == o.group && r.productID == o.productID)
            #expect(r.type == o.type && r.ownership == o.ownership && r.purchase == o.purchase && r.expires == o.expires)
            #expect(r.revocation == o.revocation && r.isUpgraded == o.isUpgraded && r.issued == o.issued)
            #expect(r.isReceipt == o.isReceipt && r.source == o.source && r.bundleID == o.bundleID)
        }
        reading.facts[0].undelivered = nil
        #expect(reading.facts[0].undelivered == nil && reading.facts[0].detail == "free trial")
    }

    /// A purchase's facts and its observation name one source record, not one each.
    @Test func consecutiveFactsOfOneSourceShareItsRecord() {
        var reading = TimelineReading([])
        let source = TimelineSource(document: 0, place: "in-app purchase 1", node: NodeID(LayerID(1), 40), fileOffset: 120)
        reading.facts.append(TimelineFact(kind: .purchase, date: 0, transactionID: "1", originalTransactionID: "1", source: source))
        reading.facts.append(TimelineFact(kind: .offerRedeemed, date: 0, transactionID: "1", originalTransactionID: "1", source: source))
        reading.observations.append(TransactionObservation(transactionID: "1", originalTransactionID: "1", isReceipt: true, source: source))
        #expect(reading.pool.sources.count == 1)
        #expect(reading.pool.strings.count == 2)  // "1" and the place
        var other = source
        other.place = "in-app purchase 2"
        reading.facts.append(TimelineFact(kind: .purchase, date: 0, transactionID: "2", originalTransactionID: "1", source: other))
        #expect(reading.pool.sources.count == 2)
        #expect(reading.facts[2].source == other && reading.facts[0].source == source)
    }

    /// The compact merge makes the events the eager merge made (kept here as it was: a text key per
    /// fact, events with their strings and sources), field by field, for every sample and corpus
    /// document on one time line (events several documents report included).
    @Test func compactEventsEqualTheEagerOnesOverSamples() {
        expectEagerMerge(Self.samples)
    }

    @Test(.enabled(if: Paths.corpusAvailable && Paths.jwsCorpusAvailable))
    func compactEventsEqualTheEagerOnesOverTheCorpus() {
        expectEagerMerge(Self.corpus)
        expectEagerMerge(Self.samples + Self.corpus)
    }

    func expectEagerMerge(_ documents: [Document]) {
        let reading = TimelineReading(documents)
        let facts = reading.facts.indices.map { reading.facts[$0] }
        #expect(facts.count > 50)
        let eager = Self.eagerMerge(facts)
        let merged = Timeline.merge(reading.facts, strings: &reading.pool.strings)
        let store = TimelineStore(strings: reading.pool.strings, sources: reading.pool.sources, sourceLists: merged.sourceLists)
        #expect(merged.events.count == eager.count)
        #expect(merged.sourceLists.count > 0, "some events are reported by several documents")
        for (record, old) in zip(merged.events, eager) { #expect(store.event(record) == old.event) }
        for (chain, old) in zip(merged.chains, eager) {
            #expect(store.strings.string(chain.original) == old.chain.original && store.strings.string(chain.bundle) == old.chain.bundleID)
        }
    }

    /// The merge as it was before the records (TimelineBuilder.merge at 8ee345a).
    static func eagerMerge(_ facts: [TimelineFact]) -> [(chain: ChainKey, event: TimelineEvent)] {
        var order: [String] = []
        var merged: [String: (chain: ChainKey, event: TimelineEvent)] = [:]
        for f in facts {
            let renewal = f.kind == .renewalStatus
            let key = [f.kind.startsPeriod ? "start" : f.kind.rawValue, f.bundleID ?? "", f.originalTransactionID,
                       renewal ? (f.autoRenew.map { $0 ? "on" : "off" } ?? f.transactionID ?? "") : f.transactionID ?? "",
                       String(f.date / 1000)].joined(separator: "\u{0}")
            guard var entry = merged[key] else {
                order.append(key)
                merged[key] = (ChainKey(bundleID: f.bundleID, original: f.originalTransactionID),
                               TimelineEvent(kind: f.kind, date: f.date, transactionID: f.transactionID, productID: f.productID,
                                             detail: f.detail, sources: [f.source], undelivered: f.undelivered))
                continue
            }
            if f.kind.specificity > entry.event.kind.specificity { entry.event.kind = f.kind }
            if let d = f.detail, d.count > (entry.event.detail?.count ?? -1) { entry.event.detail = d }
            if entry.event.productID == nil { entry.event.productID = f.productID }
            if entry.event.undelivered == nil { entry.event.undelivered = f.undelivered }
            if entry.event.transactionID == nil { entry.event.transactionID = f.transactionID }
            if !entry.event.sources.contains(where: { $0.document == f.source.document }) {
                entry.event.sources.append(f.source)
                entry.event.sources.sort { $0.document < $1.document }
            }
            merged[key] = entry
        }
        return order.compactMap { merged[$0] }
    }

    /// `timeline --format json` is written as made: the same bytes as the document serialized whole,
    /// with `--at` and `--transaction`, for every sample on one time line.
    @Test func streamedJSONIsTheSerializedDocument() {
        let timeline = Timeline.build(Self.samples)
        #expect(timeline.eventCount > 100 && !timeline.findings.isEmpty)
        let lookups = [nil, TransactionLookup.find("2000000700000003", in: Self.samples)]
        for at in [nil, Int64(1_712_750_400_000)] {
            for lookup in lookups {
                var streamed: [UInt8] = []
                var pieces = 0
                TimelineJSON.write(timeline, at: at, lookup: lookup) { streamed += $0; pieces += 1 }
                let whole = ReceiptJSON.serialize(TimelineJSON.document(timeline, at: at, lookup: lookup))
                #expect(String(decoding: streamed, as: UTF8.self) == whole)
                var text = ""
                TimelineText.render(timeline, at: at, lookup: lookup) { text += $0 }
                #expect(text == TimelineText.render(timeline, at: at, lookup: lookup))
                #expect(text.hasPrefix("timeline of \(Self.samples.count) documents: "))
            }
        }
        var empty: [UInt8] = []
        TimelineJSON.write(Timeline.build([]), to: { empty += $0 })
        #expect(String(decoding: empty, as: UTF8.self) == "{\n  \"documents\": [],\n  \"findings\": [],\n  \"groups\": []\n}\n")
    }
}
