import ASN1Lenient
import DocumentCore
import DocumentTimeline
import Foundation
import FuzzSupport
import ReceiptKit
import TextLoader

/// Fuzz target (h): `Timeline.build` and `TransactionLookup.find` over several inputs cut from one.
/// Byte 0 (modulo 4, plus 1) says how many inputs; then one 2-byte little-endian cut per input
/// after the first; each piece goes through the loader (raw bytes when it refuses) and
/// `Document.open`. The pieces are joined by samples/timeline/receipt.receipt and history.json, so
/// every fuzzed event meets real ones (merging, gaps, conflicts, reasons). Traps when:
/// - a source names a document, layer, node or file offset that does not exist,
/// - a group's events are out of date order, a gap ends before it starts, entitled ranges overlap,
/// - the text or the JSON output lets a control character or bidi override through.
let context = ["receipt.receipt", "history.json"].map { readFile(repositoryRoot + "/samples/timeline/" + $0) }
let options = AnalysisOptions(validate: false)
let contextDocuments = context.map(open)

func open(_ bytes: [UInt8]) -> Document {
    let input = loadOrCheckRefusal(bytes) ?? LoadedInput(bytes: bytes, name: "fuzz", encoding: .binary, note: "raw")
    return Document.open(input, options: options)
}

func checkSource(_ source: TimelineSource, _ documents: [Document], _ what: String) {
    precondition(documents.indices.contains(source.document), "\(what): document \(source.document) of \(documents.count)")
    let document = documents[source.document]
    if let node = source.node {
        precondition(node.layer.index >= 0 && node.layer.index < document.layers.count, "\(what): layer \(node.layer)")
        let layer = document.layer(node.layer)
        let count = layer.tree?.count ?? layer.json?.count ?? 0
        precondition(node.index >= 0 && node.index < count, "\(what): node \(node.index) outside its layer (\(count))")
    }
    if let offset = source.fileOffset {
        precondition(offset >= 0 && offset <= document.fileLayer.bytes.count, "\(what): file offset \(offset)")
    }
}

func check(_ documents: [Document]) {
    let timeline = Timeline.build(documents)
    var ids: [String] = ["2000000700000003"]
    for group in timeline.groups {
        for (a, b) in zip(group.events, group.events.dropFirst()) { precondition(a.date <= b.date, "events out of order") }
        for event in group.events {
            event.sources.forEach { checkSource($0, documents, "\(event.kind)") }
            if let until = event.until { precondition(until >= event.date, "gap ends before it starts") }
            if let id = event.transactionID { ids.append(id) }
            _ = group.state(at: event.date)
        }
        for (a, b) in zip(group.entitled, group.entitled.dropFirst()) { precondition(a.upperBound < b.lowerBound, "entitled ranges overlap") }
        precondition(group.entitled.count == group.endings.count, "one ending per entitled range")
    }
    for finding in timeline.findings { finding.sources.forEach { checkSource($0, documents, finding.code) } }
    let lookup = TransactionLookup.find(ids[ids.count / 2], in: documents)
    lookup.mentions.forEach { checkSource($0.source, documents, "mention") }
    let at = timeline.groups.first?.events.first?.date
    assertTerminalSafe(TimelineText.render(timeline, at: at, lookup: lookup), "TimelineText")
    assertTerminalSafe(ReceiptJSON.serialize(TimelineJSON.document(timeline, at: at, lookup: lookup)), "TimelineJSON")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTimeline(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    precondition(context.allSatisfy { !$0.isEmpty }, "samples/timeline/ not found under \(repositoryRoot)")
    let raw = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = raw.first else { return 0 }
    let count = Int(first % 4) + 1
    let header = 1 + 2 * (count - 1)
    guard raw.count >= header else { return 0 }
    let rest = Array(raw[header...])
    var cuts = (0..<(count - 1)).map { i in (Int(raw[1 + 2 * i]) | Int(raw[2 + 2 * i]) << 8) % (rest.count + 1) }
    cuts.sort()
    let bounds = [0] + cuts + [rest.count]
    let pieces = zip(bounds, bounds.dropFirst()).map { Array(rest[$0..<$1]) }
    let fuzzed = pieces.map(open)
    check(fuzzed)
    check(contextDocuments + fuzzed)
    return 0
}

@_cdecl("FuzzTimeline_main")
func fuzzTimelineMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    // A closure, not `fuzzTimeline` itself: converting the @_cdecl function emits a second C symbol.
    return LLVMFuzzerRunDriver(&argc, &argv, { data, size in fuzzTimeline(data, size) })
}
