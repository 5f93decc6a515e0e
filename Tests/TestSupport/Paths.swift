import Foundation

/// Where the project's own data and the shared corpus live, found from this file's path so that
/// tests run the same from any working directory.
public enum Paths {
    /// The package root (this file is Tests/TestSupport/Paths.swift).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The project's generated samples: committed, so tests use them unconditionally (a missing
    /// sample fails the test; only the shared corpus below may be absent).
    public static let samples = packageRoot.appendingPathComponent("samples")
    /// The shared corpus of real receipts and tokens beside the project; absent for people who only
    /// cloned the project, and then every test that needs it shows as skipped.
    public static let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    public static let receipts = corpus.appendingPathComponent("receipts")
    public static let jws = corpus.appendingPathComponent("jws")
    public static let certs = corpus.appendingPathComponent("certs")

    public static var corpusAvailable: Bool { FileManager.default.fileExists(atPath: receipts.path) }
    public static var jwsCorpusAvailable: Bool { FileManager.default.fileExists(atPath: jws.appendingPathComponent("MANIFEST.md").path) }

    public static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }
    public static func sample(_ name: String) throws -> [UInt8] { try bytes(samples.appendingPathComponent(name)) }
    public static func corpusReceipt(_ name: String) throws -> [UInt8] { try bytes(receipts.appendingPathComponent(name)) }
}
