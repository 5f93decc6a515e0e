import Platform
import ExplorerUI

/// Frame timings for `RECEIPT_EXPLORER_TIMING`: one line per frame, appended to a file (stderr is
/// the terminal). Times in milliseconds with microsecond resolution.
final class FrameTimingLog {
    private let file: UnsafeMutablePointer<FILE>

    init?(path: String) {
        guard let file = fopen(path, "a") else { return nil }
        self.file = file
    }

    func firstFrame(sinceStart: Duration, setup: Duration, phases: [(name: String, duration: Duration)], render: Duration,
                    copy: Duration, refresh: Duration, cells: Int, size: GridSize) {
        let detail = phases.map { " \($0.name)_ms=\(ms($0.duration))" }.joined()
        line("first-frame total_ms=\(ms(sinceStart)) setup_ms=\(ms(setup))\(detail) render_ms=\(ms(render)) copy_ms=\(ms(copy)) refresh_ms=\(ms(refresh)) cells=\(cells) size=\(size.width)x\(size.height)")
    }

    func frame(events: [InputEvent], reduce: Duration, render: Duration, copy: Duration, refresh: Duration, cells: Int) {
        let keys = events.map { String("\($0)".filter { $0 != " " }) }.joined(separator: ",")
        line("frame keys=\(keys) total_ms=\(ms(reduce + render + copy + refresh)) reduce_ms=\(ms(reduce)) render_ms=\(ms(render)) copy_ms=\(ms(copy)) refresh_ms=\(ms(refresh)) cells=\(cells)")
    }

    func close() { fclose(file) }

    private func line(_ text: String) {
        fputs(text + "\n", file)
        fflush(file)
    }

    private func ms(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let whole = micros / 1000
        let fraction = micros % 1000
        return "\(whole)." + String(repeating: "0", count: 3 - String(fraction).count) + String(fraction)
    }
}
