import ByteText

/// One-line, terminal-safe descriptions of node values, shared by the tree dump, the explanation
/// and the terminal UI.
public enum ValueText {
    public struct Limits: Sendable {
        /// Strings longer than this many characters (Unicode scalars) are cut and end in "…".
        public var characters: Int
        /// Byte strings show at most this many bytes of hex, then "…".
        public var hexBytes: Int

        public init(characters: Int = 64, hexBytes: Int = 32) {
            self.characters = characters
            self.hexBytes = hexBytes
        }

        public static let standard = Limits()
        public static let unlimited = Limits(characters: Int.max, hexBytes: Int.max)
    }

    /// The value of node `index` as shown after its tag, or "" when there is nothing to show
    /// (constructed nodes, NULL). Never contains a control or invisible formatting character.
    public static func summary(_ tree: Tree, _ index: Int, limits: Limits = .standard) -> String {
        let node = tree[index]
        if node.kind == .unparsed {
            return bytesSummary(tree.content(of: index), limits: limits)
        }
        if node.isConstructed { return "" }
        if node.tagClass == .universal, node.tagNumber == 3 || node.tagNumber == 4 {
            return stringSummary(tree.content(of: index), bitString: node.tagNumber == 3,
                                 encapsulated: node.isEncapsulated, limits: limits)
        }
        if node.tagClass == .universal, node.tagNumber == 2 || node.tagNumber == 10, node.contentLength > 16 {
            return longIntegerSummary(tree.content(of: index), limits: limits)
        }
        // Enough bytes for `limits.characters` scalars of any encoding (4 bytes each at most), and
        // more than that many scalars whenever the content is longer, so "…" is still decided right.
        let prefix = limits.characters < Int.max / 8 ? limits.characters * 4 + 8 : Int.max
        guard let value = tree.value(of: index, textPrefix: prefix) else {
            return bytesSummary(tree.content(of: index), limits: limits)
        }
        switch value {
        case .boolean(let b):
            return b ? "TRUE" : "FALSE"
        case .integer(let decimal, let hex):
            return hex == nil ? decimal : longIntegerSummary(tree.content(of: index), limits: limits)
        case .bitString, .octets:  // read in place above
            return stringSummary(tree.content(of: index), bitString: node.tagNumber == 3,
                                 encapsulated: node.isEncapsulated, limits: limits)
        case .null:
            return ""
        case .objectIdentifier(let dotted, let name):
            return name.map { "\(dotted) (\($0))" } ?? dotted
        case .string(let text, let lossy):
            return quoted(text, limit: limits.characters) + (lossy ? " (lossy)" : "")
        case .time(let raw, let parsed):
            if let parsed { return quoted(raw, limit: limits.characters) + " = " + parsed.iso8601 }
            return quoted(raw, limit: limits.characters) + " (malformed)"
        case .invalid(let why):
            return "(invalid: \(TerminalSafe.escape(why)))"
        }
    }

    /// A BIT or OCTET STRING's summary read in place: `Value` copies the content, which for a
    /// string of megabytes was the largest allocation a summary made (issue 32's memory bound).
    private static func stringSummary(_ content: ArraySlice<UInt8>, bitString: Bool, encapsulated: Bool,
                                      limits: Limits) -> String {
        guard bitString else {
            return encapsulated ? "(\(byteCount(content.count)))" : bytesSummary(content, limits: limits)
        }
        guard let unused = content.first else { return "(invalid: BIT STRING without unused-bits octet)" }
        let bytes = content.dropFirst()
        let unusedText = unused == 0 ? "" : ", \(unused) unused bit\(unused == 1 ? "" : "s")"
        if encapsulated { return "(\(byteCount(bytes.count))\(unusedText))" }
        return "(\(byteCount(bytes.count))\(unusedText)) " + hex(bytes, limit: limits.hexBytes)
    }

    /// An integer of more than 16 octets, as hex cut after `limits.hexBytes` (read in place too).
    private static func longIntegerSummary(_ content: ArraySlice<UInt8>, limits: Limits) -> String {
        "0x\(hex(content, limit: limits.hexBytes)) (\(NumberText.grouped(content.count))-byte integer)"
    }

    /// "(5 bytes) 68656C6C6F \"hello\"": size, hex (cut after `limits.hexBytes`), and the text too
    /// when every byte is printable ASCII.
    public static func bytesSummary(_ bytes: ArraySlice<UInt8>, limits: Limits = .standard) -> String {
        if bytes.isEmpty { return "(0 bytes)" }
        var text = "(\(byteCount(bytes.count))) " + hex(bytes, limit: limits.hexBytes)
        if bytes.count >= 2 && bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            // Printable ASCII is a character a byte: one past the limit still decides the "…".
            let shown = limits.characters < Int.max ? bytes.prefix(limits.characters + 1) : bytes
            text += " " + quoted(String(decoding: shown, as: UTF8.self), limit: limits.characters)
        }
        return text
    }

    /// "1 byte", "5,162 bytes".
    public static func byteCount(_ n: Int) -> String { n == 1 ? "1 byte" : "\(NumberText.grouped(n)) bytes" }

    /// Upper-case hex without separators, cut after `limit` bytes with "…".
    public static func hex(_ bytes: ArraySlice<UInt8>, limit: Int = Int.max) -> String {
        Hex.string(bytes.prefix(limit), .upper) + (bytes.count > limit ? "…" : "")
    }

    /// Hex with a space between bytes ("30 82 14 23"), cut after `limit` bytes with " …".
    public static func spacedHex(_ bytes: ArraySlice<UInt8>, limit: Int = Int.max) -> String {
        Hex.string(bytes.prefix(limit), .upper, separator: " ") + (bytes.count > limit ? " …" : "")
    }

    /// The text quoted and escaped, cut after `limit` characters (Unicode scalars) with "…".
    public static func quoted(_ text: String, limit: Int) -> String {
        var scalars = text.unicodeScalars
        var cut = false
        if limit < Int.max, scalars.count > limit {
            var shortened = String.UnicodeScalarView()
            shortened.append(contentsOf: scalars.prefix(limit))
            scalars = shortened
            cut = true
        }
        return TerminalSafe.quoted(String(scalars)) + (cut ? "…" : "")
    }
}
