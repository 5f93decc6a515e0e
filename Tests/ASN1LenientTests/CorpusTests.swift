import Foundation
import Testing
@testable import ASN1Lenient

@Suite struct CorpusTests {
    @Test func corpusIsPresentOrSkipped() throws {
        if corpusFiles().isEmpty {
            print("note: ../shared/corpus is absent; corpus tests skip")
        }
    }

    @Test(arguments: corpusFiles().filter { !$0.path.contains("negative") })
    func realReceiptParsesWithoutErrors(_ url: URL) throws {
        let tree = ASN1Parser.parse(Array(try Data(contentsOf: url)))
        let errors = tree.diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(url.lastPathComponent): \(errors)")
        #expect(tree.coverageViolations().isEmpty)
        #expect(tree.roots.count == 1)
        let isXcode = url.lastPathComponent.hasPrefix("xcode")
        let notDER = tree.diagnostics.filter { $0.severity == .notDER }
        #expect(isXcode ? !notDER.isEmpty : notDER.isEmpty, "\(url.lastPathComponent): \(notDER.prefix(3))")
    }

    @Test func truncatedNegativeReportsTruncationAndKeepsTheRest() throws {
        let url = corpusDirectory.appendingPathComponent("receipts/negative/truncated-sandbox-com.belive.app.ios-456bytes.receipt")
        guard let data = try? Data(contentsOf: url) else { return }
        let tree = ASN1Parser.parse(Array(data))
        #expect(tree.coverageViolations().isEmpty)
        #expect(tree.hasErrors)
        let codes = Set(tree.diagnostics.map(\.code))
        #expect(codes.contains("truncated-content"))
        // Every truncation diagnostic lies within the 456 bytes.
        for d in tree.diagnostics { #expect(d.offset + d.length <= 456) }
    }
}
