import Foundation

/// A folder of exact expected outputs under Tests/Expected, read by tests that hold a writer to its
/// bytes. With `RECORD_EXPECTED=1` the actual output is written first (review the diff in git).
public struct ExpectedOutput: Sendable {
    public let directory: URL
    public static let recording = ProcessInfo.processInfo.environment["RECORD_EXPECTED"] == "1"

    /// `name`: the folder below Tests/Expected ("receipt-json", "verify-json").
    public init(_ name: String) {
        directory = Paths.packageRoot.appendingPathComponent("Tests/Expected").appendingPathComponent(name)
    }

    /// The expected text of `file`, recorded from `actual` first when recording.
    public func text(_ file: String, recording actual: String) throws -> String {
        let url = directory.appendingPathComponent(file)
        if Self.recording { try Data(actual.utf8).write(to: url) }
        return try String(contentsOf: url, encoding: .utf8)
    }
}
