import Foundation
import Testing
import TestSupport

/// docs/primer.md is the template's prose plus the tool's own output on the samples: regenerate it
/// with the built binary (`Scripts/gen-primer.py --check`) and fail on any difference.
@Suite struct PrimerDriftTests {
    @Test func primerMatchesWhatTheToolPrintsNow() throws {
        let python = try #require(findTool("python3"), "python3 runs Scripts/gen-primer.py")
        let binary = try #require(cliBinary, "receipt-explorer binary not found next to the test bundle")
        let result = try runTool(python, [Paths.packageRoot.appendingPathComponent("Scripts/gen-primer.py").path,
                                          "--check", "--binary", binary.path])
        #expect(result.status == 0, "docs/primer.md is stale; run Scripts/gen-primer.py:\n\(result.output)")
    }
}
