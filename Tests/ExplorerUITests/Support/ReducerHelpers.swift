import ASN1Lenient
import TestSupport
@testable import ExplorerUI

/// Every visible row from the top (not only the pane's), for exact assertions.
func allVisible(_ s: AppState) -> [Int] {
    var out: [Int] = []
    var current: Int? = s.tree.count > 0 ? 0 : nil
    while let node = current { out.append(node); current = s.outlineNext(node) }
    return out
}

/// One event through the reducer; slow work it asks for (a tamper-lab job, a diff: `Effect.work`)
/// is run at once and its message sent back, as the terminal adapter does on a worker thread
/// (`TerminalUI.run`), so the next event sees the result and tests stay deterministic.
@discardableResult
func step(_ s: inout AppState, _ event: InputEvent) -> Effect? {
    let effect = reduce(&s, event)
    if let work = effect?.work {
        reduce(&s, work())
        return nil
    }
    return effect
}

@discardableResult
func press(_ s: inout AppState, _ events: InputEvent...) -> Effect? {
    var last: Effect?
    for e in events { last = step(&s, e) }
    return last
}

func type(_ s: inout AppState, _ text: String) {
    for ch in text { step(&s, .character(ch)) }
}

/// Hand-built defects at known offsets: SEQUENCE { INTEGER 1, INTEGER 02 02 00 01 (not minimal:
/// error), BOOLEAN 01 01 01 (TRUE not as FF: not DER) }. Nodes 0 (offset 0), 1 (2), 2 (5), 3 (9).
let defectBytes: [UInt8] = [0x30, 0x0A, 0x02, 0x01, 0x01, 0x02, 0x02, 0x00, 0x01, 0x01, 0x01, 0x01]

func defects() -> AppState {
    Fixtures.state(defectBytes, name: "defects.der")
}

/// A SET of 50 SEQUENCE { INTEGER, INTEGER }: node 0, then each SEQUENCE at 1 + 3i; all expanded.
func wide(_ count: Int = 50, size: GridSize = GridSize(width: 80, height: 24)) -> AppState {
    Fixtures.state(DER.wideSet(count: count), name: "wide.der", size: size)
}

/// `steps` visible outline rows down from `row` (stops at the last row).
func forward(_ s: AppState, _ row: Int, _ steps: Int) -> Int {
    var current = row
    for _ in 0..<steps { guard let next = s.outlineNext(current) else { break }; current = next }
    return current
}
