#include "CHeapStats.h"
#include <stdio.h>
#include <unistd.h>
#include <sys/resource.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

size_t bench_heap_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
#else
    return 0;
#endif
}

size_t bench_peak_rss(void) {
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
#if defined(__APPLE__)
    return (size_t)usage.ru_maxrss;
#else
    return (size_t)usage.ru_maxrss * 1024;
#endif
}

size_t bench_current_rss(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return 0;
    unsigned long size = 0, resident = 0;
    int n = fscanf(f, "%lu %lu", &size, &resident);
    fclose(f);
    if (n != 2) return 0;
    return (size_t)resident * (size_t)sysconf(_SC_PAGESIZE);
}
