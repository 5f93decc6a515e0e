import CHeapStats
// Foundation re-exports the C library on Linux and macOS alike: no platform branch here (issue 35).
import Foundation

/// Wall-clock timing with repeats; the median is what the reports quote.
public struct Timing: Sendable {
    /// Wall-clock nanoseconds per single operation, one entry per run, sorted.
    public let samples: [Double]
    /// CPU nanoseconds of the measuring thread per operation, one entry per run, sorted. On a
    /// machine shared with other work this is the steadier number (time-slicing is not counted).
    public let cpuSamples: [Double]

    public init(samples: [Double], cpuSamples: [Double] = []) {
        self.samples = samples.sorted()
        self.cpuSamples = cpuSamples.sorted()
    }

    public var cpuMedian: Double {
        guard !cpuSamples.isEmpty else { return 0 }
        let n = cpuSamples.count
        return n % 2 == 1 ? cpuSamples[n / 2] : (cpuSamples[n / 2 - 1] + cpuSamples[n / 2]) / 2
    }

    public var median: Double {
        guard !samples.isEmpty else { return 0 }
        let n = samples.count
        return n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2
    }
    public var min: Double { samples.first ?? 0 }
    public var max: Double { samples.last ?? 0 }
}

public enum Measure {
    /// Monotonic nanoseconds.
    @inline(__always)
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// CPU time of the calling thread, in nanoseconds.
    @inline(__always)
    public static func threadCPU() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Load average over the last minute (/proc/loadavg), to print next to the numbers.
    public static func loadAverage() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "?" }
        return String(text.split(separator: " ").first ?? "?")
    }

    /// A sink so the optimiser keeps every result.
    /// nonisolated(unsafe): benchmarks run one at a time on one thread, and the sum only feeds the optimiser.
    nonisolated(unsafe) public static var sink = 0

    /// Runs `body` `runs` times after `warmup` runs; each run repeats `body` until at least
    /// `minimumNanos` have passed (so tiny inputs are timed over many repetitions) and records the
    /// time per call.
    public static func time(runs: Int, warmup: Int = 1, minimumNanos: UInt64 = 20_000_000,
                            _ body: () throws -> Int) rethrows -> Timing {
        for _ in 0..<warmup { sink &+= try body() }
        // Calibrate the repetition count on one call.
        let t0 = now()
        sink &+= try body()
        let one = max(now() - t0, 1)
        let repeats = Swift.max(1, Int(minimumNanos / one))
        var samples: [Double] = []
        var cpuSamples: [Double] = []
        for _ in 0..<runs {
            let start = now()
            let cpuStart = threadCPU()
            for _ in 0..<repeats { sink &+= try body() }
            cpuSamples.append(Double(threadCPU() - cpuStart) / Double(repeats))
            samples.append(Double(now() - start) / Double(repeats))
        }
        return Timing(samples: samples, cpuSamples: cpuSamples)
    }

    /// Heap bytes that `make`'s result keeps alive: allocator bytes in use while the result lives,
    /// minus before. Measured on a warm allocator (after a first run), median of three.
    public static func retainedHeap<T>(_ make: () throws -> T) rethrows -> Int {
        _ = try make()
        var deltas: [Int] = []
        for _ in 0..<3 {
            let before = bench_heap_in_use()
            let result = try make()
            let after = bench_heap_in_use()
            withExtendedLifetime(result) {}
            deltas.append(Int(after) - Int(before))
        }
        deltas.sort()
        return deltas[1]
    }

    public static var heapStatsAvailable: Bool { bench_heap_in_use() > 0 }
    public static func peakRSS() -> Int { Int(bench_peak_rss()) }
    public static func currentRSS() -> Int { Int(bench_current_rss()) }
}
