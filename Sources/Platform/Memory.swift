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
