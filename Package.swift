// swift-tools-version: 6.0
import PackageDescription

// Layers, left to right; each target imports only those to its left:
// Platform (the C library and every Linux / macOS difference, issue 35) → ByteText, Threads (hex, ISO 8601, UTF-8, terminal-safe text; pthread locks) → ASN1Lenient (bytes → tree)
// → JSONLenient (bytes → JSON tree) → TextLoader (base64, PEM, JSON escapes → bytes) → TextOutput (dumps,
// explain) → ReasonCodes → X509Trust (OpenSSL chains, pinned roots) → ReceiptKit (PKCS#7, receipt schema)
// → JWSKit (StoreKit JWS) → ServerAPI (App Store Server API over CCurl, libcurl by dlopen)
// → DocumentCore (Document, byte layers, the one way in, the registry type and the hooks' protocols, the one verification report)
// → DocumentDiff, DocumentTimeline, DocumentTour, DocumentRedact (each feature over the core, none over another)
// → DocumentFormats (one folder per kind: conforms to the features' hooks, lists the formats) → DocumentBatch (batch lines, over the core)
// → ExplorerUI (state, pure render) → TerminalAdapter (ncurses) → receipt-explorer (commands).
let package = Package(
    name: "receipt-explorer",
    // macOS 13: Swift Regex, Duration and the clocks; nothing newer is used (String(validating:as:) needs
    // macOS 15, so UTF8Text.string stands in). Formula/ says :ventura to match; Linux ignores this.
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "receipt-explorer", targets: ["receipt-explorer"]),
        .library(name: "Platform", targets: ["Platform"]),
        .library(name: "ByteText", targets: ["ByteText"]),
        .library(name: "Threads", targets: ["Threads"]),
        .library(name: "ASN1Lenient", targets: ["ASN1Lenient"]),
        .library(name: "TextLoader", targets: ["TextLoader"]),
        .library(name: "TextOutput", targets: ["TextOutput"]),
        .library(name: "X509Trust", targets: ["X509Trust"]),
        .library(name: "ReceiptKit", targets: ["ReceiptKit"]),
        // The document layer, for the fuzz and benchmark packages: the core, the features, the kinds and batch.
        .library(name: "DocumentModel", targets: ["DocumentCore", "DocumentDiff", "DocumentTimeline", "DocumentTour", "DocumentRedact",
                                                  "DocumentFormats", "DocumentBatch"]),
        .library(name: "JWSKit", targets: ["JWSKit"]),
        // For the fuzz package's render target; the executable is its only other user.
        .library(name: "ExplorerUI", targets: ["ExplorerUI"]),
        // For the fuzz package's response-body target.
        .library(name: "ServerAPI", targets: ["ServerAPI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The only code that branches on the platform: re-exports Glibc / Musl / Darwin and names what
        // differs (spawning, thread start, ru_maxrss units, signal numbers, locales, the clipboard command).
        .target(name: "Platform"),
        // Bytes and text for people: hex, ISO 8601 dates, UTF-8 validation, terminal-safe escaping, plain-text trims.
        .target(name: "ByteText"),
        // pthread Lock, Condition, startThread: no formatting, so not in ByteText; used from X509Trust to the adapter.
        .target(name: "Threads", dependencies: ["Platform"]),
        // Pure Swift, no C and no Foundation in the hot loop: the offset-recording, error-tolerant parser.
        .target(name: "ASN1Lenient", dependencies: ["Platform", "ByteText", "Threads"]),
        // Pure Swift: the offset-recording, error-tolerant JSON reader for JWS headers and payloads.
        .target(name: "JSONLenient", dependencies: ["ASN1Lenient", "ByteText"]),
        // Undoes text encodings (base64, PEM, JSON string escapes, a paste's origin); never decides a kind.
        .target(name: "TextLoader", dependencies: ["Platform", "ASN1Lenient", "ByteText"]),
        // The tree / JSON / openssl-style dumps, explain, and the buffered writers every command prints through.
        .target(name: "TextOutput", dependencies: ["Platform", "ASN1Lenient", "ByteText", "TextLoader"]),
        // The one vocabulary of verification reasons, shared by receipts and tokens.
        .target(name: "ReasonCodes"),
        // OpenSSL 3's headers and C-macro wrappers; on Linux also every libcrypto function the Swift
        // targets call, forwarded to libcrypto loaded by dlopen at the first call, so `--version`,
        // `dump`, `explain` and `json --no-validate` never load it (issue 32, docs/performance.md).
        // libcrypto only: nothing calls libssl (TLS), and loading it cost every start 0.3 MB.
        .target(name: "COpenSSL", dependencies: [.byName(name: "CLibCrypto", condition: .when(platforms: [.macOS]))],
                linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // macOS links libcrypto: Homebrew's openssl@3 is keg-only, found through PKG_CONFIG_PATH (README, macOS).
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.brew(["openssl@3"])]),
        // X.509 trust for receipts and tokens: decoded certificates and their facts, OpenSSL path checks,
        // pinned Apple roots and user roots, the verified-path cache.
        .target(name: "X509Trust", dependencies: ["Platform", "ASN1Lenient", "ByteText", "Threads", "COpenSSL"]),
        .target(name: "ReceiptKit", dependencies: ["Platform", "ASN1Lenient", "ByteText", "X509Trust", "COpenSSL"]),
        // StoreKit 2: compact JWS, its byte layers, payload schema and ES256 / x5c verification.
        .target(name: "JWSKit", dependencies: ["Platform", "ASN1Lenient", "ByteText", "Threads", "JSONLenient", "TextLoader", "ReasonCodes", "X509Trust", "COpenSSL"]),
        // libcurl through dlopen behind a small C API: loaded at the first request, so commands that never
        // call Apple never load libcurl or its TLS library (docs/performance.md, "Start-up"). The headers
        // (Debian libcurl4-openssl-dev; macOS's SDK) give types and constants; no curl symbol is linked.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // The App Store Server API: requests as Apple documents them, the ES256 bearer token, retries,
        // pagination and Apple's error codes, over CCurl. Never prints: the command words what it returns.
        .target(name: "ServerAPI", dependencies: ["Platform", "ASN1Lenient", "ByteText", "JSONLenient", "JWSKit", "CCurl"]),
        // Document, byte layers and offset maps, the one way in (Input/, Paste/), the one verification report
        // (Report/) and the registry (Registry/: DocumentFormat, DocumentKind, the hooks the core itself asks);
        // the formats' list is DocumentFormats' (FormatList.swift), found by FormatRegistry's conformance.
        .target(name: "DocumentCore", dependencies: ["Platform", "ASN1Lenient", "ByteText", "JSONLenient", "TextLoader", "TextOutput",
                                                     "ReasonCodes", "X509Trust", "ReceiptKit", "JWSKit"]),
        // Each feature over the core; each defines the hook a kind conforms to (DiffBasisSource,
        // TimelineReader, TourRoute and LabChangeSource, RedactionSource). No feature imports another.
        .target(name: "DocumentDiff", dependencies: ["ASN1Lenient", "ByteText", "DocumentCore", "JSONLenient", "ReceiptKit", "TextOutput", "X509Trust"]),
        .target(name: "DocumentTimeline", dependencies: ["ASN1Lenient", "ByteText", "DocumentCore", "ReceiptKit"]),
        .target(name: "DocumentTour", dependencies: ["ASN1Lenient", "ByteText", "DocumentCore", "ReceiptKit", "TextLoader", "TextOutput"]),
        .target(name: "DocumentRedact", dependencies: ["ASN1Lenient", "ByteText", "DocumentCore", "JSONLenient", "JWSKit", "Platform", "ReceiptKit", "TextLoader", "X509Trust"]),
        // The kinds, one folder each: they open their inputs and conform to the features' hooks.
        .target(name: "DocumentFormats", dependencies: ["ASN1Lenient", "ByteText", "DocumentCore", "DocumentDiff", "DocumentRedact", "DocumentTimeline",
                                                        "DocumentTour", "JSONLenient", "JWSKit", "Platform", "ReasonCodes", "ReceiptKit", "TextLoader", "TextOutput", "X509Trust"]),
        // Many inputs: the line reader and the bounded, in-order pipeline over worker threads.
        .target(name: "DocumentBatch", dependencies: ["ASN1Lenient", "ByteText", "DocumentCore", "JWSKit", "Platform", "ReceiptKit", "TextLoader", "Threads"]),
        .target(name: "ExplorerUI", dependencies: ["Platform", "ASN1Lenient", "ByteText", "Threads", "JSONLenient", "TextLoader", "TextOutput",
                                                   "DocumentCore", "DocumentDiff", "DocumentTimeline", "DocumentTour"]),
        // curses through a C file (shim.c) that switches the wide-character API on for itself and
        // exposes plain integers, so no Swift target needs a flag (unsafeFlags would also keep the
        // package from being a dependency). No pkgConfig: ncursesw.pc adds -D_XOPEN_SOURCE=600.
        // Debian's wide-character build is libncursesw, loaded by dlopen when the explorer starts
        // (cn_load), so no other command loads it (issue 32); macOS's SDK libncurses is itself wide-capable.
        .target(
            name: "CNcursesShim",
            linkerSettings: [
                .linkedLibrary("dl", .when(platforms: [.linux])),
                .linkedLibrary("ncurses", .when(platforms: [.macOS])),
            ]
        ),
        .target(name: "TerminalAdapter", dependencies: ["Platform", "ByteText", "Threads", "ExplorerUI", "CNcursesShim"]),
        .executableTarget(
            name: "receipt-explorer",
            dependencies: [
                "Platform", "ByteText", "ASN1Lenient", "TextLoader", "TextOutput", "X509Trust", "ReceiptKit", "JWSKit",
                "DocumentCore", "DocumentDiff", "DocumentTimeline", "DocumentRedact", "DocumentFormats", "DocumentBatch",
                "ExplorerUI", "TerminalAdapter", "ServerAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Paths to samples and the shared corpus, and one DER builder, for every test target.
        .target(name: "TestSupport", dependencies: ["Platform"], path: "Tests/TestSupport"),
        .testTarget(name: "ASN1LenientTests", dependencies: ["ASN1Lenient", "ByteText", "TextLoader", "TextOutput", "TestSupport"]),
        .testTarget(name: "TextLoaderTests", dependencies: ["Platform", "TextLoader", "TextOutput", "ASN1Lenient", "ByteText", "TestSupport"]),
        .testTarget(name: "TextOutputTests", dependencies: ["TextOutput", "TextLoader", "ASN1Lenient", "ByteText", "TestSupport"]),
        .testTarget(name: "ReceiptKitTests", dependencies: ["ReceiptKit", "COpenSSL", "ASN1Lenient", "ByteText", "TextLoader", "X509Trust", "Platform", "JWSKit", "DocumentCore", "DocumentFormats", "TestSupport"]),
        .testTarget(name: "DocumentModelTests", dependencies: ["DocumentCore", "DocumentDiff", "DocumentTimeline", "DocumentTour", "DocumentRedact", "DocumentFormats", "DocumentBatch", "ReceiptKit", "ASN1Lenient", "ByteText", "TextLoader", "ReasonCodes", "X509Trust", "JSONLenient", "JWSKit", "TestSupport"]),
        // The snapshots are read from the source tree by path (`Snapshot.directory`), not bundled.
        .testTarget(name: "ExplorerUITests", dependencies: ["Platform", "ExplorerUI", "TerminalAdapter", "ReceiptKit", "ASN1Lenient", "ByteText", "JSONLenient", "TextLoader", "DocumentCore", "DocumentDiff", "DocumentFormats", "TestSupport"],
                    exclude: ["Snapshots"]),
        .testTarget(name: "JSONLenientTests", dependencies: ["JSONLenient", "ASN1Lenient"]),
        .testTarget(name: "JWSKitTests", dependencies: ["JWSKit", "JSONLenient", "ASN1Lenient", "ByteText", "ReceiptKit", "X509Trust", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["Platform", "ASN1Lenient", "TextLoader", "ReceiptKit", "JWSKit", "DocumentCore", "ExplorerUI", "receipt-explorer", "TestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(name: "ServerAPITests", dependencies: ["ServerAPI", "JWSKit", "JSONLenient", "ByteText", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
