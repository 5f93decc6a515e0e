import ASN1Lenient
import DocumentCore
import FuzzSupport
import ReceiptKit
import TextLoader

/// Fuzz target `paste`: the one way in, `DocumentInput.read` (the loader's detection, then the paste finder on
/// log lines, quotes, fences, wrapped base64, form bodies, JSON values at any depth, HAR captures,
/// base64 inside base64, cut-off tokens; as a file, or as a `--lines` line when the first byte is odd), then
/// `Document.open` on what it found. Traps when:
/// - anything other than `InputError` is thrown, or a message / note holds a raw control character;
/// - a loader diagnostic's range lies outside the loaded bytes, names a node or is not an error;
/// - a found input's origin is not the pasted text, or a step maps a byte outside its parent
///   (the pasted text for the last step), or offsets of a step go backwards;
/// - a layer's range, mapped through the document and the paste, leaves the pasted text;
/// - text without data is read as ASN.1 (any node), or comes without its one finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPaste(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let raw = Array(UnsafeBufferPointer(start: data, count: size))
    let read: ReadInput
    let input: DocumentInput = (raw.first ?? 0) & 1 == 1 ? .line(raw, number: 7, of: "fuzz.log") : .bytes(raw, place: .file("fuzz"))
    do {
        read = try input.read()
    } catch let error as InputError {
        assertTerminalSafe(error.message, "InputError", allowNewlines: false)
        return 0
    } catch {
        fatalError("DocumentInput.read threw something other than InputError: \(error)")
    }
    let loaded = read.loaded
    assertTerminalSafe(loaded.note, "LoadedInput.note", allowNewlines: false)
    checkDiagnostics(loaded.diagnostics, bytes: loaded.bytes.count, nodes: 0, "loader")
    if loaded.diagnostics.contains(where: { $0.node != nil || $0.severity != .error }) {
        fatalError("a loader diagnostic names a node or is not an error")
    }
    if let origin = loaded.origin { checkOrigin(origin, loaded: loaded, raw: raw) }
    let document = Document.open(read, OpenOptions(analysis: AnalysisOptions(validate: false)))
    if document.kind == .text {
        // Not read as ASN.1: one unparsed region over every byte (or none for no bytes), one finding.
        let tree = document.fileTree
        let oneRegion = tree.count == 1 && tree[0].kind == .unparsed && tree[0].byteRange == 0..<tree.bytes.count
        guard oneRegion || (tree.count == 0 && tree.bytes.isEmpty), document.diagnostics.count == 1 else {
            fatalError("text without data was read as ASN.1 or lost its finding: \(tree.count) nodes")
        }
    }
    for layer in document.layers {
        if let tree = layer.tree { checkTree(tree, "layer \(layer.id.index)") }
    }
    guard loaded.origin != nil else { return 0 }
    for layer in document.layers {
        let range = document.pastedRange(0..<layer.bytes.count, in: layer.id)
        guard range.lowerBound >= 0, range.upperBound <= raw.count, range.lowerBound <= range.upperBound else {
            fatalError("layer \(layer.id.index) (\(layer.bytes.count) bytes) maps to \(range) of a \(raw.count)-byte paste")
        }
        if let words = document.pastedWords(0..<layer.bytes.count, in: layer.id) { assertTerminalSafe(words, "pastedWords", allowNewlines: false) }
    }
    return 0
}

func checkOrigin(_ origin: PasteOrigin, loaded: LoadedInput, raw: [UInt8]) {
    guard origin.text == raw else { fatalError("the origin's text is not the pasted input") }
    assertTerminalSafe(origin.location, "PasteOrigin.location", allowNewlines: false)
    guard let first = origin.steps.first else { fatalError("an origin without steps") }
    let characters = first.kind == .base64 ? (loaded.bytes.count * 8 + 5) / 6 : loaded.bytes.count
    guard first.parentOffsets.count >= characters else {
        fatalError("the first step maps \(first.parentOffsets.count) characters for \(loaded.bytes.count) bytes")
    }
    for (i, step) in origin.steps.enumerated() {
        let parentSize = i + 1 < origin.steps.count ? Int.max : raw.count
        var previous = -1
        for offset in step.parentOffsets {
            guard offset > previous, offset < parentSize else {
                fatalError("step \(i) maps to offset \(offset) after \(previous) (parent of \(parentSize) bytes)")
            }
            previous = offset
        }
    }
    for offset in [0, loaded.bytes.count / 2, max(0, loaded.bytes.count - 1)] where offset < loaded.bytes.count {
        let at = origin.textOffset(offset)
        guard at >= 0, at < raw.count else { fatalError("byte \(offset) maps to \(at) of a \(raw.count)-byte paste") }
    }
}
