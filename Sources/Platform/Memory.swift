/// Memory advice that only some kernels take.
public enum MemoryAdvice {
    /// `madvise(MADV_HUGEPAGE)` on Linux (transparent huge pages, often `madvise`-only there); nil on
    /// macOS, which has no such advice (its large pages are not asked for per range).
    public static let hugePages: Int32? = {
        #if canImport(Glibc)
        return Int32(MADV_HUGEPAGE)
        #else
        return nil
        #endif
    }()
}

/// Heap the allocator keeps after it was freed.
public enum FreedHeap {
    /// Hands the heap's free pages back to the system (glibc's `malloc_trim`; macOS's zone pressure
    /// relief). For the moment after a large structure goes and before the next is built: `redact`
    /// lets the original receipt go before it opens the copy, and glibc kept 3–4 MB of the freed
    /// heap, which the copy's pages then stacked on (issue 32). Not a policy for every allocation:
    /// called only there.
    public static func returnToSystem() {
        #if canImport(Glibc)
        _ = trim?(0)
        #elseif canImport(Darwin)
        _ = malloc_zone_pressure_relief(nil, 0)
        #endif
    }

    #if canImport(Glibc)
    /// `malloc_trim` (malloc.h, which the Glibc module leaves out), found in the C library already
    /// loaded; nil with a C library that lacks it (musl), where there is nothing to trim.
    private static let trim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
    #endif
}
