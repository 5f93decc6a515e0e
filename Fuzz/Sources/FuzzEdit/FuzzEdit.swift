import ASN1Lenient
import DocumentCore
import DocumentTour
import Foundation
import FuzzSupport
import ReceiptKit
import TextLoader

/// Fuzz target (e): the tamper lab. The input is an edit script applied to a sample receipt
/// through `LabSession` (the explorer's e / i / d / u keys), each edit re-opening the document with
/// validation. Byte 0 picks the sample; then 4 bytes per step: the operation (replace, insert,
/// delete, undo), a 16-bit position (scaled to the current size) and a value. Traps when:
/// - the session's bytes differ from a shadow copy edited the same way, or the re-opened document's
///   file layer is not those bytes, or `marked` is not one flag per byte,
/// - a layer's tree breaks an invariant or a diagnostic lies outside its layer,
/// - the change description is empty or holds a control character,
/// - undoing every edit does not give back the sample's exact bytes.
let samples = ["typical.receipt", "minimal.receipt", "xcode-ber.receipt", "malformed-length-past-parent.receipt"]
    .map { readFile(repositoryRoot + "/samples/" + $0) }
let options = AnalysisOptions(validate: true, roots: [readFile(repositoryRoot + "/samples/pki/test-root.cer"),
                                                       readFile(repositoryRoot + "/samples/pki/test-storekit.cer")],
                              now: Date(timeIntervalSince1970: 1_709_294_400))
let opened = samples.map { Document.open(LoadedInput(bytes: $0, name: "sample", encoding: .binary, note: ""), options: options) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEdit(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    precondition(!samples[0].isEmpty, "samples/typical.receipt not found under \(repositoryRoot)")
    let script = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = script.first else { return 0 }
    let pick = Int(first) % samples.count
    var lab = LabSession(document: opened[pick])
    var shadow: [[UInt8]] = []
    var bytes = samples[pick]
    var i = 1
    // At most 12 steps: each is a full Document.open with OpenSSL validation.
    while i + 3 < script.count && i < 1 + 4 * 12 {
        let op = script[i] % 4, value = script[i + 3]
        let position = (Int(script[i + 1]) << 8 | Int(script[i + 2])) * (bytes.count + 1) / 65_536
        i += 4
        switch op {
        case 0:
            guard position < bytes.count else { continue }
            shadow.append(bytes); bytes[position] = value
            let done = lab.replace(at: position, with: value); precondition(done)
        case 1:
            shadow.append(bytes); bytes.insert(value, at: position)
            let done = lab.insert(value, at: position); precondition(done)
        case 2:
            guard position < bytes.count else { continue }
            shadow.append(bytes); bytes.remove(at: position)
            let done = lab.delete(at: position); precondition(done)
        default:
            guard let previous = shadow.popLast() else { let undone = lab.undo(); precondition(!undone); continue }
            bytes = previous
            let undone = lab.undo(); precondition(undone)
        }
        check(lab, bytes)
    }
    while lab.undo() {}
    precondition(lab.bytes == samples[pick], "undoing every edit did not restore the sample")
    return 0
}

func check(_ lab: LabSession, _ expected: [UInt8]) {
    precondition(lab.bytes == expected, "lab bytes differ from the shadow copy")
    precondition(lab.document.fileLayer.bytes.array == expected, "the re-opened document is not the edited bytes")
    precondition(lab.marked.count == expected.count, "marks are not one per byte")
    for layer in lab.document.layers {
        if let tree = layer.tree { checkTree(tree, "layer \(layer.id.index)") }
        checkDiagnostics(layer.content.diagnostics, bytes: layer.bytes.count, nodes: layer.tree?.count ?? Int.max,
                         "layer \(layer.id.index) diagnostics")
    }
    precondition(!lab.lastChange.isEmpty, "an edit with no change description")
    for line in lab.lastChange { assertTerminalSafe(line.text, "lab change") }
}

@_cdecl("FuzzEdit_main")
func fuzzEditMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, { data, size in fuzzEdit(data, size) })
}
