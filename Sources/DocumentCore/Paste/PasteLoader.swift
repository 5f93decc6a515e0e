import ASN1Lenient
import ByteText
import TextLoader

/// The loader step of the one way in (`DocumentInput.read`): a clean input (raw DER, base64, PEM,
/// verifyReceipt JSON, a token, JSON carrying tokens) takes TextLoader's own detection unchanged;
/// only when that fails, finds nothing but text, or decodes to text that is data again (base64
/// inside base64), does the paste finder look inside the text. Text with no data in it is loaded
/// with one error saying what it looks like (exit 1), and is never read as ASN.1.
public enum PasteLoader {
    /// The argument's name in notes and messages when FILE was the data itself.
    public static let inlineName = InputPlace.argument.name

    /// Finds the data in `raw`, a file named `name` (tests and fuzzers; commands go through `DocumentInput`).
    public static func decode(_ raw: [UInt8], name: String, inline: Bool = false) throws -> LoadedInput {
        try decode(raw, place: inline ? .argument : .file(name), inline: inline)
    }

    /// Finds the data in `raw`, read from `place`; `inline` when it was the FILE argument itself.
    static func decode(_ raw: [UInt8], place: InputPlace, inline: Bool = false) throws -> LoadedInput {
        let name = place.name
        var loaded: LoadedInput
        do {
            loaded = try InputLoader.decode(raw, name: name)
        } catch let error as InputError {
            // Empty or blank input, and binary, keep the loader's refusal.
            guard InputLoader.isTextLike(raw), raw.contains(where: { !PasteRuns.isSpace($0) }),
                  !InputLoader.containsPrivateKeyPEM(raw) else { throw error }
            if let found = found(in: raw, place: place, inline: inline) { return found }
            // Broken data keeps the loader's precise refusal (exit 2): a body whose "receipt-data"
            // is broken, broken PEM, base64 with a stray character. Anything else says what it is.
            if looksLikeBrokenData(raw) { throw error }
            return unrecognized(raw, name: name)
        }
        if isUnrecognizedText(loaded) {
            return found(in: raw, place: place, inline: inline) ?? unrecognized(raw, name: name)
        }
        if decodedToText(loaded) || startsLikeToken(raw, loaded) || notOneElement(loaded) || notATokenStart(loaded) {
            // Words read as base64 (base64 ignores spaces): text, which is never read as ASN.1.
            let words = wordsReadAsBase64(raw, loaded)
            // Base64 of text without data in it: that text, read as text (never as ASN.1).
            let plainText = words ? nil : decodedPlainText(loaded)
            // The decoded bytes are not kept while the finder decodes its own candidates: a large
            // paste would otherwise be held decoded twice (issue 32's memory bound). When nothing
            // is found they are decoded again, as before.
            loaded.bytes = []
            if let found = found(in: raw, place: place, inline: inline) { return found }
            if words { return unrecognized(raw, name: name) }
            if let plainText { return plainText }
            loaded = try InputLoader.decode(raw, name: name)
        }
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
        guard case .cutOff(let message)? = PasteToken.reading(loaded.bytes) else { return }
        loaded.diagnostics.append(InputCode.cutOff.diagnostic(message, PasteToken.cutOffRange(loaded.bytes)))
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

    /// Text with spaces between its words inside a line ("hello world") that the base64 step read
    /// as base64 (it skips whitespace) into something that is not one DER element: words, not data.
    /// Base64 broken across lines (a cut-off receipt) has no spaces inside its lines and stays base64.
    static func wordsReadAsBase64(_ raw: [UInt8], _ loaded: LoadedInput) -> Bool {
        guard loaded.encoding == .base64, !BERHeader.spansExactlyOneElement(loaded.bytes) else { return false }
        var previousVisible = false
        var gap = false
        for byte in raw {
            if byte == 0x20 || byte == 0x09 {
                gap = previousVisible
            } else if byte == 0x0A || byte == 0x0D {
                previousVisible = false
                gap = false
            } else {
                if gap { return true }
                previousVisible = true
            }
        }
        return false
    }

    /// Base64 (or PEM) whose decoded bytes are UTF-8 text with no data in it: the decoded text as
    /// the Text kind, its note saying how it was decoded. DER always holds control bytes (tags,
    /// lengths), so a broken receipt is never taken for text.
    static func decodedPlainText(_ loaded: LoadedInput) -> LoadedInput? {
        guard [.base64, .pem].contains(loaded.encoding), !loaded.bytes.isEmpty, InputLoader.isTextLike(loaded.bytes),
              UTF8Text.firstInvalid(loaded.bytes, 0..<loaded.bytes.count) == nil,
              // A brace opens JSON or an OpenStep plist (an iOS 6 transaction receipt): the formats judge those.
              loaded.bytes.first(where: { !PasteRuns.isSpace($0) }) != UInt8(ascii: "{") else { return nil }
        var text = unrecognized(loaded.bytes, name: loaded.name)
        text.note = loaded.note + " of text"
        return text
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
    static func found(in raw: [UInt8], place: InputPlace, inline: Bool) -> LoadedInput? {
        let all = PasteFinder.find(in: raw)
        guard let best = all.first else { return nil }
        let candidate = best.candidate
        // Where each is, in the user's words: "characters 62-5383 of line 4 of app.log". The
        // text's positions are made once for all of them (finding 19).
        let positions = TextPositions(raw)
        func words(_ found: PasteCandidate) -> String {
            let origin = PasteOrigin(text: raw, location: "", steps: found.steps, positions: positions)
            return origin.words(origin.textRange(0..<found.bytes.count), place: place, path: found.path, positions: positions)
        }
        let others = all.dropFirst().map { "\($0.candidate.what) at \(words($0.candidate))" }
        let origin = PasteOrigin(text: raw, location: words(candidate), steps: candidate.steps, others: others, positions: positions)
        var note = (inline ? inlineNote : "") + "found at \(origin.location): \(candidate.what)"
        if candidate.extraDecodes > 0 {
            note += candidate.extraDecodes == 1 ? ", base64 inside base64 (decoded twice)" : ", base64 inside base64 inside base64 (decoded \(candidate.extraDecodes + 1) times)"
        }
        if !others.isEmpty {
            let shown = others.prefix(3).joined(separator: "; ")
            note += "; also found \(others.count) other\(others.count == 1 ? "" : "s"): \(shown)" + (others.count > 3 ? "; …" : "")
        }
        var diagnostics: [Diagnostic] = []
        if let cut = candidate.cutOff { diagnostics.append(InputCode.cutOff.diagnostic(cut.message, cut.range)) }
        let encoding: InputEncoding = switch candidate.shape {
        case .der: .base64
        case .externalPurchaseToken: .externalPurchaseToken
        case .token, .cutOffToken: .jws
        }
        return LoadedInput(bytes: candidate.bytes, name: place.name, encoding: encoding,
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
