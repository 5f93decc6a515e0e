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

    /// Every block of 128 KB or more gets pages of its own and gives them back when freed, for the
    /// rest of the process. glibc starts so, but raises that size to the largest such block freed
    /// (up to 32 MB), and blocks under it are then kept by the heap after they are freed: `redact`,
    /// reading 50 MB of pasted text a second time (its copy), stacked the finder's buffers on the
    /// freed ones of the first read, 33 MiB above the first (issue 32). Not for every command: a
    /// batch's output buffers would then be mapped again at each use (+1.8 % on `verify --lines`).
    /// macOS's allocator has no such threshold: nothing to do.
    public static func returnLargeBlocksWhenFreed() {
        #if canImport(Glibc)
        _ = setOption?(mmapThreshold, 128 << 10)
        #endif
    }

    #if canImport(Glibc)
    /// `M_MMAP_THRESHOLD` (malloc.h); setting it stops glibc's adjusting it.
    private static let mmapThreshold: Int32 = -3

    /// `mallopt`, found as `malloc_trim` is; nil where the C library lacks it.
    private static let setOption: (@convention(c) (Int32, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
    }()

    /// `malloc_trim` (malloc.h, which the Glibc module leaves out), found in the C library already
    /// loaded; nil with a C library that lacks it (musl), where there is nothing to trim.
    private static let trim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
    #endif
}
