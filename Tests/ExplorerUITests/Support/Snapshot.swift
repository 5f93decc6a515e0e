import Testing
@testable import ExplorerUI

/// Grid snapshots: the screen text and its style mask (one character per cell, see `StyleClass`),
/// stored side by side in `Snapshots/<name>.txt`. With `RECORD_SNAPSHOTS=1` the files are written
/// (and the test fails, so recording is never silent); otherwise they are compared and a failure
/// shows the differing lines.
enum Snapshot {
    static let directory: String = {
        var path = #filePath
        for _ in 0..<2 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/Snapshots"
    }()

    static var recording: Bool { getenv("RECORD_SNAPSHOTS").map { String(cString: $0) == "1" } ?? false }

    static func document(_ grid: Grid, color: Bool = true) -> String {
        "size \(grid.size.width)x\(grid.size.height)\n--- text\n" + grid.text + "\n--- style\n" + Theme.mask(grid, color: color) + "\n"
    }

    static func assert(_ grid: Grid, named name: String, color: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = directory + "/" + name + ".txt"
        let actual = document(grid, color: color)
        if recording {
            writeFile(path, actual)
            Issue.record(Comment(rawValue: "recorded snapshot \(name); run again without RECORD_SNAPSHOTS=1"), sourceLocation: sourceLocation)
            return
        }
        guard let expected = Fixtures.readFile(path).map({ String(decoding: $0, as: UTF8.self) }) else {
            Issue.record(Comment(rawValue: "missing snapshot \(path); record it with RECORD_SNAPSHOTS=1"), sourceLocation: sourceLocation)
            return
        }
        if expected != actual {
            Issue.record(Comment(rawValue: "snapshot \(name) differs:\n" + diff(expected, actual)), sourceLocation: sourceLocation)
        }
    }

    static func diff(_ expected: String, _ actual: String) -> String {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [String] = []
        for i in 0..<max(e.count, a.count) {
            let x = i < e.count ? String(e[i]) : "<none>"
            let y = i < a.count ? String(a[i]) : "<none>"
            if x != y { out.append("line \(i + 1):\n  expected: \(x)\n  actual:   \(y)") }
            if out.count > 12 { out.append("…"); break }
        }
        return out.joined(separator: "\n")
    }

    static func writeFile(_ path: String, _ text: String) {
        guard let f = fopen(path, "wb") else { return }
        defer { fclose(f) }
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
    }
}

import Platform
