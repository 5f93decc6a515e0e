import ASN1Lenient
import DocumentCore
import DocumentRedact
import ReceiptKit
import Foundation
import TestSupport
import TextLoader

/// Inputs and checks shared by the redaction tests.
enum RedactSupport {
    /// Every sample (receipts in all text forms, tokens, bodies, certificates) except the notes,
    /// the manifest and the test keys.
    static let samples: [URL] = files(under: Paths.samples).filter { url in
        let name = url.lastPathComponent
        return !name.hasSuffix(".md") && name != "manifest.json" && url.pathExtension != "key" && url.pathExtension != "p8"
            && !url.path.contains("/generated/")
    }
    /// Every corpus file except the manifests.
    static let corpus: [URL] = [Paths.receipts, Paths.jws, Paths.certs].flatMap(files(under:))
        .filter { !$0.lastPathComponent.hasSuffix(".md") }

    static func files(under directory: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return walker.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }

    /// Loaded as every command loads a file (`PasteLoader`, the paste finder included).
    static func input(_ url: URL) throws -> RedactInput {
        let raw = try Paths.bytes(url)
        return RedactInput(raw: raw, loaded: try PasteLoader.decode(raw, name: url.lastPathComponent))
    }

    static func input(_ raw: [UInt8], name: String = "input") throws -> RedactInput {
        RedactInput(raw: raw, loaded: try PasteLoader.decode(raw, name: name))
    }

    /// `bundleID: false` keeps the bundle id (`--keep bundle-id`).
    static func options(bundleID: Bool = true, keep: Set<RedactField> = []) -> RedactOptions {
        RedactOptions(keep: bundleID ? keep : keep.union([.bundleID]), key: .seeded("redact tests"))
    }

    static func open(_ raw: [UInt8], name: String = "copy") throws -> Document {
        Document.open(try PasteLoader.decode(raw, name: name), options: AnalysisOptions(validate: false))
    }

    /// The original's byte strings to look for in a copy, in every encoding a reader could find
    /// them in: as they are, as the minimal big-endian INTEGER of a decimal id, as lowercase and
    /// uppercase hex, and as base64 and base64url at the three alignments a run of bytes can have
    /// inside longer base64 text. Only values of 6 bytes or more: shorter ones (one-digit Xcode
    /// ids) occur by chance in any file.
    static func needles(_ value: RedactedValue) -> [[UInt8]] {
        var forms: [[UInt8]] = []
        switch value {
        case .text(let text):
            let bytes = Array(text.utf8)
            forms.append(bytes)
            if bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = UInt64(text) {
                var octets: [UInt8] = []
                var v = number
                repeat { octets.insert(UInt8(v & 0xFF), at: 0); v >>= 8 } while v > 0
                if octets.count >= 6 { forms.append(octets) }
            }
        case .bytes(let bytes):
            forms.append(bytes)
        }
        var needles: [[UInt8]] = []
        for form in forms where form.count >= 6 {
            needles.append(form)
            needles.append(Array(form.map { String(format: "%02x", $0) }.joined().utf8))
            needles.append(Array(form.map { String(format: "%02X", $0) }.joined().utf8))
            needles += base64Runs(form)
        }
        return needles
    }

    /// The base64 and base64url characters that encode only `bytes`, for each alignment.
    static func base64Runs(_ bytes: [UInt8]) -> [[UInt8]] {
        var runs: [[UInt8]] = []
        for pad in 0..<3 {
            let encoded = Array(Data([UInt8](repeating: 0, count: pad) + bytes).base64EncodedString().utf8)
            let first = (8 * pad + 5) / 6            // the first character with no bit of the padding
            let last = (8 * (pad + bytes.count)) / 6  // one past the last character with only these bytes
            guard last - first >= 6 else { continue }
            let run = Array(encoded[first..<last])
            runs.append(run)
            runs.append(run.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 })
        }
        return runs
    }

    /// Every haystack of a copy: its bytes as written, and every layer of it opened (decoded
    /// base64, a reassembled payload, a token's header and payload JSON, a nested token's text).
    static func haystacks(_ copy: [UInt8]) throws -> [(String, [UInt8])] {
        let document = try open(copy)
        return [("file as written", copy)] + document.layers.map { ("layer \($0.id.index) (\($0.name))", $0.bytes.array) }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        Data(haystack).range(of: Data(needle)) != nil
    }
}
