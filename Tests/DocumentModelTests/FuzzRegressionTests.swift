import ASN1Lenient
import DocumentCore
import DocumentFormats
import DocumentTimeline
import Foundation
import ReceiptKit
import Testing
import TestSupport
import ByteText
import TextLoader

/// The document fuzz target's findings, replayed as the target runs them: loaded like a command
/// loads a file, opened with validation, and every layer's diagnostics inside that layer's bytes.
@Suite struct FuzzRegressionTests {
    static let directory = Paths.packageRoot.appendingPathComponent("Fuzz/regressions")
    static let inputs: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { $0.hasPrefix("receipt-") }.sorted()

    @Test func theJWSFindingsAreAmongTheReplayedInputs() {
        #expect(Self.inputs.contains("receipt-jws-x5c-diagnostic-range.bin"))
        #expect(Self.inputs.contains("receipt-jws-alg-control-characters.bin"))
    }

    @Test(arguments: inputs) func everyLayerKeepsItsDiagnosticsInside(_ name: String) throws {
        let raw = try Paths.bytes(Self.directory.appendingPathComponent(name))
        let input = try InputLoader.decode(raw, name: name)
        let document = Document.open(input, options: AnalysisOptions(validate: true), reading: .always)
        // Written as it is by every command (see `Document.note`): nothing in it a terminal acts on.
        #expect(!document.note.unicodeScalars.contains(where: TerminalSafe.mustEscape), "\(name): \(document.note.debugDescription)")
        for layer in document.layers {
            for d in layer.content.diagnostics {
                #expect(d.offset >= 0 && d.length >= 0 && d.offset + d.length <= layer.bytes.count,
                        "\(name): \(layer.name) (\(layer.bytes.count) bytes): \(d.code) at \(d.offset)+\(d.length)")
            }
        }
    }

    /// FuzzRedact (CI smoke run, 2026-11-27): text the loader finds no data in became a document
    /// whose one layer had a tree with no nodes over 240 bytes, breaking the coverage invariant
    /// every layer keeps. Its tree is now one unparsed region over every byte.
    @Test func textWithoutDataIsCoveredByOneUnparsedRegion() throws {
        let name = "redact-text-layer-coverage.bin"
        let raw = try Paths.bytes(Self.directory.appendingPathComponent(name))
        let document = Document.open(try InputLoader.decode(raw, name: name), options: AnalysisOptions(validate: false))
        #expect(document.kind == .text)
        let tree = try #require(document.layers.first?.tree)
        #expect(tree.coverageViolations() == [])
        #expect(tree.roots == [0])
        #expect(tree[0].kind == .unparsed)
        #expect(tree[0].byteRange == 0..<240)
        #expect(tree.diagnostics.map(\.code.rawValue) == ["input-unrecognized-text"])
    }

    /// FuzzTimeline (CI smoke run, 2026-11-27): a notification whose mutated payload carries C0 bytes
    /// in `notificationType` named its kind with them ("…Server Notification V2: REF\u{06}…"), and
    /// the timeline's document list printed them raw. The kind's words are now escaped once, in
    /// `DocumentKind.summary` / `title`, for every format. Replayed as the target cuts its input.
    @Test func aNotificationTypeWithControlCharactersIsEscapedInTheTimeline() throws {
        let raw = try Paths.bytes(Self.directory.appendingPathComponent("timeline-notification-type-control-characters.bin"))
        let count = Int(raw[0] % 4) + 1
        let rest = Array(raw[(1 + 2 * (count - 1))...])
        let cuts = (0..<(count - 1)).map { i in (Int(raw[1 + 2 * i]) | Int(raw[2 + 2 * i]) << 8) % (rest.count + 1) }.sorted()
        let bounds = [0] + cuts + [rest.count]
        let documents = zip(bounds, bounds.dropFirst()).map { a, b -> Document in
            let piece = Array(rest[a..<b])
            let input = (try? InputLoader.decode(piece, name: "fuzz")) ?? LoadedInput(bytes: piece, name: "fuzz", encoding: .binary, note: "raw")
            return Document.open(input, options: AnalysisOptions(validate: false))
        }
        // The fuzzed notification: its type still carries the control character.
        let notification = try #require(documents.first {
            if case .notification(let type?, _) = $0.kind { type.unicodeScalars.contains { $0.value == 6 } } else { false }
        })
        #expect(!notification.kind.summary.unicodeScalars.contains(where: TerminalSafe.mustEscape))
        #expect(notification.kind.summary.hasPrefix("an App Store Server Notification V2: REFUEsW"))
        #expect(notification.kind.summary.contains("\\x06"))
        let timeline = Timeline.build(documents)
        let text = TimelineText.render(timeline, at: nil, lookup: nil)
        let unsafe = text.unicodeScalars.filter { $0 != "\n" && TerminalSafe.mustEscape($0) }.map { String($0.value, radix: 16) }
        #expect(unsafe == [])
    }

    /// FuzzReceipt (CI smoke run, 2026-11-29): a notification body whose nested token's payload,
    /// damaged, decodes to a `notificationType` with NUL bytes. The kind's summary was escaped (finding
    /// 14), but the token's label ("App Store Server Notification V2 (…)"), made apart from it, was
    /// not, and `dump` printed it raw. The label is now escaped where it is made.
    @Test func aNotificationTypeWithControlCharactersIsEscapedInTheTokenLabel() throws {
        let raw = try Paths.bytes(Self.directory.appendingPathComponent("receipt-jws-notification-type-label.bin"))
        let document = Document.open(try InputLoader.decode(raw, name: "fuzz"), options: AnalysisOptions(validate: false))
        let jws = try #require(document.jws)
        let token = try #require(jws.tokens.first { $0.path == "notificationHistory[0].signedPayload" })
        #expect(token.label.hasPrefix("App Store Server Notification V2 (DID_CHANGE_RENEWAL_STAT@\\x00\\x00"))
        let dump = JWSTreeDump(document).render()
        #expect(dump.split(separator: "\n").contains { $0.hasPrefix("notificationHistory[0].signedPayload: token \(token.label), ") })
        let unsafe = dump.unicodeScalars.filter { $0 != "\n" && TerminalSafe.mustEscape($0) }.map { String($0.value, radix: 16) }
        #expect(unsafe == [])
    }
}
