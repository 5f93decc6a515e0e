import ASN1Lenient
import DocumentCore
import ExplorerUI
import FuzzSupport

/// Fuzz target (c): `render(state, size)` after a key sequence, on the fuzzed file.
///
/// Input layout: byte 0 → width 1...200 (small widths included: layouts must not crash at 1×1),
/// byte 1 → height 1...80, byte 2 → number of keys (low 6 bits) and a hostile file name (bit 7),
/// then one byte per key (an index into `keys`; mouse and resize events take two more bytes), then
/// the file. The file is loaded as `explore` loads it (so base64, PEM, a compact JWS and StoreKit JSON
/// open as they do there, and StoreKit documents get their outline, summary and transaction views),
/// every key goes through `reduce`, and the grid is rendered after each key. Traps when:
/// - the grid is not exactly the requested size,
/// - any cell holds a control scalar (C0, DEL, C1), a bidi override/isolate or another invisible
///   format character.
/// `.writeFile` effects are never performed; `.quit` ends the sequence.
let keys: [InputEvent] = [
    .up, .down, .left, .right, .pageUp, .pageDown, .home, .end, .enter, .tab, .backTab, .escape, .backspace,
    .character("j"), .character("k"), .character("h"), .character("l"), .character("g"), .character("G"),
    .character("/"), .character("n"), .character("N"), .character("?"), .character("x"), .character("H"),
    .character("r"), .character("1"), .character("2"), .character("3"), .character(":"), .character("]"),
    .character("["), .character("w"), .character("*"), .character("E"), .character("C"), .character("p"),
    .character("s"), .character("S"), .character(" "), .character("0"), .character("a"), .character("e"),
    // Characters that may reach a prompt by paste: each must be escaped when the prompt is drawn.
    .character("\u{202E}"), .character("\u{9B}"), .character("é"), .character("\u{1B}"),
    .control("c"), .control("l"), .character("b"),
]
// Indices ≥ keys.count: mouse click, wheel up, wheel down, resize (two more bytes each).

let hostileName = "fuzz\u{1B}]0;title\u{07}\u{202E}gpj.der"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRender(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    guard size >= 3 else { return 0 }
    var screen = GridSize(width: 1 + Int(input[0]) % 200, height: 1 + Int(input[1]) % 80)
    let keyCount = Int(input[2] & 0x3F)
    let name = input[2] & 0x80 != 0 ? hostileName : "fuzz.der"
    var p = 3
    var events: [InputEvent] = []
    while events.count < keyCount && p < size {
        let k = Int(input[p]) % (keys.count + 4)
        p += 1
        if k < keys.count {
            events.append(keys[k])
            continue
        }
        guard p + 2 <= size else { break }
        let a = Int(input[p]), b = Int(input[p + 1])
        p += 2
        switch k - keys.count {
        case 0: events.append(.mouseClick(x: a % 220, y: b % 90))
        case 1: events.append(.wheelUp(x: a % 220, y: b % 90))
        case 2: events.append(.wheelDown(x: a % 220, y: b % 90))
        default: events.append(.resize(GridSize(width: 1 + a % 200, height: 1 + b % 80)))
        }
    }
    // Loaded and opened as `explore` does: the loader (which may refuse, with a message checked
    // here), then one Document (parse, locate, decode, validate), then the state.
    guard var loaded = loadOrCheckRefusal(Array(input[p...])) else { return 0 }
    loaded.name = name
    let document = Document.open(loaded)
    var state = AppState(document: document, screen: screen)
    check(render(state, size: screen), screen, "initial")
    for (i, event) in events.enumerated() {
        if case .resize(let newSize) = event { screen = newSize }
        let effect = reduce(&state, event)
        // Slow work (a tamper-lab re-open, a diff) runs at once here; the adapter runs it on a worker thread.
        if let work = effect?.work { reduce(&state, work()) }
        check(render(state, size: screen), screen, "after key \(i) \(event)")
        if effect == .quit { break }
    }
    return 0
}

func check(_ grid: Grid, _ size: GridSize, _ what: String) {
    guard grid.size == size, grid.cells.count == size.width * size.height else {
        fatalError("\(what): grid is \(grid.size) with \(grid.cells.count) cells, expected \(size)")
    }
    for cell in grid.cells { checkScalar(cell.scalar, "\(what): a cell") }
}

@_cdecl("FuzzRender_main")
func fuzzRenderMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    // A closure, not `fuzzRender` itself: converting the @_cdecl function emits a second C symbol.
    return LLVMFuzzerRunDriver(&argc, &argv, { data, size in fuzzRender(data, size) })
}
