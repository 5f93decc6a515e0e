// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets for receipt-explorer. A separate package so that the main package's build and
// dependency graph stay light; it depends on the main package by path.
//
// Build one target (what Scripts/fuzz.sh does):
//   swift build --package-path Fuzz --scratch-path .build-fuzz -c debug --product FuzzParse \
//     -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
let package = Package(
    name: "receipt-explorer-fuzz",
    dependencies: [
        .package(name: "receipt-explorer", path: ".."),
    ],
    targets: [
        // (a) input loading (raw/base64/PEM/JSON detection) + parsing; traps on any broken invariant.
        .executableTarget(
            name: "FuzzParse",
            dependencies: [.product(name: "ASN1Lenient", package: "receipt-explorer")]
        ),
    ],
    swiftLanguageModes: [.v5]
)
