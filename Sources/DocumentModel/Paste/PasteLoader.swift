import ASN1Lenient
import ByteText
import TextLoader

/// Loads FILE as every command does. A clean input (raw DER, base64, PEM, verifyReceipt JSON, a
/// token, JSON carrying tokens) takes the loader's own detection unchanged; only when that fails,
/// finds nothing but text, or decodes to text that is data again (base64 inside base64), does the
/// paste finder look inside the text. Text with no data in it is loaded with one error saying what
/// it looks like (exit 1), and is never read as ASN.1.
public enum PasteLoader {
    /// The argument's name in notes and messages when FILE was the data itself.
    public static let inlineName = "argument"

    /// Loads `path` ("-" reads standard input). A FILE argument that names no file but is clearly
    /// data (a token's shape, or long base64) is read as the data itself.
    public static func load(path: String) throws -> LoadedInput {
        try read(path: path).loaded
    }

    /// `load(path:)` with the bytes it read as they were (the file, standard input, or the argument
    /// itself): what `redact` writes its copy into, keeping everything around the data.
    public static func read(path: String) throws -> (raw: [UInt8], loaded: LoadedInput) {
        let raw: [UInt8], name: String
        do {
            (raw, name) = try InputLoader.readInput(path: path)
        } catch let error as InputError {
            // Only data that loads as data replaces the I/O error; anything else keeps it.
            guard path != "-", let inline = inlineData(path), let loaded = try? decode(inline, name: inlineName, inline: true),
                  isData(loaded) else { throw error }
            return (inline, loaded)
        }
        return (raw, try decode(raw, name: name))
    }

    /// Finds the data in `raw`; `inline` when it was the FILE argument itself.
    public static func decode(_ raw: [UInt8], name: String, inline: Bool = false) throws -> LoadedInput {
        var loaded: LoadedInput
        do {
            loaded = try InputLoader.decode(raw, name: name)
        } catch let error as InputError {
            // Empty or blank input, and binary, keep the loader's refusal.
            guard InputLoader.isTextLike(raw), raw.contains(where: { !PasteRuns.isSpace($0) }),
                  !InputLoader.containsPrivateKeyPEM(raw) else { throw error }
            if let found = found(in: raw, name: name, inline: inline) { return found }
            // Broken data keeps the loader's precise refusal (exit 2): a body whose "receipt-data"
            // is broken, broken PEM, base64 with a stray character. Anything else says what it is.
            if looksLikeBrokenData(raw) { throw error }
            return unrecognized(raw, name: name)
        }
        if isUnrecognizedText(loaded) {
            return found(in: raw, name: name, inline: inline) ?? unrecognized(raw, name: name)
        }
        if decodedToText(loaded) || startsLikeToken(raw, loaded) || notOneElement(loaded) || notATokenStart(loaded), let found = found(in: raw, name: name, inline: inline) { return found }
        if loaded.encoding == .jws { markCutOff(&loaded) }
        if inline { loaded.note = inlineNote + loaded.note }
        return loaded
    }

    /// A token (or an external purchase token), or one DER element: what an inline argument must load as to count as data.
    static func isData(_ loaded: LoadedInput) -> Bool {
        loaded.encoding == .jws || loaded.encoding == .externalPurchaseToken || (loaded.bytes.first == 0x30 && BERHeader.spansExactlyOneElement(loaded.bytes))
    }

    /// A whole-file token whose signature is shorter than its alg's: named as cut off too.
    static func markCutOff(_ loaded: inout LoadedInput) {
        guard let token = PasteToken.read(loaded.bytes, offsets: []), let cut = token.cutOff else { return }
        loaded.diagnostics.append(InputCode.cutOff.diagnostic(cut.message, cut.range))
        loaded.note += " (cut off)"
    }

    static let inlineNote = "given as the FILE argument (no file of that name): "

    /// The loader decoded base64 (or PEM, or a verifyReceipt body) to text made of base64 or token
    /// characters: the data was encoded twice. Checked on the first 64 bytes, so DER leaves at once.
    static func decodedToText(_ loaded: LoadedInput) -> Bool {
        guard [.base64, .pem, .verifyReceiptJSON].contains(loaded.encoding),
              loaded.bytes.count >= PasteRuns.minimumLength else { return false }
        return loaded.bytes.prefix(64).allSatisfy { PasteRuns.isData($0) || PasteRuns.isSpace($0) }
    }

    /// base64url text starting `eyJ` (`{"`) that the base64 step decoded: a token's header cut
    /// off before its first dot, which the finder names as such.
    static func startsLikeToken(_ raw: [UInt8], _ loaded: LoadedInput) -> Bool {
        loaded.encoding == .base64 && loaded.bytes.starts(with: Array("{\"".utf8))
    }

    /// Base64 that decoded to something other than one DER element: words of a log line read as
    /// base64 (spaces are ignored in base64), or a broken receipt (the finder then finds nothing).
    static func notOneElement(_ loaded: LoadedInput) -> Bool {
        loaded.encoding == .base64 && loaded.bytes.first != UInt8(ascii: "{") && !BERHeader.spansExactlyOneElement(loaded.bytes)
    }

    /// A "token" whose text does not start as a header does (`eyJ`, `{"`): `jws=eyJ…` is a token
    /// with a prefix (`=` is tolerated in tokens so that a broken one still loads as one).
    static func notATokenStart(_ loaded: LoadedInput) -> Bool {
        loaded.encoding == .jws && !loaded.bytes.starts(with: Array("eyJ".utf8))
    }

    /// The other-text step's result: text the loader's steps did not recognise.
    static func isUnrecognizedText(_ loaded: LoadedInput) -> Bool {
        loaded.encoding == .binary && InputLoader.isTextLike(loaded.bytes)
            && loaded.diagnostics.contains { $0.code == InputCode.unrecognizedText.code }
    }

    /// A verifyReceipt body, PEM, or one blob of base64-like characters (few spaces): the loader's
    /// refusal names the broken character; prose, HTML and other JSON are described instead.
    static func looksLikeBrokenData(_ raw: [UInt8]) -> Bool {
        let head = String(decoding: raw.prefix(1 << 16), as: UTF8.self)
        if head.contains("\"receipt-data\"") || head.contains("-----BEGIN ") { return true }
        let description = PasteDescription.describe(raw)
        if description.hasPrefix("a JSON") || description.hasPrefix("a verifyReceipt response") { return false }
        let spaces = raw.filter { $0 == 0x20 || $0 == 0x09 }.count
        let visible = raw.filter { !PasteRuns.isSpace($0) }.count
        return spaces * 20 < visible
    }

    /// The best candidate loaded, its origin recorded; nil when the text holds none.
    static func found(in raw: [UInt8], name: String, inline: Bool) -> LoadedInput? {
        let all = PasteFinder.find(in: raw)
        guard let best = all.first else { return nil }
        let candidate = best.candidate
        let others = all.dropFirst().map { "\($0.candidate.what) at \($0.location)" }
        var note = (inline ? inlineNote : "") + "found in the pasted text at \(best.location): \(candidate.what)"
        if candidate.extraDecodes > 0 {
            note += candidate.extraDecodes == 1 ? ", base64 inside base64 (decoded twice)" : ", base64 inside base64 inside base64 (decoded \(candidate.extraDecodes + 1) times)"
        }
        if !others.isEmpty {
            let shown = others.prefix(3).joined(separator: "; ")
            note += "; also found \(others.count) other\(others.count == 1 ? "" : "s"): \(shown)" + (others.count > 3 ? "; …" : "")
        }
        var diagnostics: [Diagnostic] = []
        if let cut = candidate.cutOff { diagnostics.append(InputCode.cutOff.diagnostic(cut.message, cut.range)) }
        let origin = PasteOrigin(text: raw, location: best.location, steps: candidate.steps, others: others)
        let encoding: InputEncoding = switch candidate.kind {
        case .der: .base64
        case .externalPurchaseToken: .externalPurchaseToken
        case .token, .cutOffToken: .jws
        }
        return LoadedInput(bytes: candidate.bytes, name: name, encoding: encoding,
                           note: note, diagnostics: diagnostics, origin: origin)
    }

    static func unrecognized(_ raw: [UInt8], name: String) -> LoadedInput {
        let what = PasteDescription.describe(raw)
        return LoadedInput(bytes: raw, name: name, encoding: .binary, note: "text, \(NumberText.grouped(raw.count)) bytes",
                           diagnostics: [InputCode.unrecognizedText.diagnostic(
                               "this looks like \(what): no receipt (base64, PEM, verifyReceipt JSON) or StoreKit token (JWS) was found in it", 0..<raw.count)])
    }

    /// The argument as data when it clearly is: after surrounding whitespace and quotes, at least
    /// 64 characters of base64 / base64url (with a token's dots), or a token's start.
    static func inlineData(_ argument: String) -> [UInt8]? {
        var bytes = Array(argument.utf8)[...]
        while let c = bytes.first, PasteRuns.isSpace(c) || c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") { bytes = bytes.dropFirst() }
        while let c = bytes.last, PasteRuns.isSpace(c) || c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") { bytes = bytes.dropLast() }
        // Base64 pasted with its line breaks (`"$(cat receipt.b64)"`) is one argument too.
        guard bytes.allSatisfy({ PasteRuns.isData($0) || PasteRuns.isSpace($0) }) else { return nil }
        let token = bytes.starts(with: Array("eyJ".utf8)) && bytes.count >= 20 && !bytes.contains(where: PasteRuns.isSpace)
        guard token || (bytes.count >= 64 && !bytes.contains(UInt8(ascii: "."))) else { return nil }
        return Array(argument.utf8)
    }
}
