import ASN1Lenient
import Platform
import ByteText

/// Reads a file (or stdin) and finds the DER/BER in it: raw bytes, base64 text, PEM armour or a
/// verifyReceipt request body. Detection is automatic and reported in `LoadedInput.note`.
///
/// Two kinds of failure, two exit statuses: an input that cannot be loaded at all (unreadable,
/// empty, clearly base64/PEM/JSON but undecodable) throws `InputError` (exit 2); an input that loads
/// but is not what this tool reads (UTF-16 text, a JSON array, NUL padding after base64, a first
/// element that leaves most of the file unread) is loaded as raw bytes with error diagnostics in
/// `LoadedInput.diagnostics`, pinned to byte ranges like the parser's (exit 1).
public enum InputLoader {
    /// The detection steps, in order; the first that claims the input wins (see `InputDetector`).
    /// 0. a StoreKit 2 compact JWS (three base64url runs, optionally quoted), or text carrying
    ///    StoreKit tokens (`signedPayload`, `signedTransactions`…) or an iOS 6 transaction receipt
    ///    → handed on as text (`JWSDetection.swift`);
    ///    (0b. one run of base64url starting `eyJ` whose JSON names externalPurchaseId: an external
    ///    purchase token, `ExternalPurchaseTokenDetection.swift`);
    /// 1. text whose first non-blank character is `{` → a verifyReceipt JSON body (`receipt-data`);
    /// 2. text containing a `-----BEGIN …-----` line → PEM (the first block);
    /// 3. UTF-16 text, and 4. base64 text padded with NUL bytes → loaded raw, with a diagnostic;
    /// 5. input made (almost) only of base64 characters and whitespace → base64. "Almost": when at
    ///    least 90% of the bytes are base64, a stray character is reported precisely instead of the
    ///    text being mistaken for binary;
    /// 6. any other text of 4 bytes or more → loaded raw, with a diagnostic;
    /// 7. anything else → raw DER/BER.
    public static let detectors: [InputDetector] = [
        .compactJWS, .externalPurchaseToken, .storeKitText, .verifyReceiptJSON, .pem, .utf16, .nulPaddedBase64, .base64, .otherText, .binary,
    ]

    /// Loads `path`; "-" reads standard input.
    public static func load(path: String) throws -> LoadedInput {
        let (raw, name) = try readInput(path: path)
        return try decode(raw, name: name)
    }

    /// The bytes of `path` ("-": standard input) and the name notes use for it.
    /// The largest input a command reads whole (a file, standard input). Reading an input takes at
    /// most about 3× its size plus 40 MB (docs/performance.md), so 512 MiB stays well inside a
    /// developer machine's memory; receipts and tokens are kilobytes, and a larger log is read line
    /// by line with `--lines`, whose memory does not grow with the file.
    public static let maximumInputSize = 512 << 20

    static func tooLarge(_ display: String, _ size: Int, exact: Bool) -> InputError {
        InputError("cannot read \(display): it is \(NumberText.grouped(size)) bytes\(exact ? "" : " or more"), over the input limit of 512 MiB "
                   + "(\(NumberText.grouped(maximumInputSize)) bytes); read a large log line by line with --lines, or cut out the part that holds the data")
    }

    public static func readInput(path: String) throws -> (raw: [UInt8], name: String) {
        if path == "-" { return (try readAll(fd: 0, display: "stdin"), "stdin") }
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        return (try readFile(path), name)
    }

    /// Finds the DER/BER in `raw`. `name` is used in notes and messages.
    public static func decode(_ raw: [UInt8], name: String) throws -> LoadedInput {
        if let loaded = plainBase64(raw, name: name) { return loaded.checkingFirstElementExtent() }
        return try decodeByDetectors(raw, name: name)
    }

    /// `decode` without the shortcut for plain base64: every detection step in order.
    static func decodeByDetectors(_ raw: [UInt8], name: String) throws -> LoadedInput {
        guard !raw.isEmpty else { throw InputError("\(InputError.quoted(name)) is empty (0 bytes)") }
        var start = 0
        if raw.count >= 3 && raw[0] == 0xEF && raw[1] == 0xBB && raw[2] == 0xBF { start = 3 }  // UTF-8 BOM
        guard let first = raw[start...].firstIndex(where: { !isSpace($0) }) else {
            throw InputError("\(InputError.quoted(name)) contains only whitespace (\(NumberText.grouped(raw.count)) bytes)")
        }
        // The token test first: a compact JWS is printable throughout (token characters inside,
        // whitespace, quotes and a byte-order mark around), so its answer settles `isTextLike` too,
        // and a batch line's token is read once, not twice.
        let token = JWSText.tokenRange(raw, from: first)
        let input = RawInput(bytes: raw, name: name, textStart: start, firstNonSpace: first,
                             isTextLike: token != nil || isTextLike(raw), compactJWS: token)
        for detector in detectors {
            if let loaded = try detector.detect(input) { return loaded.checkingFirstElementExtent() }
        }
        return input.asBinary().checkingFirstElementExtent()
    }

    // MARK: - Reading

    static func readFile(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw InputError("cannot read \(InputError.quoted(path)): \(errorText(errno))") }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            throw InputError("cannot read \(InputError.quoted(path)): it is a directory")
        }
        // Read a regular file of known size straight into its array; anything else (pipes, files
        // that grow while being read) continues in chunks.
        var result: [UInt8] = []
        if (info.st_mode & S_IFMT) == S_IFREG && info.st_size > 0 {
            let size = Int(info.st_size)
            if size > maximumInputSize { throw tooLarge(InputError.quoted(path), size, exact: true) }
            var failure: Int32 = 0
            result = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
                while initialized < size {
                    let n = read(fd, buffer.baseAddress! + initialized, size - initialized)
                    if n < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        break
                    }
                    if n == 0 { break }
                    initialized += n
                }
            }
            if failure != 0 { throw InputError("cannot read \(InputError.quoted(path)): \(errorText(failure))") }
            if result.count < size { return result }
        }
        return try readAll(fd: fd, display: "\(InputError.quoted(path))", into: result)
    }

    static func readAll(fd: Int32, display: String, into start: [UInt8] = [], limit: Int = maximumInputSize) throws -> [UInt8] {
        var result = start
        // A pipe hands over at most 64 KiB a read. The scratch is left uninitialised: a zeroed
        // 1 MiB buffer cost 256 page faults, a third of a millisecond, even when the first read
        // only confirmed the end of a file already read whole (issue 32, item 2).
        let chunk = 64 << 10
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let n = read(fd, buffer.baseAddress, chunk)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError("cannot read \(display): \(errorText(errno))")
            }
            if n == 0 { break }
            if result.count + n > limit { throw tooLarge(display, result.count + n, exact: false) }
            result.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
        return result
    }

    static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    // MARK: - Detection helpers

    @inline(__always)
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }

    /// No control bytes other than whitespace (see `RawInput.isTextLike`).
    public static func isTextLike(_ raw: [UInt8]) -> Bool { !controlCharacter.occurs(in: raw) }

    /// C0 controls other than whitespace, and DEL.
    static let controlCharacter = ByteClass { ($0 < 0x20 && !isSpace($0)) || $0 == 0x7F }

    /// True when the input is exactly one definite-length element (or an indefinite one):
    /// a strong sign of raw DER/BER even when every byte is printable.
    static func looksLikeOneElement(_ raw: [UInt8]) -> Bool { BERHeader.spansExactlyOneElement(raw) }

    // MARK: - PEM

    struct PEMBegin {
        var label: String
        var lineStart: Int
        /// Offset just past the BEGIN line's line break.
        var bodyStart: Int
    }

    /// The first line of the form `-----BEGIN LABEL-----`.
    static func findPEMBegin(_ raw: [UInt8]) -> PEMBegin? {
        let marker = Array("-----BEGIN ".utf8)
        var lineStart = 0
        while lineStart < raw.count {
            let lineEnd = raw[lineStart...].firstIndex(of: 0x0A) ?? raw.count
            var line = raw[lineStart..<lineEnd]
            while let last = line.last, isSpace(last) { line = line.dropLast() }
            while let firstByte = line.first, isSpace(firstByte) { line = line.dropFirst() }
            if line.starts(with: marker) && line.count > marker.count + 5
                && line.suffix(5).elementsEqual("-----".utf8) {
                let label = String(decoding: line.dropFirst(marker.count).dropLast(5), as: UTF8.self)
                return PEMBegin(label: label, lineStart: lineStart, bodyStart: min(lineEnd + 1, raw.count))
            }
            lineStart = lineEnd + 1
        }
        return nil
    }

    /// "PRIVATE KEY", "EC PRIVATE KEY", "ENCRYPTED PRIVATE KEY"…: PEM that is a secret.
    static func isPrivateKey(_ label: String) -> Bool { label.hasSuffix("PRIVATE KEY") }

    /// Whether `raw` holds PEM armour of a private key anywhere: the paste finder must not look
    /// inside it (its base64 body would otherwise be found and shown as data).
    public static func containsPrivateKeyPEM(_ raw: [UInt8]) -> Bool {
        guard let begin = findPEMBegin(raw) else { return false }
        return isPrivateKey(begin.label)
    }

    static func decodePEM(_ raw: [UInt8], name: String, begin: PEMBegin) throws -> LoadedInput {
        let endMarker = Array("-----END \(begin.label)-----".utf8)
        let beginLine = Base64Text.lineAndColumn(raw, offset: begin.lineStart).line
        // Find the END line; RFC 1421 headers ("Proc-Type: …" lines up to a blank line) are skipped.
        var bodyStart = begin.bodyStart
        var bodyEnd: Int?
        var afterEnd = raw.count
        var lineStart = begin.bodyStart
        var headerState = 0  // 0: first body line not seen yet, 1: in headers, 2: in base64
        while lineStart < raw.count {
            let lineEnd = raw[lineStart...].firstIndex(of: 0x0A) ?? raw.count
            let next = min(lineEnd + 1, raw.count)
            var line = raw[lineStart..<lineEnd]
            while let last = line.last, isSpace(last) { line = line.dropLast() }
            while let firstByte = line.first, isSpace(firstByte) { line = line.dropFirst() }
            if line.elementsEqual(endMarker) {
                bodyEnd = lineStart
                afterEnd = next
                break
            }
            if headerState == 0 { headerState = line.contains(UInt8(ascii: ":")) ? 1 : 2 }
            if headerState == 1 {
                bodyStart = next
                if line.isEmpty { headerState = 2 }
            }
            lineStart = next
        }
        let label = TerminalSafe.escape(begin.label)
        guard let end = bodyEnd else {
            throw InputError("cannot decode \(InputError.quoted(name)): PEM: '-----BEGIN \(label)-----' at line \(beginLine) has no matching '-----END \(label)-----' line")
        }
        switch Base64Text.decode(raw, range: bodyStart..<max(bodyStart, end)) {
        case .failure(let failure):
            throw InputError("cannot decode \(InputError.quoted(name)): PEM \(label): " + Base64Text.message(failure, text: raw))
        case .success(let decoded):
            var note = "decoded from PEM (\(label)): \(NumberText.grouped(decoded.characters)) base64 characters → \(NumberText.grouped(decoded.bytes.count)) bytes"
            let more = countPEMBlocks(raw, from: afterEnd)
            if more > 0 { note += " (first of \(more + 1) PEM blocks)" }
            return LoadedInput(bytes: decoded.bytes, name: name, encoding: .pem, note: note)
        }
    }

    static func countPEMBlocks(_ raw: [UInt8], from start: Int) -> Int {
        guard start < raw.count else { return 0 }
        var count = 0
        var rest = Array(raw[start...])
        while let begin = findPEMBegin(rest) {
            count += 1
            rest = Array(rest[begin.bodyStart...])
        }
        return count
    }

    // MARK: - verifyReceipt JSON

    static func decodeJSON(_ raw: [UInt8], name: String) throws -> LoadedInput {
        // Written without escapes (as it nearly always is), the string is decoded where it is in
        // the text; with escapes, its parse goes before it is decoded. A 67 MB body was held four
        // times at once, the text, the string, its bytes and the decoding (251 MB; issue 32).
        let decoded: Base64Text.Decoded
        switch try receiptData(raw, name: name) {
        case .verbatim(let range): decoded = try decodeReceiptData(raw, range: range, name: name)
        case .decoded(let text): decoded = try decodeReceiptData(text, range: 0..<text.count, name: name)
        }
        return LoadedInput(bytes: decoded.bytes, name: name, encoding: .verifyReceiptJSON,
                           note: "decoded from verifyReceipt JSON (\"receipt-data\"): \(NumberText.grouped(decoded.characters)) base64 characters → \(NumberText.grouped(decoded.bytes.count)) bytes")
    }

    /// `text[range]`, the "receipt-data" string, decoded; a failure is placed in the string.
    private static func decodeReceiptData(_ text: [UInt8], range: Range<Int>, name: String) throws -> Base64Text.Decoded {
        switch Base64Text.decode(text, range: range) {
        case .failure(let failure):
            let inString = Base64Text.Failure(offset: failure.offset - range.lowerBound, problem: failure.problem)
            throw InputError("cannot decode \(InputError.quoted(name)): \"receipt-data\" is not base64: " + Base64Text.message(inString, text: Array(text[range])))
        case .success(let decoded):
            return decoded
        }
    }

    /// The body's "receipt-data" string: where it is in `raw`, or (written with escapes) as UTF-8.
    private enum ReceiptData {
        case verbatim(Range<Int>)
        case decoded([UInt8])
    }

    private static func receiptData(_ raw: [UInt8], name: String) throws -> ReceiptData {
        let object: RequestBodyJSON.Value
        do {
            object = try RequestBodyJSON.parse(raw)
        } catch {
            throw InputError("cannot decode \(InputError.quoted(name)): it starts with '{' but is not valid JSON: \(TerminalSafe.escape(error.message))")
        }
        guard case .object(let dictionary) = object else {
            throw InputError("cannot decode \(InputError.quoted(name)): the JSON is not an object; expected a verifyReceipt request body {\"receipt-data\": \"<base64>\"}")
        }
        guard let value = dictionary["receipt-data"] else {
            let keys = dictionary.keys.sorted().prefix(8).map { "\"" + TerminalSafe.escape($0) + "\"" }
            let found = keys.isEmpty ? "it has no keys" : "its keys are " + keys.joined(separator: ", ")
            throw InputError("cannot decode \(InputError.quoted(name)): the JSON has no \"receipt-data\" field (\(found)); expected a verifyReceipt request body {\"receipt-data\": \"<base64>\"}")
        }
        guard case .string(let content) = value else {
            throw InputError("cannot decode \(InputError.quoted(name)): \"receipt-data\" is \(jsonKind(value)), not a base64 string")
        }
        switch content {
        case .verbatim(let range): return .verbatim(range)
        case .decoded(let text): return .decoded(Array(text.utf8))
        }
    }

    static func jsonKind(_ value: RequestBodyJSON.Value) -> String {
        switch value {
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        case .bool: return "a boolean"
        case .number(let text): return RequestBodyJSON.isZeroOrOne(text) ? "a boolean" : "a number"
        case .string: return "not a string"
        }
    }
}

extension InputDetector {
    static let verifyReceiptJSON = InputDetector(name: "verifyReceipt JSON") { input in
        guard input.isTextLike && input.bytes[input.firstNonSpace] == UInt8(ascii: "{") else { return nil }
        return try InputLoader.decodeJSON(input.text, name: input.name)
    }

    static let pem = InputDetector(name: "PEM") { input in
        guard input.isTextLike else { return nil }
        let text = input.text
        guard let begin = InputLoader.findPEMBegin(text) else { return nil }
        // A private key is never read, shown or echoed: its bytes are the secret itself.
        if InputLoader.isPrivateKey(begin.label) {
            throw InputError("\(InputError.quoted(input.name)) is a private key (PEM \(begin.label)): receipt-explorer does not show private keys; "
                             + "to check a developer-signed token with it, pass it to verify with --key (only its public half is used)")
        }
        return try InputLoader.decodePEM(text, name: input.name, begin: begin)
    }

    static let base64 = InputDetector(name: "base64") { input in
        let raw = input.bytes
        let start = input.textStart
        // Count the bytes that are not base64 or whitespace, stopping as soon as there are too many
        // for text (binary DER gets there within its first few hundred bytes).
        let tolerated = (raw.count - start) / 10
        var other = 0
        raw.withUnsafeBufferPointer { buffer in
            let table = Base64Text.table
            var i = start
            while i < buffer.count && other <= tolerated {
                if table[Int(buffer[i])] == Base64Text.invalid { other += 1 }
                i += 1
            }
        }
        guard other == 0 || (other <= tolerated && !InputLoader.looksLikeOneElement(raw)) else { return nil }
        switch Base64Text.decode(raw, range: start..<raw.count) {
        case .success(let decoded):
            return InputLoader.loadedBase64(decoded, name: input.name)
        case .failure(let failure):
            // A DER file that happens to consist of base64 characters only, or fewer characters
            // than one base64 group (`30` alone is a truncated SEQUENCE, not broken base64).
            if InputLoader.looksLikeOneElement(raw) { return nil }
            if raw[start...].lazy.filter({ !InputLoader.isSpace($0) }).count < 4 { return nil }
            throw InputError("cannot decode \(InputError.quoted(input.name)): " + Base64Text.message(failure, text: raw))
        }
    }
}

extension InputLoader {
    /// The base64 step's result for text it decoded.
    static func loadedBase64(_ decoded: Base64Text.Decoded, name: String) -> LoadedInput {
        let kind = decoded.urlSafe ? "base64url" : "base64"
        return LoadedInput(bytes: decoded.bytes, name: name, encoding: .base64,
                           note: "decoded from \(kind): \(NumberText.grouped(decoded.characters)) characters → \(NumberText.grouped(decoded.bytes.count)) bytes")
    }

    /// The input when it is standard-alphabet base64 and whitespace alone (a stored receipt, a line
    /// of a database export), decoded in one pass; nil for anything else, which the detection steps
    /// then read. Such text is what the steps would give to the base64 step too: it holds no byte
    /// the others look for (no byte-order mark, `.`, `{`, `-`, NUL or control byte), except an
    /// external purchase token's `eyJ`, which is left to them. Each step scanned the whole text
    /// (is it text, is there a PEM line, is it base64) before the decoder read it once more.
    static func plainBase64(_ raw: [UInt8], name: String) -> LoadedInput? {
        var first = 0
        while first < raw.count && isSpace(raw[first]) { first += 1 }
        if raw.count - first >= 3 && raw[first] == UInt8(ascii: "e") && raw[first + 1] == UInt8(ascii: "y")
            && raw[first + 2] == UInt8(ascii: "J") { return nil }
        guard case .success(let decoded) = Base64Text.decode(raw), !decoded.urlSafe else { return nil }
        return loadedBase64(decoded, name: name)
    }
}
