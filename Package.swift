// swift-tools-version: 6.0
import PackageDescription

// Layers, left to right; each target imports only those to its left:
// ASN1Lenient (bytes → tree) → ReceiptKit (PKCS#7, schema, OpenSSL) → DocumentModel (byte layers, one
// open for every command and the UI) → ExplorerUI (state, pure render) → TerminalAdapter (ncurses)
// → receipt-explorer (commands).
let package = Package(
    name: "receipt-explorer",
    products: [
        .executable(name: "receipt-explorer", targets: ["receipt-explorer"]),
        .library(name: "ASN1Lenient", targets: ["ASN1Lenient"]),
        .library(name: "ReceiptKit", targets: ["ReceiptKit"]),
        .library(name: "DocumentModel", targets: ["DocumentModel"]),
        .library(name: "JWSKit", targets: ["JWSKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Pure Swift, no C and no Foundation in the hot loop: the offset-recording, error-tolerant parser.
        .target(name: "ASN1Lenient"),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .target(name: "ReceiptKit", dependencies: ["ASN1Lenient", "COpenSSL"]),
        // Pure Swift: the offset-recording, error-tolerant JSON reader for JWS headers and payloads.
        .target(name: "JSONLenient", dependencies: ["ASN1Lenient"]),
        // StoreKit 2: compact JWS, its byte layers, payload schema and ES256 / x5c verification.
        .target(name: "JWSKit", dependencies: ["ASN1Lenient", "JSONLenient", "ReceiptKit", "COpenSSL"]),
        .target(name: "DocumentModel", dependencies: ["ASN1Lenient", "ReceiptKit", "JSONLenient", "JWSKit"]),
        .target(name: "ExplorerUI", dependencies: ["ASN1Lenient", "ReceiptKit", "DocumentModel"]),
        // No pkgConfig: ncursesw.pc adds -D_XOPEN_SOURCE=600 (a "prohibited flag" warning); shim.h sets what it needs.
        .systemLibrary(name: "CNcurses", providers: [.apt(["libncurses-dev"])]),
        .target(name: "TerminalAdapter", dependencies: ["ExplorerUI", "CNcurses"]),
        .executableTarget(
            name: "receipt-explorer",
            dependencies: [
                "ASN1Lenient", "ReceiptKit", "DocumentModel", "ExplorerUI", "TerminalAdapter",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Paths to samples and the shared corpus, and one DER builder, for every test target.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ASN1LenientTests", dependencies: ["ASN1Lenient", "TestSupport"]),
        .testTarget(name: "ReceiptKitTests", dependencies: ["ReceiptKit", "ASN1Lenient", "TestSupport"]),
        .testTarget(name: "ExplorerUITests", dependencies: ["ExplorerUI", "TerminalAdapter", "ReceiptKit", "ASN1Lenient", "DocumentModel", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["receipt-explorer", "TestSupport"]),
    ],
    swiftLanguageModes: [.v5]
)
