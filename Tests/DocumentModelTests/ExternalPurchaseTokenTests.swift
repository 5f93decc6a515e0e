import ASN1Lenient
import DocumentCore
import Foundation
import JSONLenient
import JWSKit
import Testing
import TestSupport

/// External purchase tokens (base64url JSON, unsigned) from samples/external, against the facts the
/// generator recorded in samples/manifest.json (`external_purchase_tokens`): the two layers, every
/// field's value and bytes, sandbox ids, and schema findings at their exact offsets.
@Suite struct ExternalPurchaseTokenTests {
    nonisolated(unsafe) static let manifest: [[String: Any]] = {
        guard let data = try? Data(contentsOf: Paths.samples.appendingPathComponent("manifest.json")),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [] }
        return object["external_purchase_tokens"] as? [[String: Any]] ?? []
    }()
    static var files: [String] { manifest.compactMap { $0["file"] as? String } }

    static func open(_ file: String) throws -> Document {
        Document.open(try DocumentInput.path(Paths.samples.appendingPathComponent(file).path).read().loaded)
    }

    @Test func manifestListsEveryToken() throws {
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: Paths.samples.appendingPathComponent("external").path)
        #expect(Set(Self.files) == Set(onDisk.map { "external/" + $0 }))
        #expect(Self.files.count == 3)
    }

    @Test("each token: the text and JSON layers, every field's value and key offset, sandbox", arguments: files)
    func layersAndFields(file: String) throws {
        let entry = try #require(Self.manifest.first { $0["file"] as? String == file })
        let document = try Self.open(file)
        let sandbox = try #require(entry["sandbox"] as? Bool)
        #expect(document.kind == .externalPurchaseToken(sandbox: sandbox))
        #expect(document.source.encoding == .externalPurchaseToken)
        #expect(document.layers.count == 2)
        #expect(document.fileLayer.bytes.count == entry["characters"] as? Int)
        let json = document.layers[1]
        #expect(json.role == .decodedJSON(urlSafe: true))
        #expect(json.parent == .file)
        #expect(json.bytes.count == entry["json_bytes"] as? Int)
        let model = try #require(document.externalPurchase)
        let fields = try #require(entry["fields"] as? [String: Any])
        let members = try #require(entry["members"] as? [String: [String: Int]])
        #expect(model.token.payload.fields.map(\.name).sorted() == fields.keys.sorted())
        for field in model.token.payload.fields {
            let member = model.token.tree[field.member.index]
            #expect(member.keyRange.lowerBound == members[field.name]?["json_offset"], "\(file) \(field.name)")
            #expect(member.keyRange.count == members[field.name]?["key_length"], "\(file) \(field.name)")
            // The characters that carry the key: base64 arithmetic from the JSON bytes.
            let characters = document.fileRange(member.keyRange, in: json.id)
            #expect(characters == (member.keyRange.lowerBound * 4 / 3)..<((member.keyRange.upperBound * 4 + 2) / 3))
        }
        #expect(model.token.payload.string("externalPurchaseId") == fields["externalPurchaseId"] as? String)
        #expect(model.token.payload.value("appAppleId") == .integer(Int64(fields["appAppleId"] as! Int)))
        #expect(model.token.payload.value("tokenCreationDate") == .date(milliseconds: 1709294400000, iso: "2024-03-01T12:00:00.000Z"))
        #expect(model.token.isSandbox == sandbox)
    }

    @Test func knownTokenTypesHaveTheirMeaningAndNoFinding() throws {
        let production = try Self.open("external/external-purchase-token.txt")
        let token = try #require(production.externalPurchase?.token)
        #expect(token.payload.value("tokenType") == .enumerated(raw: "ACQUISITION", meaning: "a token for acquiring a new customer"))
        #expect(token.payload.field("tokenType")?.spec?.introduced == "App Store Server Notifications 2.17")
        #expect(production.diagnostics.isEmpty)
        #expect(production.summary == "an external purchase token (base64url JSON, unsigned)")
        let sandbox = try Self.open("external/external-purchase-token-sandbox.txt")
        #expect(sandbox.externalPurchase?.token.payload.value("tokenType") == .enumerated(raw: "SERVICES", meaning: "a token for ongoing services"))
        #expect(sandbox.summary == "an external purchase token (base64url JSON, unsigned; sandbox: its id starts SANDBOX_)")
    }

    @Test("an unknown member and an unknown tokenType value are kept and flagged info at their bytes")
    func unknownFieldAndValue() throws {
        let document = try Self.open("external/external-purchase-token-unknown.txt")
        let findings = document.diagnostics.map(\.diagnostic)
        #expect(findings.map(\.severity) == [.info, .info])
        #expect(findings.map(\.code.rawValue) == ["jws-field-unknown-value", "jws-field-not-in-schema"])
        #expect(findings.map { $0.offset..<($0.offset + $0.length) } == [172..<185, 186..<198])
        #expect(findings[0].message == "tokenType = PARTNERSHIP is not a known tokenType value: not in this tool's schema (Apple may have added it after 2026-04-27)")
        #expect(findings[1].message == "storefront is not in this tool's schema (Apple may have added it after 2026-04-27)")
        #expect(document.externalPurchase?.token.payload.value("storefront") == .string("FRA"))
        #expect(!document.hasErrors)
    }

    @Test("a token pasted with quotes, or given inline as the argument, still loads as one")
    func quotedAndInline() throws {
        let text = try Paths.sample("external/external-purchase-token.txt").filter { $0 != 0x0A }
        let quoted = try PasteLoader.decode(Array("\"".utf8) + text + Array("\"\n".utf8), name: "quoted")
        #expect(quoted.encoding == .externalPurchaseToken)
        #expect(quoted.bytes == text)
        let inline = try DocumentInput.path(String(decoding: text, as: UTF8.self)).read().loaded
        #expect(inline.encoding == .externalPurchaseToken)
        #expect(Document.open(inline).kind == .externalPurchaseToken(sandbox: false))
    }

    @Test("a token inside a log line or a JSON log is found, its characters mapped to the pasted text")
    func pasted() throws {
        let text = try Paths.sample("external/external-purchase-token.txt").filter { $0 != 0x0A }
        let line = Array("INFO token=".utf8) + text + Array(" done\n".utf8)
        let loaded = try PasteLoader.decode(line, name: "log")
        #expect(loaded.encoding == .externalPurchaseToken)
        #expect(loaded.bytes == text)
        let origin = try #require(loaded.origin)
        #expect(origin.location == "characters 12-259 of line 1 of log")
        #expect(origin.textOffset(0) == 11)
        #expect(origin.textOffset(text.count - 1) == 11 + text.count - 1)
        #expect(loaded.note == "found at characters 12-259 of line 1 of log: an external purchase token (base64url JSON, 248 characters)")
        let json = Array(#"{"level":"info","token":""#.utf8) + text + Array(#""}"#.utf8)
        let fromJSON = try PasteLoader.decode(json, name: "log.json")
        #expect(fromJSON.encoding == .externalPurchaseToken)
        #expect(fromJSON.origin?.location == "characters 26-273 of line 1 of log.json (JSON path token)")
        #expect(Document.open(fromJSON).kind == .externalPurchaseToken(sandbox: false))
    }

    @Test("base64url JSON that names no token field is not an external purchase token")
    func otherBase64JSONIsNot() throws {
        let other = Array(Data(#"{"hello":"world","count":12345}"#.utf8).base64EncodedString().utf8)
        let loaded = try PasteLoader.decode(other, name: "other")
        #expect(loaded.encoding != .externalPurchaseToken)
    }
}
