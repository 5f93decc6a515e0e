import ASN1Lenient
import ByteText

/// The loader's decision, as an ordered list of small steps. Each step looks at the raw input and
/// either claims it (returns the loaded input, or throws `InputError` when the input is clearly
/// that format but cannot be decoded) or passes (returns nil) to the next one. A new format is one
/// more entry in `InputLoader.detectors`, placed before the steps it must win against.
public struct InputDetector: Sendable {
    public var name: String
    public var detect: @Sendable (RawInput) throws -> LoadedInput?

    public init(name: String, detect: @escaping @Sendable (RawInput) throws -> LoadedInput?) {
        self.name = name
        self.detect = detect
    }
}

/// The raw input with the facts every detection step needs, computed once.
public struct RawInput: Sendable {
    public var bytes: [UInt8]
    public var name: String
    /// 3 after a UTF-8 byte-order mark, else 0.
    public var textStart: Int
    /// The first byte that is not whitespace (after the byte-order mark).
    public var firstNonSpace: Int
    /// No control byte other than whitespace: JSON, PEM or base64 text, never DER (whose length
    /// octets are almost always below 0x20).
    public var isTextLike: Bool
    /// The token's characters when the whole input is one compact JWS (`JWSText.tokenRange`).
    public var compactJWS: Range<Int>?

    /// The text without the byte-order mark (JSON and PEM offsets count from after it).
    public var text: [UInt8] { textStart == 0 ? bytes : Array(bytes[textStart...]) }

    /// Loads `bytes` as they are (the parser reads them as DER/BER) with `diagnostics` attached.
    public func asBinary(diagnostics: [Diagnostic] = []) -> LoadedInput {
        LoadedInput(bytes: bytes, name: name, encoding: .binary,
                    note: "raw DER/BER, \(NumberText.grouped(bytes.count)) bytes", diagnostics: diagnostics)
    }
}

/// Problems the loader finds: the input has errors (exit status 1), not "cannot be loaded" (an
/// `InputError`, exit status 2). The bytes are then loaded as they are, so every offset is an
/// offset into the file and the parser still shows what it makes of them.
public enum InputCode: String, Sendable, CaseIterable {
    /// Text (or a text encoding) that is none of base64, PEM or a verifyReceipt JSON object.
    case unrecognizedText = "input-unrecognized-text"
    /// The first element ends early and most of the input is not part of it.
    case mostlyUnread = "input-mostly-unread"
    /// A token found in pasted text ends early: a segment is missing or shorter than it must be.
    case cutOff = "input-cut-off"

    public var severity: Severity { .error }
}
extension InputCode: DiagnosticCodeFamily {}

extension DiagnosticCode {
    /// The loader's code, when the loader reported it.
    public var inputCode: InputCode? { InputCode(rawValue: rawValue) }
}

extension InputDetector {
    /// UTF-16 text (a byte-order mark FF FE / FE FF, or ASCII with every other byte 00): saved by
    /// an editor in the wrong encoding. Not DER in practice: FF / FE open a private-class tag, and DER
    /// made only of zero-length elements with printable tags (`30 00 30 00 …`) is not a receipt.
    static let utf16 = InputDetector(name: "UTF-16 text") { input in
        let b = input.bytes
        guard b.count >= 4 else { return nil }
        let bom = (b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF)
        guard bom || b.count >= 8 else { return nil }
        let sample = b.prefix(64).count & ~1
        func zeroEveryOther(_ phase: Int) -> Bool {
            stride(from: phase, to: sample, by: 2).allSatisfy { b[$0] == 0 }
                && stride(from: 1 - phase, to: sample, by: 2).allSatisfy { b[$0] >= 0x20 && b[$0] < 0x7F || RawInput.isSpace(b[$0]) }
        }
        guard bom || zeroEveryOther(0) || zeroEveryOther(1) else { return nil }
        let how = bom ? "a UTF-16 byte-order mark (\(Hex.byte(b[0], .upper)) \(Hex.byte(b[1], .upper)))" : "ASCII characters with every other byte 00"
        return input.asBinary(diagnostics: [InputCode.unrecognizedText.diagnostic(
            "this looks like UTF-16 text (\(how)); save it as UTF-8 or ASCII base64, PEM or JSON, or give the DER itself", 0..<b.count)])
    }

    /// Base64 text followed by NUL bytes (a fixed-size buffer written out whole).
    static let nulPaddedBase64 = InputDetector(name: "NUL-padded base64") { input in
        let b = input.bytes
        var end = b.count
        while end > 0 && b[end - 1] == 0 { end -= 1 }
        guard end < b.count else { return nil }
        var textEnd = end
        while textEnd > input.textStart && RawInput.isSpace(b[textEnd - 1]) { textEnd -= 1 }
        guard textEnd - input.firstNonSpace >= 4, input.firstNonSpace < textEnd,
              b[input.firstNonSpace..<textEnd].allSatisfy({ Base64Text.isBase64OrSpace($0) }) else { return nil }
        let characters = b[input.firstNonSpace..<textEnd].filter { !RawInput.isSpace($0) }.count
        return input.asBinary(diagnostics: [InputCode.unrecognizedText.diagnostic(
            "base64 text (\(NumberText.grouped(characters)) characters) followed by \(NumberText.grouped(b.count - end)) NUL byte(s) at offset \(NumberText.grouped(end)); remove the padding to decode it", end..<b.count)])
    }

    /// Text the earlier steps did not claim (a JSON array, prose, a hex dump): not an input this
    /// tool reads. Tiny inputs are left to the parser: `30` alone is a truncated SEQUENCE.
    static let otherText = InputDetector(name: "other text") { input in
        guard input.isTextLike, input.bytes.count >= 4, !BERHeader.spansExactlyOneElement(input.bytes) else { return nil }
        let first = input.bytes[input.firstNonSpace]
        let looks = first == UInt8(ascii: "[") ? "a JSON array" : "text"
        return input.asBinary(diagnostics: [InputCode.unrecognizedText.diagnostic(
            "this looks like \(looks), not base64, PEM or a verifyReceipt JSON object {\"receipt-data\": \"<base64>\"}; it is shown as raw bytes", 0..<input.bytes.count)])
    }

    /// The last step: the bytes are the DER/BER.
    static let binary = InputDetector(name: "DER/BER") { input in input.asBinary() }
}

extension RawInput {
    @inline(__always)
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
}

extension LoadedInput {
    /// Adds `input-mostly-unread` when the first element is definite and ends before half of the
    /// bytes: two files pasted together, or a format this tool does not know. Not added when a
    /// detection step already said what the input is.
    func checkingFirstElementExtent() -> LoadedInput {
        // Bytes starting `{` are JSON (a base64 body or iOS 6 plist), not one DER element with more after it.
        guard bytes.count >= 2, diagnostics.isEmpty, ![.jws, .storeKitText, .externalPurchaseToken].contains(encoding),
              bytes[0] != UInt8(ascii: "{") else { return self }
        let end: Int? = bytes.withUnsafeBufferPointer { buffer in
            guard case .success(let header) = BERHeader.read(buffer, at: 0, limit: buffer.count),
                  case .definite(let n, _) = header.length, n < buffer.count - header.contentStart else { return nil }
            return header.contentStart + n
        }
        guard let end, bytes.count - end > bytes.count / 2 else { return self }
        var out = self
        out.diagnostics.append(InputCode.mostlyUnread.diagnostic(
            "the first element ends at offset \(NumberText.grouped(end)); the \(NumberText.grouped(bytes.count - end)) bytes after it (most of the input) are not part of it", end..<bytes.count))
        return out
    }
}
