import DocumentCore
import DocumentRedact
import Foundation
import Testing
import TestSupport
import X509Trust

/// The mapping file is written as it is made (`RedactMapping.bytes`, issue 32: a 20,000-purchase
/// receipt's mapping built as dictionaries first took ≈ 100 MB). Its bytes must be what the
/// dictionary form gave through `ReceiptJSON.serialize`, restated here: every input alone and all
/// sample receipts and tokens in one run, with and without kept fields.
@Suite struct RedactMappingTests {
    /// The mapping as one dictionary, as it was built before it was streamed.
    static func dictionary(_ run: RedactRun, files: [(input: String, copy: String)]) -> [String: Any] {
        func text(_ value: RedactedValue) -> String {
            switch value {
            case .text(let text): text
            case .bytes(let bytes): Digest.hex(bytes)
            }
        }
        var entries: [[String: Any]] = []
        for (original, places) in run.occurrences.sorted(by: { $0.key < $1.key }) {
            guard let standIn = run.standIns[original] else { continue }
            let fields = Set(places.filter { !$0.isMention }.map(\.field)).sorted().map(\.rawValue)
            var isBytes = false
            if case .bytes = original { isBytes = true }
            entries.append([
                "fields": fields.isEmpty ? Array(Set(places.map(\.field.rawValue))).sorted() : fields,
                "encoding": isBytes ? "hex" : "text",
                "original": text(original),
                "stand_in": text(standIn),
                "occurrences": places.map { place -> [String: Any] in
                    ["file": files[place.file].input, "where": place.place, "layer": place.layer, "offset": place.offset,
                     "mention": place.isMention]
                },
            ])
        }
        return [
            "note": "PRIVATE: maps the stand-ins in the redacted copies back to the original values. Do not share it with the copies.",
            "files": files.map { ["input": $0.input, "copy": $0.copy] },
            "entries": entries,
        ]
    }

    static func expectSameBytes(_ inputs: [RedactInput], keep: Set<RedactField> = [], _ label: String) throws {
        let run = try Redactor.run(inputs, options: RedactSupport.options(keep: keep))
        let files = run.copies.enumerated().map { (input: $1.name, copy: "out/\($0)-\($1.name)") }
        let streamed = RedactMapping.bytes(run, files: files)
        #expect(String(decoding: streamed, as: UTF8.self) == ReceiptJSON.serialize(dictionary(run, files: files)), "\(label)")
    }

    @Test(arguments: RedactSupport.samples)
    func sample(_ url: URL) throws {
        try Self.expectSameBytes([try RedactSupport.input(url)], url.lastPathComponent)
        try Self.expectSameBytes([try RedactSupport.input(url)], keep: [.transactionID, .bundleID], url.lastPathComponent)
    }

    @Test(.enabled(if: Paths.corpusAvailable, "../shared/corpus is missing"), arguments: RedactSupport.corpus)
    func corpusFile(_ url: URL) throws { try Self.expectSameBytes([try RedactSupport.input(url)], url.lastPathComponent) }

    /// Several inputs in one run: the files list, shared values' occurrences in more than one file.
    @Test func everySampleReceiptAndTokenTogether() throws {
        let urls = RedactSupport.samples.filter { ["receipt", "jws", "json"].contains($0.pathExtension) }
        #expect(urls.count >= 20)
        try Self.expectSameBytes(try urls.map(RedactSupport.input), "together")
    }
}

/// Without a mapping (`RedactOptions.mapping == false`, `redact` without `--mapping`) a file's
/// targets go once its copy is made: the copies, summaries and checks are the same, and nothing
/// is kept of where the values were.
@Suite struct RedactWithoutMappingTests {
    @Test func theCopiesAreTheSameAndNoPlaceOrOriginalIsKept() throws {
        let urls = RedactSupport.samples.filter { ["receipt", "jws", "json"].contains($0.pathExtension) }
        #expect(urls.count >= 20)
        let inputs = try urls.map(RedactSupport.input)
        var without = RedactSupport.options()
        without.mapping = false
        let kept = try Redactor.run(inputs, options: RedactSupport.options())
        let gone = try Redactor.run(inputs, options: without)
        #expect(!kept.occurrences.isEmpty)
        #expect(gone.occurrences.isEmpty)
        // Without a mapping the table keeps the stand-ins alone: the copies are written from them.
        #expect(kept.standIns.keepsOriginals && !gone.standIns.keepsOriginals && gone.standIns.count == kept.standIns.count)
        #expect(gone.copies.count == kept.copies.count)
        #expect(gone.copies.filter { $0.bytes != nil && $0.replaced.values.reduce(0, +) > 0 }.count >= 20)
        for (a, b) in zip(kept.copies, gone.copies) {
            #expect(a.bytes == b.bytes, "\(a.name)")
            #expect(a.failure == b.failure && a.replaced == b.replaced && a.mentions == b.mentions && a.signatures == b.signatures, "\(a.name)")
            #expect(a.nodeCount == b.nodeCount && a.diagnosticCount == b.diagnosticCount, "\(a.name)")
        }
    }
}
