import ASN1Lenient
import BenchSupport
import Foundation
import BenchExplorerUI
import TextLoader

/// TUI first-frame and per-key times through ExplorerUI's `UIBenchmark` (load = parse + receipt
/// analysis + state set-up; first frame = load + first render; a key = reduce + render).
/// Targets (issue 12, was 150 ms in the UI issue): first frame < 100 ms and < 2 ms per key at
/// 10,000 purchases and at 1,000,000 nodes.
func uiSection(options: Options, say: (String) -> Void, kv: (String, String) -> Void) throws {
    var cases: [(key: String, name: String, url: URL)] = [
        ("large10000", "large-10000.receipt (10,000 purchases)", try Inputs.largeReceiptPath()),
        ("nodes1m", "payload, exactly 1,000,000 nodes", try Inputs.payloadPath(arguments: ["--nodes", "1000000"])),
    ]
    // `BENCH_UI_ONLY=large10000`: one case alone, e.g. under valgrind --tool=callgrind.
    if let only = ProcessInfo.processInfo.environment["BENCH_UI_ONLY"] { cases = cases.filter { $0.key == only } }
    say("## Terminal UI: first frame and per key (UIBenchmark, wall clock; median of \(options.runs) runs, 120×40; load average \(Measure.loadAverage()))\n")
    var table = Table(["input", "nodes", "load ms", "of which state ms", "first render ms", "first frame ms", "key mean ms", "key max ms (key)", "targets"],
                      rightAligned: [1, 2, 3, 4, 5, 6, 7])
    for c in cases {
        let bytes = try Inputs.read(c.url)
        var results: [UIBenchmark.Result] = []
        _ = UIBenchmark.run(bytes: bytes, fileName: c.url.lastPathComponent)  // warm-up
        for _ in 0..<options.runs { results.append(UIBenchmark.run(bytes: bytes, fileName: c.url.lastPathComponent)) }
        func median(_ values: [Double]) -> Double {
            let s = values.sorted(); let n = s.count
            return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
        }
        let load = median(results.map(\.loadMilliseconds))
        let render = median(results.map(\.renderMilliseconds))
        let first = median(results.map(\.firstFrameMilliseconds))
        // Each key's median over the runs; then their mean and the worst of them.
        let keyCount = results[0].keys.count
        var worst = (name: "", ms: 0.0)
        var sum = 0.0
        for k in 0..<keyCount {
            let m = median(results.map { $0.keys[k].milliseconds })
            sum += m
            if m > worst.ms { worst = (results[0].keys[k].key, m) }
        }
        let mean = keyCount == 0 ? 0 : sum / Double(keyCount)
        let met = (first < 100 ? "first frame met" : "first frame **missed**") + ", " + (worst.ms < 2 ? "keys met" : "keys **missed**")
        let state = median(results.map(\.stateMilliseconds))
        table.add([c.name, Format.grouped(results[0].nodeCount), Format.fixed(load, 1), Format.fixed(state, 1), Format.fixed(render, 2),
                   Format.fixed(first, 1), Format.fixed(mean, 3), "\(Format.fixed(worst.ms, 3)) (\(worst.name))", met])
        kv("ui.\(c.key).nodes", String(results[0].nodeCount))
        kv("ui.\(c.key).first_frame_ms", Format.fixed(first, 2))
        kv("ui.\(c.key).key_mean_ms", Format.fixed(mean, 3))
        kv("ui.\(c.key).key_max_ms", Format.fixed(worst.ms, 3))
    }
    say(table.render())
    try historySearch(options: options, say: say, kv: kv)
    try receiptSearch(options: options, say: say, kv: kv)
    say("\nload = parse + receipt analysis (validate: true) + state set-up; first frame = load + first render; a key = reduce + render, median per key over the runs, then mean and worst over the keys.")
    say("\nKeys: UIBenchmark.defaultKeys (\(UIBenchmark.defaultKeys.count) keys: moves, pages, expand/collapse all, ends, hex cursor, diagnostics, focus, views, resizes).\n")
}

/// Search in the explorer on a 1,000-transaction history (271,002 outline rows; issue 10 left it at
/// ≈ 1.7 s per Enter). Targets: Enter < 100 ms, every key < 2 ms.
func historySearch(options: Options, say: (String) -> Void, kv: (String, String) -> Void) throws {
    if let only = ProcessInfo.processInfo.environment["BENCH_UI_ONLY"], only != "history_search" { return }
    let url = try Inputs.historyPath(transactions: 1000)
    // Through the loader, as `explore` reads a file (it tells the JSON body from DER).
    let input = try InputLoader.load(path: url.path)
    // The first query is a transaction id (one transaction), the second a certificate's subject (every token).
    let queries = ("2000000510000500", "storekit signing")
    var runs: [UIBenchmark.SearchTiming] = []
    for _ in 0..<max(1, options.runs) { runs.append(UIBenchmark.outlineSearch(input, queries: queries)) }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    say("\n## Search on \(url.lastPathComponent) (1,000 transactions, \(Format.grouped(runs[0].rows)) outline rows; median of \(runs.count) runs, 120×40; load average \(Measure.loadAverage()))\n")
    var table = Table(["step", "wall ms", "CPU ms", "target"], rightAligned: [1, 2])
    func row(_ name: String, _ step: KeyPath<UIBenchmark.SearchTiming, UIBenchmark.SearchTiming.Step>, target: Double, key: String) {
        let wall = median(runs.map { $0[keyPath: step].wall }), cpu = median(runs.map { $0[keyPath: step].cpu })
        let digits = target < 10 ? 3 : 2
        table.add([name, Format.fixed(wall, digits), Format.fixed(cpu, digits), "< \(Int(target)): " + (wall < target ? "met" : "**missed**")])
        kv("ui.history_search.\(key)_ms", Format.fixed(wall, digits))
        kv("ui.history_search.\(key)_cpu_ms", Format.fixed(cpu, digits))
    }
    row("first Enter (\"\(queries.0)\", \(runs[0].hits) hit; a fresh state)", \.firstEnter, target: 100, key: "first_enter")
    row("second Enter (\"\(queries.1)\")", \.secondEnter, target: 100, key: "second_enter")
    row("a key typed in the search prompt", \.promptKey, target: 2, key: "prompt_key")
    row("n (next match)", \.next, target: 2, key: "next")
    say(table.render())
    say("\nOpened with `validate: false` (search reads the outline, not the verdicts); each run opens a fresh state, so the first Enter includes whatever the first search builds. `BENCH_UI_ONLY=history_search` runs this table alone.\n")
}

/// Search (`/`, `n`, `N`) on the 10,000-purchase receipt and the 1,000,000-node payload, from the
/// tree and from the purchases and summary views (a hit always lands in the tree). Targets as the history's:
/// first Enter < 100 ms, a later Enter and `n` / `N` < 2 ms.
func receiptSearch(options: Options, say: (String) -> Void, kv: (String, String) -> Void) throws {
    if let only = ProcessInfo.processInfo.environment["BENCH_UI_ONLY"], only != "receipt_search" { return }
    let receipt = try Inputs.largeReceiptPath(), payload = try Inputs.payloadPath(arguments: ["--nodes", "1000000"])
    // First a transaction id (one purchase), then a product id (every 50th purchase) / a product (every 4th).
    let cases: [(key: String, name: String, url: URL, queries: (String, String), view: InputEvent?)] = [
        ("large10000_tree", "large-10000.receipt, tree", receipt, ("3000000000005000", "item07"), nil),
        ("large10000_purchases", "large-10000.receipt, purchases view", receipt, ("3000000000005000", "item07"), .character("3")),
        ("large10000_summary", "large-10000.receipt, summary view", receipt, ("3000000000005000", "item07"), .character("2")),
        ("nodes1m_tree", "payload, 1,000,000 nodes, tree", payload, ("1000000248855692", "coins100"), nil),
    ]
    say("\n## Search on a receipt (median of \(max(1, options.runs)) runs, 120×40; wall / thread CPU ms; load average \(Measure.loadAverage()))\n")
    var table = Table(["input, view", "nodes", "hits (1st / 2nd)", "first Enter", "second Enter", "prompt key", "n", "N", "targets (< 100, < 2)"],
                      rightAligned: [1, 2, 3, 4, 5, 6, 7])
    for c in cases {
        let input = try InputLoader.load(path: c.url.path)
        var runs: [UIBenchmark.SearchTiming] = []
        for _ in 0..<max(1, options.runs) { runs.append(UIBenchmark.search(input, queries: c.queries, view: c.view).0) }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        func cell(_ step: KeyPath<UIBenchmark.SearchTiming, UIBenchmark.SearchTiming.Step>, _ key: String) -> (String, Double) {
            let wall = median(runs.map { $0[keyPath: step].wall }), cpu = median(runs.map { $0[keyPath: step].cpu })
            kv("ui.receipt_search.\(c.key).\(key)_ms", Format.fixed(wall, 3))
            kv("ui.receipt_search.\(c.key).\(key)_cpu_ms", Format.fixed(cpu, 3))
            return ("\(Format.fixed(wall, 2)) / \(Format.fixed(cpu, 2))", cpu)
        }
        let first = cell(\.firstEnter, "first_enter"), second = cell(\.secondEnter, "second_enter")
        let key = cell(\.promptKey, "prompt_key"), next = cell(\.next, "next"), previous = cell(\.previous, "previous")
        let later = max(second.1, next.1, previous.1)
        let met = (first.1 < 100 ? "met" : "**missed**") + ", " + (later < 2 ? "met" : "**missed**")
        table.add([c.name, Format.grouped(runs[0].rows), "\(runs[0].hits) / \(runs[0].secondHits)", first.0, second.0, key.0, next.0, previous.0, met])
    }
    say(table.render())
    say("\nQueries: a transaction id, then a product id (\"item07\" on the receipt, \"coins100\" on the payload). Opened with `validate: false`; each run opens a fresh state, so the first Enter includes whatever the first search builds; the purchases view presses `3` before each `/`, the summary `2`; the payload is not a receipt (no purchases or summary view). Targets judged on CPU time. `BENCH_UI_ONLY=receipt_search` runs this table alone.\n")
}
