import Foundation
import JWSKit
import Testing
import TestSupport

/// One entry of ../shared/corpus/jws/MANIFEST.md: the facts every token shares.
struct ManifestEntry: CustomStringConvertible {
    var name: String
    var characters: Int
    var kind: String
    var payloadKeys: [String]
    var description: String { name }

    static func all() -> [ManifestEntry] {
        guard Paths.jwsCorpusAvailable,
              let text = try? String(contentsOf: Paths.jws.appendingPathComponent("MANIFEST.md"), encoding: .utf8) else { return [] }
        var entries: [ManifestEntry] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## `"), line.hasSuffix(".jws`") {
                entries.append(ManifestEntry(name: String(line.dropFirst(4).dropLast()), characters: -1, kind: "", payloadKeys: []))
            } else if !entries.isEmpty, line.hasPrefix("- sha256 "), let count = line.split(separator: " ").dropLast().last {
                entries[entries.count - 1].characters = Int(count) ?? -1
            } else if !entries.isEmpty, line.hasPrefix("- kind: ") {
                entries[entries.count - 1].kind = String(line.dropFirst(8).prefix { $0 != ";" && $0 != " " })
            } else if !entries.isEmpty, line.hasPrefix("- payload keys: ") {
                entries[entries.count - 1].payloadKeys = line.dropFirst(16).components(separatedBy: ", ")
            }
        }
        return entries
    }
}

@Suite("JWS corpus manifest", .enabled(if: Paths.jwsCorpusAvailable))
struct ManifestTests {
    @Test func manifestListsEveryToken() {
        #expect(ManifestEntry.all().count == 14)
    }

    @Test(arguments: ManifestEntry.all())
    func tokenMatchesItsManifestEntry(_ entry: ManifestEntry) throws {
        let text = try Corpus.text(entry.name)
        #expect(text.count == entry.characters)
        let d = JWSDocument.decode(text: text)
        #expect(d.worstSeverity == nil)
        #expect(d.header.alg == "ES256")
        #expect(d.header.certificates.count == (entry.name.contains("-xcode-") ? 1 : 3))
        #expect(d.header.certificates.allSatisfy { $0.tree.diagnostics.isEmpty && $0.tree.roots.count == 1 })
        #expect(d.signature?.raw.count == 64)
        let keys = d.payloadJSON.map { tree in tree.members(of: 0).compactMap { tree.key(ofMember: $0) } } ?? []
        #expect(keys.sorted() == entry.payloadKeys)
        let expected: StoreKitTokenKind = switch entry.kind {
        case "transaction": .transaction
        case "renewal": .renewalInfo
        case "apptransaction": .appTransaction
        case "notification": .notification(type: d.payload.notificationType, subtype: d.payload.subtype)
        default: .unknown
        }
        #expect(StoreKitInput.classify(text) == .token(expected))
        #expect(d.payload.notificationType != nil || entry.kind != "notification")
        #expect(d.payload.unknownFields.isEmpty)
    }
}
