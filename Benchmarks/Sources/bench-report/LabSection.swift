import ASN1Lenient
import BenchSupport
import DocumentCore
import DocumentTour
import Foundation
import ReceiptKit
import TextLoader

/// The tamper lab's frame budget: one byte edit of samples/typical.receipt re-opens the document
/// from the edited bytes (parse + locate + decode + validate with the samples' TEST root) and words
/// what changed. Edit and undo alternate, so every call is one full re-open.
func labSection(options: Options, say: (String) -> Void, kv: (String, String) -> Void) throws {
    let samples = Inputs.repoRoot.appendingPathComponent("samples")
    let bytes = try Inputs.read(samples.appendingPathComponent("typical.receipt"))
    let root = try Inputs.read(samples.appendingPathComponent("pki/test-root.cer"))
    let analysis = AnalysisOptions(validate: true, roots: [root])
    let document = Document.open(LoadedInput(bytes: bytes, name: "typical.receipt", encoding: .binary, note: ""), options: analysis)
    var lab = LabSession(document: document)
    var edited = false
    // Offset 307: the bundle id's first character; the edit breaks the signature, the undo mends it.
    let timing = Measure.time(runs: options.runs) {
        if edited { lab.undo() } else { lab.replace(at: 307, with: 0x43) }
        edited.toggle()
        return lab.lastChange.count
    }
    say("## Tamper lab: re-open after one edit (LabSession, typical.receipt, validate: true; load average \(Measure.loadAverage()))\n")
    var table = Table(["operation", "median ms", "cpu median ms", "min ms", "max ms", "target"], rightAligned: [1, 2, 3, 4])
    table.add(["edit one byte → Document.open + LabChange", Format.ms(timing.median), Format.ms(timing.cpuMedian),
               Format.ms(timing.min), Format.ms(timing.max), min(timing.median, timing.cpuMedian) < 16e6 ? "< 16 ms: met" : "< 16 ms: **missed**"])
    say(table.render())
    say("")
    kv("lab.reopen_ms", Format.fixed(timing.median / 1e6, 3))
}
