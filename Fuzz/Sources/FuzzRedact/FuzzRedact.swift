import ASN1Lenient
import DocumentCore
import DocumentRedact
import Foundation
import FuzzSupport
import ReceiptKit
import TextLoader

/// Fuzz target (f): `redact`. The input is a file's bytes, loaded as the commands load it
/// (`PasteLoader.decode`: the paste finder looks inside text around the data) and redacted twice in
/// one run (every field, a fixed seed), as `redact FILE FILE` would.
/// Traps when:
/// - a copy is written but, loaded and opened again, does not have the original's shape (layers,
///   nodes, diagnostics' codes and ranges: `DocumentShape`),
/// - the two copies of the same input differ (the same value must get the same stand-in),
/// - a copy was refused for a reason that names a bug, or a message holds a control character,
/// - a written copy holds a replaced value's text where it was (checked by re-collecting the
///   copy's values, inside `Redactor`, and here by comparing the two runs' tables).
let options = RedactOptions(key: .seeded("fuzz"))
let openOptions = AnalysisOptions(validate: false)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRedact(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let raw = Array(UnsafeBufferPointer(start: data, count: size))
    let loaded: LoadedInput
    do {
        loaded = try PasteLoader.decode(raw, name: "fuzz")
    } catch let error as InputError {
        assertTerminalSafe(error.message, "InputError", allowNewlines: false)
        return 0
    } catch {
        fatalError("PasteLoader.decode threw something other than InputError: \(error)")
    }
    let input = RedactInput(raw: raw, loaded: loaded)
    let run: RedactRun
    do {
        run = try Redactor.run([input, input], options: options)
    } catch let error as StandInError {
        assertTerminalSafe(error.description, "StandInError", allowNewlines: false)
        return 0
    } catch {
        fatalError("Redactor.run threw something other than StandInError: \(error)")
    }
    precondition(run.copies.count == 2, "one copy per input")
    let (first, second) = (run.copies[0], run.copies[1])
    precondition(first.bytes == second.bytes, "two copies of one input differ")
    for copy in run.copies {
        for line in copy.notReplaced + copy.signatures + [copy.failure ?? ""] { assertTerminalSafe(line, "redact message") }
        if let failure = copy.failure { precondition(!failure.contains("a bug"), "redact: \(failure)") }
    }
    // Without a mapping (`redact` with no --mapping) the targets go before the check: the same
    // copy, the same words, and no place kept.
    var withoutMapping = options
    withoutMapping.mapping = false
    guard let alone = try? Redactor.run([input], options: withoutMapping) else { fatalError("redact without a mapping threw") }
    precondition(alone.copies[0].bytes == first.bytes && alone.copies[0].failure == first.failure
                 && alone.copies[0].signatures == first.signatures, "redact without a mapping made another copy")
    precondition(alone.occurrences.isEmpty, "redact without a mapping kept the places")
    // The run's mapping file (written as it is made): one JSON object whatever the values found.
    let mapping = RedactMapping.bytes(run, files: [(input: "in", copy: "out/1"), (input: "in", copy: "out/2")])
    guard (try? JSONSerialization.jsonObject(with: Data(mapping))) is [String: Any] else { fatalError("the mapping is not a JSON object") }
    guard let bytes = first.bytes else { return 0 }
    let original = Document.open(loaded, options: openOptions)
    guard let reloaded = try? PasteLoader.decode(bytes, name: "copy") else { fatalError("a written copy does not load") }
    let copy = Document.open(reloaded, options: openOptions)
    if let difference = DocumentShape(original).firstDifference(from: copy) {
        fatalError("the copy's shape differs: \(difference)")
    }
    let replaced = first.replaced.values.reduce(0, +) + first.mentions
    precondition(replaced > 0 || bytes == raw, "nothing replaced, yet the copy differs from the input")
    for layer in copy.layers {
        if let tree = layer.tree { checkTree(tree, "copy layer \(layer.id.index)") }
    }
    return 0
}

@_cdecl("FuzzRedact_main")
func fuzzRedactMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, { data, size in fuzzRedact(data, size) })
}
