#ifndef CHEAPSTATS_H
#define CHEAPSTATS_H
#include <stddef.h>

/// Bytes the C allocator has handed out and not taken back (glibc mallinfo2: arena chunks in use
/// plus mmapped chunks). 0 where mallinfo2 is not available.
size_t bench_heap_in_use(void);

/// Peak resident set size of this process so far, in bytes (getrusage ru_maxrss).
size_t bench_peak_rss(void);

/// Current resident set size, in bytes (/proc/self/statm); 0 where unavailable.
size_t bench_current_rss(void);

#endif
