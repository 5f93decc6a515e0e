import ASN1Lenient
import DocumentCore
import DocumentDiff
import ExplorerUI
import Foundation
import FuzzSupport
import ReceiptKit
import TextLoader

/// Fuzz target (d): `DocumentDiff.compare` on two inputs cut from one. Bytes 0–1 (little endian,
/// modulo the rest's length) say where A ends and B starts; each side goes through the loader (raw
/// bytes when it refuses) and `Document.open`. Each pair is compared both ways and each side against
/// samples/diff/base.receipt. Traps when:
/// - an entry's node lies outside its layer, or a range outside the layer / file it refers to,
/// - the structural count disagrees with the list (listed + omitted, content changes ≤ total),
/// - the text or the JSON output lets a control character or bidi override through;
/// - the explorer's list (`DiffList`, made when read) has other rows than the entries and their
///   fields, one row each in order, or a row lets a control character or bidi override through.
let base = readFile(repositoryRoot + "/samples/diff/base.receipt")
let options = AnalysisOptions(validate: false)
let baseDocument = open(base)

func open(_ bytes: [UInt8]) -> Document {
    // A refused input is still diffed as raw bytes; the refusal itself must be an InputError.
    let input = loadOrCheckRefusal(bytes)
        ?? LoadedInput(bytes: bytes, name: "fuzz", encoding: .binary, note: "raw")
    return Document.open(input, options: options)
}

func checkSide(_ side: DiffSide?, _ document: Document, _ what: String) {
    guard let side else { return }
    // A range lies in its node's layer, else in `side.layer` (token text, signature), else in the file.
    precondition(side.rangeLayer.index < document.layers.count, "\(what): layer \(side.rangeLayer) out of range")
    let layerCount = document.layer(side.rangeLayer).bytes.count
    if let node = side.node {
        precondition(node.layer.index < document.layers.count, "\(what): layer \(node.layer) out of range")
        let layer = document.layer(node.layer)
        let count = layer.tree?.count ?? layer.json?.count ?? 0
        precondition(node.index >= 0 && node.index < count, "\(what): node \(node.index) outside its layer (\(count))")
    }
    if let r = side.range { precondition(r.lowerBound >= 0 && r.upperBound <= layerCount, "\(what): range \(r) outside \(layerCount)") }
    if let r = side.fileRange {
        precondition(r.lowerBound >= 0 && r.upperBound <= document.fileLayer.bytes.count, "\(what): file range \(r)")
    }
}

func check(_ a: Document, _ b: Document) {
    let diff = DocumentDiff.compare(a, b, structuralLimit: 20)
    for entry in diff.entries {
        checkSide(entry.a, a, "\(entry.kind) a")
        checkSide(entry.b, b, "\(entry.kind) b")
        for field in entry.fields {
            checkSide(field.a, a, "\(field.kind) field a")
            checkSide(field.b, b, "\(field.kind) field b")
        }
    }
    precondition(diff.structural.count <= 20 && diff.structuralOmitted >= 0, "structural bound")
    precondition(diff.structuralContentChanges <= diff.structural.count + diff.structuralOmitted, "content changes")
    assertTerminalSafe(DiffText.render(diff, nameA: "a", nameB: "b", kindA: a.kind.summary, kindB: b.kind.summary, color: false), "DiffText")
    assertTerminalSafe(ReceiptJSON.serialize(DiffJSON.document(diff)), "DiffJSON")
    // The explorer's list (the engine at its own structural limit): a row an entry, each followed
    // by its fields' rows, in order.
    var expected: [String] = []
    func add(_ entry: DiffEntry, indent: String) {
        expected.append(indent + entry.kind.rawValue + " ")
        for field in entry.fields { add(field, indent: indent + "  ") }
    }
    for entry in DocumentDiff.compare(a, b).entries { add(entry, indent: "") }
    let list = documentDiffProvider(a, b)
    precondition(list.count == expected.count, "diff list: \(list.count) rows for \(expected.count)")
    for (row, start) in zip(list, expected) {
        precondition(row.title.hasPrefix(start), "diff list row \(row.title) where \(start) was expected")
        assertTerminalSafe(row.title + (row.change ?? ""), "diff list row")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDiff(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    precondition(!base.isEmpty, "samples/diff/base.receipt not found under \(repositoryRoot)")
    let raw = Array(UnsafeBufferPointer(start: data, count: size))
    guard raw.count >= 2 else { return 0 }
    let rest = Array(raw[2...])
    let cut = rest.isEmpty ? 0 : (Int(raw[0]) | Int(raw[1]) << 8) % (rest.count + 1)
    let a = open(Array(rest[..<cut])), b = open(Array(rest[cut...]))
    check(a, b)
    check(b, a)
    check(baseDocument, b)
    return 0
}

@_cdecl("FuzzDiff_main")
func fuzzDiffMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    // A closure, not `fuzzDiff` itself: converting the @_cdecl function emits a second C symbol.
    return LLVMFuzzerRunDriver(&argc, &argv, { data, size in fuzzDiff(data, size) })
}
