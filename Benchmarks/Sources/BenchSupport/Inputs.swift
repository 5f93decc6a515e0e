import ASN1Lenient
import Foundation

/// One benchmark input: a name and the DER documents to parse (several for a certificate chain,
/// which is parsed certificate by certificate, as a verifier does).
public struct BenchInput: Sendable {
    public let name: String
    public let documents: [[UInt8]]

    public init(name: String, documents: [[UInt8]]) {
        self.name = name
        self.documents = documents
    }

    public var totalBytes: Int { documents.reduce(0) { $0 + $1.count } }
}

public struct BenchError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Where the inputs are. Nothing is copied into the repository: the real receipt is read from
/// `../shared/corpus` at run time and the large files are generated into `Benchmarks/.inputs/`.
public enum Inputs {
    /// The repository root: `$RECEIPT_EXPLORER_ROOT`, else derived from this source file's path
    /// (Benchmarks/Sources/BenchSupport/Inputs.swift), which holds wherever the clone lives.
    public static let repoRoot: URL = {
        if let root = ProcessInfo.processInfo.environment["RECEIPT_EXPLORER_ROOT"], !root.isEmpty {
            return URL(fileURLWithPath: root)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }()

    public static var generatedDirectory: URL { repoRoot.appendingPathComponent("Benchmarks/.inputs") }

    /// The real receipt with 120 in-app purchases (53,539 bytes), from the shared corpus.
    public static let realReceiptName = "sandbox-com.sumiapp.GridDiary-2018-01-05-120iap.receipt"

    public static var realReceiptPath: URL {
        if let path = ProcessInfo.processInfo.environment["BENCH_REAL_RECEIPT"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return repoRoot.deletingLastPathComponent()
            .appendingPathComponent("shared/corpus/receipts/\(realReceiptName)")
    }

    public static func read(_ url: URL) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw BenchError("cannot read \(url.path)")
        }
        return [UInt8](data)
    }

    /// Runs a script of the repository (python3), for the generated inputs.
    static func runPython(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.currentDirectoryURL = repoRoot
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("python3 \(arguments.joined(separator: " ")) failed with status \(process.terminationStatus)")
        }
    }

    /// The large payload-shaped DER file (`Scripts/gen-payload.py`, default size unless
    /// `$BENCH_PAYLOAD` names another file), generated on first use.
    public static func payloadPath(arguments: [String] = []) throws -> URL {
        if arguments.isEmpty, let path = ProcessInfo.processInfo.environment["BENCH_PAYLOAD"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let suffix = arguments.isEmpty ? "" : "-" + arguments.joined(separator: "").replacingOccurrences(of: "--", with: "")
        let url = generatedDirectory.appendingPathComponent("payload\(suffix).der")
        if !FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.createDirectory(at: generatedDirectory, withIntermediateDirectories: true)
            try runPython(["Scripts/gen-payload.py", url.path, "--quiet"] + arguments)
        }
        return url
    }

    /// `samples/generated/large-10000.receipt` (issue 3's large sample), generated on first use by
    /// the samples generator.
    public static func largeReceiptPath(purchases: Int = 10_000) throws -> URL {
        let url = repoRoot.appendingPathComponent("samples/generated/large-\(purchases).receipt")
        if !FileManager.default.fileExists(atPath: url.path) {
            try runPython(["Scripts/generate-samples.py", "--large", String(purchases)])
        }
        return url
    }

    /// The samples' TEST root certificate, passed as `--root` so that the chain step of the
    /// generated receipts runs to the end (they are not signed by Apple).
    public static func testRoot() -> [[UInt8]] {
        let url = repoRoot.appendingPathComponent("samples/pki/test-root.pem")
        return (try? read(url)).map { [$0] } ?? []
    }

    public static func payload() throws -> BenchInput {
        let url = try payloadPath()
        let bytes = try read(url)
        return BenchInput(name: "payload \(megabytes(bytes.count)) MB", documents: [bytes])
    }

    public static func realReceipt() throws -> BenchInput {
        let bytes = try read(realReceiptPath)
        return BenchInput(name: "real receipt (120 IAP)", documents: [bytes])
    }

    /// The certificates embedded in the real receipt (SignedData.certificates), each as its own
    /// DER document: the leaf, Apple WWDR and Apple Inc. Root.
    public static func certificateChain() throws -> BenchInput {
        let receipt = try read(realReceiptPath)
        let certificates = try extractCertificates(receipt)
        return BenchInput(name: "certificate chain (\(certificates.count) certs)", documents: certificates)
    }

    /// ContentInfo → [0] → SignedData → the [0] IMPLICIT SET OF Certificate.
    public static func extractCertificates(_ receipt: [UInt8]) throws -> [[UInt8]] {
        let tree = ASN1Parser.parse(receipt, options: ParseOptions(guessEncapsulation: false))
        guard let contentInfo = tree.roots.first,
              let explicit = tree.child(of: contentInfo, at: 1),
              let signedData = tree.child(of: explicit, at: 0) else {
            throw BenchError("not a PKCS#7 ContentInfo")
        }
        for child in tree.children(of: signedData) {
            let node = tree[child]
            if node.tagClass == .contextSpecific && node.tagNumber == 0 && node.isConstructed {
                return tree.children(of: child).map { Array(tree.bytes[tree[$0].byteRange]) }
            }
        }
        throw BenchError("no certificates in the SignedData")
    }

    public static func megabytes(_ bytes: Int) -> String {
        String(format: "%.2f", Double(bytes) / 1_000_000)
    }
}

extension Inputs {
    /// A StoreKit 2 transaction history response with `transactions` signed tokens
    /// (`Scripts/gen-history.py`, the samples' TEST EC PKI), generated on first use.
    public static func historyPath(transactions: Int = 1000) throws -> URL {
        let url = generatedDirectory.appendingPathComponent("history-\(transactions).json")
        if !FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.createDirectory(at: generatedDirectory, withIntermediateDirectories: true)
            try runPython(["Scripts/gen-history.py", url.path, "--quiet", "--transactions", String(transactions)])
        }
        return url
    }
}
