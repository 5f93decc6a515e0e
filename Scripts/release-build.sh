# The release binary's build, sourced by release.sh and by the benchmarks that measure it
# (bench-floor.sh, bench-memory.sh, bench-line-profile.sh), so they measure what ships:
# `"${release_build[@]}" --product …`, or `release_binary`.
#
# --static-swift-stdlib links the Swift runtime and FoundationEssentials into the binary (no ICU: the
# Sources import FoundationEssentials only, issue 21); --disable-local-rpath drops SwiftPM's $ORIGIN
# runpath (an installed binary must not load libraries from the directory it sits in).
# --no-export-dynamic undoes the -export-dynamic that --static-swift-stdlib links with: the binary then
# exports none of its ~8,500 Swift symbols, which the loader otherwise maps and searches at every start
# (0.45 MB of `--version`'s peak RSS; docs/performance.md, "Start-up").
# It stays a PIE: without one (-Xlinker -no-pie) `--version` would start in 2.03 M instructions and
# 175 page faults instead of 2.67 M and 344 (49,165 relative relocations write 160 pages at every
# start), but the code of a tool that reads hostile input would sit at a fixed address, a ready
# supply of gadgets for any memory bug (docs/performance.md, "Start-up").
# Its own scratch path keeps the debug build's cache.
release_build=(swift build -c release --static-swift-stdlib --disable-local-rpath
               -Xlinker --no-export-dynamic --scratch-path .build-release)

# Builds the release binary (build output on stderr) and prints its path: a benchmark's default
# when it is given no --binary.
release_binary() {
    "${release_build[@]}" --product receipt-explorer >&2
    echo "$("${release_build[@]}" --show-bin-path)/receipt-explorer"
}
