import ASN1Lenient
import ByteText
import TextLoader

/// Something found in pasted text that this tool reads: a compact JWS (whole or cut off) or base64
/// of DER (decoded once, or twice when the base64 held base64).
struct PasteCandidate {
    var shape: PasteShape
    /// The bytes to load: the token's characters, or the decoded DER.
    var bytes: [UInt8]
    /// From `bytes` outwards to the pasted text (see `PasteOrigin.steps`).
    var steps: [PasteOrigin.Step]
    /// "a compact JWS, 2,345 characters", "base64 (6,884 characters) of a PKCS#7 SignedData".
    var what: String
    /// The first character in the pasted text.
    var start: Int
    var path: String?
    var key: String?
    /// Base64 layers decoded to reach the data beyond the first (1: base64 inside base64).
    var extraDecodes = 0
    /// The cut-off finding, for a cut-off token.
    var cutOff: (message: String, range: Range<Int>)?

    /// Higher is more specific, as the formats' hints say (`DocumentFormat.pasteHints`): a receipt
    /// under a receipt key beats a token in a log line, which beats any other DER.
    var score: Int {
        var score = FormatRegistry.pasteHints.filter { $0.shape == shape && ($0.matches?(bytes) ?? true) }.map(\.score).max() ?? 0
        if let key, FormatRegistry.pasteDataKeys.contains(key) { score += 30 }
        return score
    }

    /// The PKCS#7 signedData OID (1.2.840.113549.1.7.2) near the start: a receipt's outer ContentInfo.
    static func isSignedData(_ bytes: [UInt8]) -> Bool {
        let oid: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        let head = bytes.prefix(32)
        guard head.count >= oid.count else { return false }
        return (0...(head.count - oid.count)).contains { head[head.startIndex + $0..<head.startIndex + $0 + oid.count].elementsEqual(oid) }
    }

    /// Reads `run`: a token, a cut-off token, or base64 of DER (decoding base64 inside base64 up to
    /// `maximumDecodes` times). Nil when it is none of these (a hash, an id, base64 of something else).
    static func evaluate(_ run: PasteRun, view: PasteView, decodes: Int = 0) -> PasteCandidate? {
        let text = run.characters
        let start = run.offsets.first ?? 0
        if text.starts(with: Array("eyJ".utf8)) || text.starts(with: Array("ewo".utf8)) {
            if let token = PasteToken.read(Array(text), offsets: run.offsets) {
                var candidate = token
                candidate.start = start
                candidate.path = view.path
                candidate.key = view.key
                return candidate
            }
        }
        if text.contains(UInt8(ascii: ".")) { return nil }
        guard case .success(let decoded) = run.decoded() else { return nil }
        let bytes = decoded.bytes
        let step = PasteOrigin.Step(kind: .base64, parentOffsets: run.offsets)
        // At any depth: base64 of an external purchase token (its characters) is found as base64 of a token is.
        if !decoded.urlSafe || text.allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "/") }),
           ExternalPurchaseTokenText.namesTokenFields(bytes), !text.contains(UInt8(ascii: "=")) {
            // Loaded as its characters (the JSON is its own layer), so the step copies them.
            return PasteCandidate(shape: .externalPurchaseToken, bytes: Array(text), steps: [PasteOrigin.Step(kind: .copied, parentOffsets: run.offsets)],
                                  what: "an external purchase token (base64url JSON, \(NumberText.grouped(text.count)) characters)",
                                  start: start, path: view.path, key: view.key)
        }
        if bytes.first == 0x30, BERHeader.spansExactlyOneElement(bytes) {
            let kind = isSignedData(bytes) ? "a PKCS#7 SignedData" : "DER"
            let alphabet = decoded.urlSafe ? "base64url" : "base64"
            return PasteCandidate(shape: .der, bytes: bytes, steps: [step],
                                  what: "\(alphabet) of \(kind) (\(NumberText.grouped(decoded.characters)) characters → \(NumberText.grouped(bytes.count)) bytes)",
                                  start: start, path: view.path, key: view.key)
        }
        // Base64 whose text is base64 again (or a token): decoded once more, and said so.
        guard decodes < maximumDecodes, bytes.count >= PasteRuns.minimumLength,
              bytes.allSatisfy({ PasteRuns.isData($0) || PasteRuns.isSpace($0) }) else { return nil }
        let innerView = PasteView(bytes: bytes, offsets: OffsetList(identity: 0..<bytes.count), path: view.path, key: view.key)
        let inner = PasteRuns.runs(in: innerView)
        guard inner.count == 1, var candidate = evaluate(inner[0], view: innerView, decodes: decodes + 1) else { return nil }
        candidate.steps.append(step)
        candidate.start = start
        candidate.extraDecodes += 1  // a cut-off finding stays pinned to the inner token's characters
        return candidate
    }

    /// Base64 inside base64 inside base64 is decoded; deeper is not looked for.
    static let maximumDecodes = 2
}
