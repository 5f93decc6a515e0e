// swift-tools-version: 6.1
// Benchmarks for receipt-explorer, kept in their own package so that the main package stays light
// (package-benchmark, its malloc interposer and swift-asn1 are not dependencies of the product).
//
//   swift package --disable-sandbox benchmark            # package-benchmark suite (Benchmarks/ParserBenchmarks)
//   swift run -c release bench-report                     # plain table with ratios (also used by Scripts/bench-dump.sh)
//
// See docs/performance.md for what is measured and the numbers.
import Foundation
import PackageDescription

// `.package(path: "..")` takes its identity from the directory name of the checkout (`main` here,
// something else in a fresh clone), so compute it rather than hard-code it.
let rootIdentity = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "receipt-explorer-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(path: ".."),
    ],
    targets: [
        // The main package exports no ExplorerUI product (only its executable uses it), so, like Fuzz/,
        // this package compiles the same sources through the symlink
        // Sources/BenchExplorerUI -> ../../Sources/ExplorerUI (target names must be unique in the graph),
        // for the terminal UI timings of bench-report's `UIBenchmark`.
        .target(
            name: "BenchExplorerUI",
            dependencies: [
                .product(name: "ByteText", package: rootIdentity),
                .product(name: "TextLoader", package: rootIdentity),
                .product(name: "TextOutput", package: rootIdentity),
                .product(name: "Threads", package: rootIdentity),
                .product(name: "ASN1Lenient", package: rootIdentity),
                .product(name: "ReceiptKit", package: rootIdentity),
                .product(name: "DocumentModel", package: rootIdentity),
            ]
        ),
        // glibc mallinfo2 / getrusage, for the heap and RSS numbers of the plain reporter.
        .target(name: "CHeapStats"),
        // Inputs (payload file, real receipt, certificate chain) and the swift-asn1 walkers, shared
        // by the package-benchmark suite and the plain reporter.
        .target(
            name: "BenchSupport",
            dependencies: [
                "CHeapStats",
                .product(name: "ASN1Lenient", package: rootIdentity),
                .product(name: "ReceiptKit", package: rootIdentity),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .executableTarget(
            name: "bench-report",
            dependencies: [
                .product(name: "TextLoader", package: rootIdentity),
                "BenchSupport",
                .product(name: "ASN1Lenient", package: rootIdentity),
                .product(name: "ReceiptKit", package: rootIdentity),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                "BenchExplorerUI",
                .product(name: "DocumentModel", package: rootIdentity),
                .product(name: "JWSKit", package: rootIdentity),
            ]
        ),
        // One parse (or receipt analysis) of one file: a minimal process for valgrind --tool=callgrind and /usr/bin/time.
        .executableTarget(
            name: "parse-once",
            dependencies: [
                .product(name: "ASN1Lenient", package: rootIdentity),
                .product(name: "ReceiptKit", package: rootIdentity),
            ]
        ),
        .executableTarget(
            name: "ParserBenchmarks",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ASN1Lenient", package: rootIdentity),
                .product(name: "ReceiptKit", package: rootIdentity),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Benchmarks/ParserBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
