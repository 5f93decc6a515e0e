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
        // Invariant and terminal-safety checks shared by the targets, and libFuzzer's driver entry.
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "Platform", package: "receipt-explorer"), .product(name: "ASN1Lenient", package: "receipt-explorer"),
                           .product(name: "TextLoader", package: "receipt-explorer")]
        ),
        // (a) input loading (raw/base64/PEM/JSON detection) + parsing + text outputs.
        .executableTarget(
            name: "FuzzParse",
            dependencies: ["FuzzSupport", .product(name: "TextLoader", package: "receipt-explorer"), .product(name: "TextOutput", package: "receipt-explorer"), .product(name: "ASN1Lenient", package: "receipt-explorer")]
        ),
        // (a') input loading alone (detection steps, base64, PEM, JSON) then parsing, with a text dictionary.
        .executableTarget(
            name: "FuzzLoad",
            dependencies: ["FuzzSupport", .product(name: "TextLoader", package: "receipt-explorer"), .product(name: "ASN1Lenient", package: "receipt-explorer")]
        ),
        // (b) Document.open with validation: receipts (OpenSSL signature, chain, receipt signer,
        // device hash) and StoreKit 2 JWS (ES256, x5c chain, nested tokens).
        .executableTarget(
            name: "FuzzReceipt",
            dependencies: ["FuzzSupport", .product(name: "ASN1Lenient", package: "receipt-explorer"),
                           .product(name: "ReceiptKit", package: "receipt-explorer"),
                           .product(name: "DocumentModel", package: "receipt-explorer")]
        ),
        // (d) DocumentDiff.compare on two inputs cut from one, and the diff text / JSON.
        .executableTarget(
            name: "FuzzDiff",
            dependencies: ["FuzzSupport", .product(name: "TextLoader", package: "receipt-explorer"), .product(name: "ASN1Lenient", package: "receipt-explorer"),
                           .product(name: "ReceiptKit", package: "receipt-explorer"),
                           .product(name: "DocumentModel", package: "receipt-explorer"),
                           .product(name: "ExplorerUI", package: "receipt-explorer")]
        ),
        // (e) the tamper lab: an edit script applied to a sample through LabSession, re-opened each time.
        .executableTarget(
            name: "FuzzEdit",
            dependencies: ["FuzzSupport", .product(name: "TextLoader", package: "receipt-explorer"), .product(name: "ASN1Lenient", package: "receipt-explorer"),
                           .product(name: "ReceiptKit", package: "receipt-explorer"),
                           .product(name: "DocumentModel", package: "receipt-explorer")]
        ),
        // (a'') the paste finder: data inside log lines, JSON, HAR, form bodies; base64 twice; cut-off tokens.
        .executableTarget(
            name: "FuzzPaste",
            dependencies: ["FuzzSupport", .product(name: "TextLoader", package: "receipt-explorer"), .product(name: "ASN1Lenient", package: "receipt-explorer"),
                           .product(name: "ReceiptKit", package: "receipt-explorer"),
                           .product(name: "DocumentModel", package: "receipt-explorer")]
        ),
        // (f) redact: a copy of the input with its identifiers replaced, re-opened to the same shape.
        .executableTarget(
            name: "FuzzRedact",
            dependencies: ["FuzzSupport", .product(name: "TextLoader", package: "receipt-explorer"), .product(name: "ASN1Lenient", package: "receipt-explorer"),
                           .product(name: "ReceiptKit", package: "receipt-explorer"),
                           .product(name: "DocumentModel", package: "receipt-explorer")]
        ),
        // (g) batch mode: --lines reading, per-line checks on worker threads, reports in order.
        .executableTarget(
            name: "FuzzBatch",
            dependencies: ["FuzzSupport", .product(name: "ByteText", package: "receipt-explorer"), .product(name: "X509Trust", package: "receipt-explorer"), .product(name: "ASN1Lenient", package: "receipt-explorer"),
                           .product(name: "ReceiptKit", package: "receipt-explorer"),
                           .product(name: "DocumentModel", package: "receipt-explorer")]
        ),
        // (h) timeline: several inputs cut from one on one time line, and where a transaction is.
        .executableTarget(
            name: "FuzzTimeline",
            dependencies: ["FuzzSupport", .product(name: "TextLoader", package: "receipt-explorer"), .product(name: "ASN1Lenient", package: "receipt-explorer"),
                           .product(name: "ReceiptKit", package: "receipt-explorer"),
                           .product(name: "DocumentModel", package: "receipt-explorer")]
        ),
        // (h) the files named beside the input: `--key` (public key or .p8), the api's signing key, `--root`.
        .executableTarget(
            name: "FuzzKeys",
            dependencies: ["FuzzSupport", .product(name: "JWSKit", package: "receipt-explorer"), .product(name: "X509Trust", package: "receipt-explorer")]
        ),
        // (g) what the `api` client reads of an App Store Server API response body (paging members, Apple's error).
        .executableTarget(
            name: "FuzzAPIBody",
            dependencies: ["FuzzSupport", .product(name: "ServerAPI", package: "receipt-explorer")]
        ),
        // (c) render(state, size) after a key sequence derived from the input.
        .executableTarget(
            name: "FuzzRender",
            dependencies: ["FuzzSupport", .product(name: "ASN1Lenient", package: "receipt-explorer"),
                           .product(name: "DocumentModel", package: "receipt-explorer"),
                           .product(name: "ExplorerUI", package: "receipt-explorer")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
