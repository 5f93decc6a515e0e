import ASN1Lenient
import BenchExplorerUI
import BenchSupport
import DocumentCore
import ReceiptKit
import TextLoader

/// Timings for the explorer's cost model, printed by bench-report's UI section: load (parse,
/// receipt analysis, O(n) state set-up), the first frame, and each key from press to drawn grid
/// (`reduce` + `render`). Nothing here performs I/O.
enum UIBenchmark {
    public struct KeyTiming: Sendable {
        public var key: String
        public var milliseconds: Double
    }

    public struct Result: Sendable {
        public var nodeCount: Int
        public var byteCount: Int
        /// `Document.open` (parse, and receipt analysis for a SignedData) + `AppState` set-up.
        public var loadMilliseconds: Double
        /// Of the load, the `AppState` set-up alone (the rest is `Document.open`).
        public var stateMilliseconds: Double = 0
        /// The first `render` alone.
        public var renderMilliseconds: Double
        /// Load plus the first render: what the user waits for before seeing anything.
        public var firstFrameMilliseconds: Double { loadMilliseconds + renderMilliseconds }
        /// Each key: `reduce` plus the `render` that follows it.
        public var keys: [KeyTiming]
        /// One outline search (`LayerOutline.search`; the first one makes the index), reported apart from the per-key figures.
        public var searchMilliseconds: Double?
        public var searchHits: Int?

        public var meanKeyMilliseconds: Double { keys.isEmpty ? 0 : keys.map(\.milliseconds).reduce(0, +) / Double(keys.count) }
        public var maxKey: KeyTiming? { keys.max { $0.milliseconds < $1.milliseconds } }

        /// A few lines for a report.
        public var summary: String {
            var out = "nodes \(nodeCount), bytes \(byteCount)\n"
            out += "load \(format(loadMilliseconds)) ms + first render \(format(renderMilliseconds)) ms = first frame \(format(firstFrameMilliseconds)) ms\n"
            out += "keys: mean \(format(meanKeyMilliseconds)) ms"
            if let worst = maxKey { out += ", max \(format(worst.milliseconds)) ms (\(worst.key))" }
            out += " over \(keys.count) keys\n"
            for k in keys { out += "  \(k.key): \(format(k.milliseconds)) ms\n" }
            if let s = searchMilliseconds { out += "search (all nodes): \(format(s)) ms, \(searchHits ?? 0) hits\n" }
            return out
        }

        func format(_ v: Double) -> String {
            let scaled = (v * 1000).rounded() / 1000
            return "\(scaled)"
        }
    }

    /// Navigation keys that exercise every cost path: moves, pages, expand / collapse all, ends,
    /// the hex cursor, diagnostics, focus, views.
    public static let defaultKeys: [InputEvent] = [
        .down, .down, .down, .up, .right, .right, .left, .pageDown, .pageDown, .pageUp,
        .character("E"), .end, .pageUp, .home, .character("*"), .pageDown, .character("C"), .character("E"),
        .tab, .right, .down, .pageDown, .tab, .tab, .character("G"), .character("g"),
        .character("]"), .character("["), .character("x"), .character("H"), .character("H"),
        .resize(GridSize(width: 80, height: 24)), .down, .resize(GridSize(width: 120, height: 40)),
        .character("2"), .character("3"), .down, .end, .enter, .character("p"), .character("1"),
        .control("f"), .control("d"), .control("u"), .control("b"),
    ]

    /// Opens `bytes` as the explore command does, renders the first frame, then
    /// times each key. `search` additionally times one query over all nodes. With `repeats` > 1 the
    /// key sequence is replayed from the loaded state that many times and each key's median is
    /// reported (timings on a shared machine are noisy).
    public static func run(bytes: [UInt8], fileName: String = "bench", size: GridSize = GridSize(width: 120, height: 40),
                           keys: [InputEvent] = defaultKeys, validate: Bool = true,
                           search: String? = nil, repeats: Int = 1) -> Result {
        let clock = ContinuousClock()
        var state: AppState?
        var stateTime = Duration.zero
        let load = clock.measure {
            // The explore command's path: one Document.open (which reads a SignedData as a receipt).
            let input = LoadedInput(bytes: bytes, name: fileName, encoding: .binary, note: "")
            let document = Document.open(input, options: AnalysisOptions(validate: validate))
            stateTime = clock.measure { state = AppState(document: document, screen: size) }
        }
        let loaded = state!
        var grid = Grid(size: size)
        let first = clock.measure { grid = render(loaded, size: size) }
        var samples = [[Double]](repeating: [], count: keys.count)
        var s = loaded
        for _ in 0..<max(1, repeats) {
            s = loaded
            // (The expansion bitset is no longer settable outside ExplorerUI: its copy-on-write, about
            // 10 µs for a million nodes, falls in the first key that changes it.)
            var current = size
            for (i, key) in keys.enumerated() {
                let t = clock.measure {
                    reduce(&s, key)
                    if case .resize(let newSize) = key { current = newSize }
                    grid = render(s, size: current)
                }
                samples[i].append(milliseconds(t))
            }
        }
        _ = grid
        let timings = keys.indices.map { i in
            KeyTiming(key: describe(keys[i]), milliseconds: samples[i].sorted()[samples[i].count / 2])
        }
        var searchTime: Double?
        var hits: Int?
        if let search {
            var found: [Int] = []
            searchTime = milliseconds(clock.measure { found = s.outline.search(search) })
            hits = found.count
        }
        return Result(nodeCount: s.tree.count, byteCount: bytes.count, loadMilliseconds: milliseconds(load),
                      stateMilliseconds: milliseconds(stateTime),
                      renderMilliseconds: milliseconds(first), keys: timings, searchMilliseconds: searchTime, searchHits: hits)
    }

    /// Search in the explorer: `/`, the query typed, Enter. Times the first Enter on a freshly
    /// opened state (what the user waits for the first time), a second Enter with another query,
    /// one key typed into the search prompt, `n` and `N`; each with the render that follows.
    /// `rows` (outline rows, or tree nodes), `hits` and `secondHits` say what was searched and found.
    public struct SearchTiming: Sendable {
        /// Wall and thread CPU milliseconds of one step.
        public struct Step: Sendable { public var wall: Double; public var cpu: Double }
        public var rows: Int
        public var hits: Int
        public var secondHits: Int
        public var firstEnter: Step
        public var secondEnter: Step
        public var promptKey: Step
        public var next: Step
        public var previous: Step
    }

    public static func outlineSearch(_ input: LoadedInput, queries: (String, String),
                                     size: GridSize = GridSize(width: 120, height: 40)) -> SearchTiming {
        let (timing, state) = search(input, queries: queries, size: size)
        precondition(state.layered.document.layers.count > 1, "\(input.name) did not open as a layered (StoreKit) document")
        return timing
    }

    /// `/`, a query, Enter, then a second query and Enter, `n` and `N`, on a fresh state opened
    /// with `validate: false` (search reads the tree or the outline, never the verdicts). `view`
    /// is pressed (untimed) before each `/`: "3" searches from the purchases view, "2" from the
    /// summary. Returns the timings and the state after the last step.
    public static func search(_ input: LoadedInput, queries: (String, String), view: InputEvent? = nil,
                              size: GridSize = GridSize(width: 120, height: 40)) -> (SearchTiming, AppState) {
        let clock = ContinuousClock()
        let document = Document.open(input, options: AnalysisOptions(validate: false))
        var s = AppState(document: document, screen: size)
        var grid = render(s, size: size)
        func timed(_ events: [InputEvent]) -> SearchTiming.Step {
            let cpu = Measure.threadCPU()
            let wall = milliseconds(clock.measure {
                for e in events { reduce(&s, e) }
                grid = render(s, size: size)
            })
            return SearchTiming.Step(wall: wall, cpu: Double(Measure.threadCPU() - cpu) / 1e6)
        }
        func type(_ text: String) { for c in text { reduce(&s, .character(c)) } }
        if let view { reduce(&s, view) }
        reduce(&s, .character("/"))
        let promptKey = timed([.character(queries.0.first!)])
        type(String(queries.0.dropFirst()))
        let first = timed([.enter])
        let hits = s.search.hits.count
        if let view { reduce(&s, view) }
        reduce(&s, .character("/"))
        type(queries.1)
        let second = timed([.enter])
        let secondHits = s.search.hits.count
        let next = timed([.character("n")])
        let previous = timed([.character("N")])
        _ = grid
        let rows = s.outline.count
        return (SearchTiming(rows: rows, hits: hits, secondHits: secondHits, firstEnter: first, secondEnter: second,
                             promptKey: promptKey, next: next, previous: previous), s)
    }

    static func milliseconds(_ d: Duration) -> Double {
        let c = d.components
        return Double(c.seconds) * 1000 + Double(c.attoseconds) / 1e15
    }

    static func describe(_ key: InputEvent) -> String {
        switch key {
        case .character(let c): return "'\(c)'"
        case .control(let c): return "Ctrl-\(c)"
        case .resize(let s): return "resize \(s.width)x\(s.height)"
        case .mouseClick(let x, let y): return "click \(x),\(y)"
        case .wheelUp: return "wheel up"
        case .wheelDown: return "wheel down"
        default: return "\(key)"
        }
    }
}
