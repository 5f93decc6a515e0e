# The release binary's build, sourced by release.sh and by the benchmarks that measure it
# (bench-floor.sh, bench-memory.sh), so they measure what ships: `"${release_build[@]}" --product …`.
#
# --static-swift-stdlib links the Swift runtime and FoundationEssentials into the binary (no ICU: the
# Sources import FoundationEssentials only, issue 21); --disable-local-rpath drops SwiftPM's $ORIGIN
# runpath (an installed binary must not load libraries from the directory it sits in).
# --no-export-dynamic undoes the -export-dynamic that --static-swift-stdlib links with: the binary then
# exports none of its ~8,500 Swift symbols, which the loader otherwise maps and searches at every start
# (0.45 MB of `--version`'s peak RSS; docs/performance.md, "Start-up").
# -no-pie links a fixed-address executable: as a PIE the loader applied 49,165 relative relocations
# at every start, writing into 160 pages of data (2.67 M instructions and 344 page faults for
# `--version`, against 2.03 M and 175). The cost: the executable's own code is not at a random
# address (the libraries, stack and heap still are; docs/performance.md, "Start-up").
# Its own scratch path keeps the debug build's cache.
release_build=(swift build -c release --static-swift-stdlib --disable-local-rpath
               -Xlinker --no-export-dynamic -Xlinker -no-pie --scratch-path .build-release)
