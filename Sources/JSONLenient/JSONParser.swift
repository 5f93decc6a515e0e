import ASN1Lenient
import ByteText

/// The offset-recording, error-tolerant JSON reader.
///
///     let tree = JSONParser.parse(bytes)
///     tree.lookup(["data", "bundleId"]).flatMap(tree.string(at:))
///
/// It keeps going after errors (skipping to the next `,` / `}` / `]`), never allocates by a size
/// the input claims, and stops descending at `maximumDepth` nested objects/arrays (the too-deep
/// container becomes one childless node covering its bytes), so recursion stays bounded.
/// Memory stays bounded by the input (issue 32) as in ASN1Lenient: at most `nodeBudget` nodes
/// (past it the rest is left unread under one `too-many-elements` error) and at most
/// `maxDiagnosticsPerCode` diagnostics of each code (`DiagnosticCap`).
public enum JSONParser {
    /// Nested objects and arrays allowed; Apple's payloads use 3.
    public static let maximumDepth = 256

    /// Nodes allowed per input byte (one per 32 bytes) and the allowance on top. A node costs 28
    /// bytes and a string's or key's entry 8 more, so the tree stays within about 1.1× the input
    /// plus 4.5 MiB however densely the input packs its values (`[0,0,…]` is one node per 2
    /// bytes: 14× the input without a budget). That leaves room for what commands build per node
    /// (`json` writes each value as it was read) within 3× the input plus 40 MB. StoreKit JSON
    /// averages 20 bytes or more per node (a transaction payload; a history body of 4.5 KB
    /// tokens far more): at that density a body of up to 7 MB is read whole.
    public static let bytesPerBudgetedNode = 32
    public static let nodeAllowance = 1 << 17

    /// The node budget of a parse of `inputBytes` bytes when `maxNodes` does not set one. Nothing is
    /// read from 1 GiB on (past the 512 MiB input limit): offsets are kept in 30 bits.
    public static func nodeBudget(inputBytes: Int) -> Int {
        inputBytes >= 1 << 30 ? 0 : inputBytes / bytesPerBudgetedNode + nodeAllowance
    }

    /// `maxNodes` (nil: `nodeBudget(inputBytes:)`) is for tests, as `ParseOptions.maxNodes` is.
    public static func parse(_ bytes: [UInt8], maxNodes: Int? = nil, maxDiagnosticsPerCode: Int = 10_000) -> JSONTree {
        var reader = JSONReader(bytes: bytes, maxNodes: maxNodes, maxDiagnosticsPerCode: maxDiagnosticsPerCode)
        reader.readDocument()
        reader.trimArenas()
        return JSONTree(bytes: bytes, nodes: reader.nodes, table: reader.strings, diagnostics: reader.findings.takeDiagnostics())
    }
}

struct JSONReader {
    let bytes: [UInt8]
    var pos = 0
    var nodes: [JSONNode] = []
    var strings = JSONStringTable()
    var findings: DiagnosticCap
    /// Most nodes this parse builds; `budgetReached` once a value or member started past it.
    let nodeBudget: Int
    var budgetReached = false

    init(bytes: [UInt8], maxNodes: Int? = nil, maxDiagnosticsPerCode: Int = 10_000) {
        self.bytes = bytes
        nodeBudget = max(0, maxNodes ?? JSONParser.nodeBudget(inputBytes: bytes.count))
        findings = DiagnosticCap(maxPerCode: maxDiagnosticsPerCode)
        // A node takes 2 input bytes or more (a value and its comma; nested brackets, 1 each, stop
        // at the depth limit): room for every node the input can hold, up to the budget, so the
        // arena never doubles (the old and the new copy together were twice the tree). Pages
        // never written are never resident, so a short token costs what it uses.
        let most = min(nodeBudget, bytes.count / 2 + 2 * JSONParser.maximumDepth + 2)
        nodes.reserveCapacity(most)
        strings.entries.reserveCapacity(most)
    }

    /// Gives back the room reserved for nodes the input did not hold. The reservation assumes 2
    /// bytes a node; a token's header is 300 bytes a node (its x5c strings), so a history of 10,000
    /// tokens kept 28 KB a token reserved and unused, 280 MB in all, more than its 50 MB of input.
    /// A tree that filled at least half its room keeps it (no copy: the large inputs).
    mutating func trimArenas() {
        if nodes.capacity > 2 * nodes.count + 64 { nodes = Self.exactCopy(nodes) }
        if strings.entries.capacity > 2 * strings.entries.count + 64 { strings.entries = Self.exactCopy(strings.entries) }
    }

    /// A copy in room for its elements only (`Array(a[...])` may keep the whole buffer).
    static func exactCopy<T>(_ array: [T]) -> [T] {
        var copy: [T] = []
        copy.reserveCapacity(array.count)
        copy.append(contentsOf: array)
        return copy
    }

    mutating func readDocument() {
        skipWhitespace()
        guard pos < bytes.count else {
            report(.emptyInput, "no JSON value in the input", pos, 0)
            return
        }
        guard readValue(parent: -1, depth: 0, containers: 0) != nil, !budgetReached else { return }
        skipWhitespace()
        if pos < bytes.count {
            report(.trailingData, "\(bytes.count - pos) bytes after the JSON value", pos, bytes.count - pos)
        }
    }

    // MARK: values

    /// Reads one value at `pos`; nil (with a diagnostic) when none starts here.
    mutating func readValue(parent: Int, depth: Int, containers: Int) -> Int? {
        guard pos < bytes.count else {
            report(.unexpectedEnd, "the input ends where a value was expected", pos, 0)
            return nil
        }
        if nodes.count >= nodeBudget, startsValue(bytes[pos]) {
            reachBudget(parent: parent)
            return nil
        }
        switch bytes[pos] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            if containers >= JSONParser.maximumDepth { return readTooDeep(parent: parent, depth: depth) }
            return bytes[pos] == UInt8(ascii: "{")
                ? readObject(parent: parent, depth: depth, containers: containers + 1)
                : readArray(parent: parent, depth: depth, containers: containers + 1)
        case UInt8(ascii: "\""):
            let index = append(.string, parent: parent, depth: depth)
            nodes[index].text = readString(node: index)
            finish(index)
            return index
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return readNumber(parent: parent, depth: depth)
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return readLiteral(parent: parent, depth: depth)
        default:
            report(.unexpectedCharacter, "\(CharacterName.at(bytes, pos)) cannot start a value", pos, 1)
            return nil
        }
    }

    mutating func readObject(parent: Int, depth: Int, containers: Int) -> Int {
        let index = append(.object, parent: parent, depth: depth)
        pos += 1
        var keys = SeenKeys()
        skipWhitespace()
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") {
            pos += 1
            finish(index)
            return index
        }
        while true {
            skipWhitespace()
            guard pos < bytes.count else {
                report(.unexpectedEnd, "object opened at \(nodes[index].start) is not closed", pos, 0)
                break
            }
            guard bytes[pos] == UInt8(ascii: "\"") else {
                report(.expectedKey, "expected a quoted key, found \(CharacterName.at(bytes, pos))", pos, 1)
                skipJunk()
                if closeOrContinue(closer: UInt8(ascii: "}")) { break } else { continue }
            }
            if nodes.count >= nodeBudget {
                reachBudget(parent: index)
                break
            }
            let member = append(.member, parent: index, depth: depth + 1)
            let key = readString(node: member)
            nodes[member].text = key
            nodes[member].keyEnd = pos
            if let earlier = keys.insert(key, member: member, strings: strings, input: bytes) {
                report(.duplicateKey, "key \"\(strings.string(key, input: bytes))\" already appears at offset \(nodes[earlier].keyStart); readers disagree on which one counts",
                       nodes[member].keyStart, pos - nodes[member].keyStart, node: member)
            }
            skipWhitespace()
            if pos < bytes.count, bytes[pos] == UInt8(ascii: ":") {
                pos += 1
            } else {
                report(.expectedColon, "expected ':' after the key", pos, pos < bytes.count ? 1 : 0)
            }
            skipWhitespace()
            let value = readValue(parent: member, depth: depth + 2, containers: containers)
            if value == nil && !budgetReached { skipJunk() }
            finish(member)
            if member + 1 < nodes.count { nodes[member].end = nodes[member + 1].end }
            if budgetReached { break }
            skipWhitespace()
            if afterElement(closer: UInt8(ascii: "}")) { break }
        }
        if budgetReached { skipUnread() }
        finish(index)
        return index
    }

    mutating func readArray(parent: Int, depth: Int, containers: Int) -> Int {
        let index = append(.array, parent: parent, depth: depth)
        pos += 1
        skipWhitespace()
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") {
            pos += 1
            finish(index)
            return index
        }
        while true {
            skipWhitespace()
            guard pos < bytes.count else {
                report(.unexpectedEnd, "array opened at \(nodes[index].start) is not closed", pos, 0)
                break
            }
            let value = readValue(parent: index, depth: depth + 1, containers: containers)
            if budgetReached { break }
            if value == nil { skipJunk() }
            skipWhitespace()
            if afterElement(closer: UInt8(ascii: "]")) { break }
        }
        if budgetReached { skipUnread() }
        finish(index)
        return index
    }

    /// After a member or element: a comma (continue), the closer (done), or a defect. True when done.
    mutating func afterElement(closer: UInt8) -> Bool {
        guard pos < bytes.count else {
            report(.unexpectedEnd, "the input ends inside \(closer == UInt8(ascii: "}") ? "an object" : "an array")", pos, 0)
            return true
        }
        if bytes[pos] == UInt8(ascii: ",") {
            let comma = pos
            pos += 1
            skipWhitespace()
            if pos < bytes.count, bytes[pos] == closer {
                report(.trailingComma, "comma before the closing bracket", comma, 1)
                pos += 1
                return true
            }
            return false
        }
        if closeOrContinue(closer: closer) { return true }
        return false
    }

    /// At a closer (expected or mismatched) consume it and say done; at anything else report a
    /// missing comma and, unless a new element starts here, skip to the next delimiter.
    mutating func closeOrContinue(closer: UInt8) -> Bool {
        guard pos < bytes.count else { return true }
        let c = bytes[pos]
        if c == closer {
            pos += 1
            return true
        }
        if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
            report(.mismatchedBracket, "'\(Character(Unicode.Scalar(c)))' where '\(Character(Unicode.Scalar(closer)))' was expected", pos, 1)
            pos += 1
            return true
        }
        if c == UInt8(ascii: ",") {
            pos += 1
            return false
        }
        report(.expectedComma, "expected ',' or '\(Character(Unicode.Scalar(closer)))', found \(CharacterName.at(bytes, pos))", pos, 1)
        if !startsValue(c) { skipJunk() }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: ",") { pos += 1 }
        return false
    }

    mutating func readNumber(parent: Int, depth: Int) -> Int {
        let index = append(.number, parent: parent, depth: depth)
        let start = pos
        while pos < bytes.count, isNumberByte(bytes[pos]) { pos += 1 }
        finish(index)
        if let number = JSONNumberReader.read(bytes[start..<pos]) {
            if !number.isExactInDouble {
                report(.numberBeyond53Bits, "\(number.text) is beyond ±2^53: most JSON readers cannot hold it exactly (Apple sends ids as strings)", start, pos - start, node: index)
            }
        } else {
            report(.invalidNumber, "malformed number", start, pos - start, node: index)
        }
        return index
    }

    mutating func readLiteral(parent: Int, depth: Int) -> Int? {
        let start = pos
        while pos < bytes.count, isWordByte(bytes[pos]) { pos += 1 }
        let word = String(decoding: bytes[start..<pos], as: UTF8.self)
        let kind: JSONKind? = switch word {
        case "true": .true
        case "false": .false
        case "null": .null
        default: nil
        }
        guard let kind else {
            report(.invalidLiteral, "\"\(word.prefix(40))\" is not true, false or null (strings need quotes)", start, pos - start)
            return nil
        }
        let index = append(kind, parent: parent, depth: depth)
        nodes[index].start = start
        finish(index)
        return index
    }

    /// A container beyond the depth limit: one childless node spanning it, found without recursion.
    mutating func readTooDeep(parent: Int, depth: Int) -> Int {
        let kind: JSONKind = bytes[pos] == UInt8(ascii: "{") ? .object : .array
        let index = append(kind, parent: parent, depth: depth)
        var open = 0
        repeat {
            let c = bytes[pos]
            if c == UInt8(ascii: "\"") {
                readStringQuietly()
                continue
            }
            if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") { open += 1 }
            if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") { open -= 1 }
            pos += 1
        } while open > 0 && pos < bytes.count
        finish(index)
        report(.nestingTooDeep, "more than \(JSONParser.maximumDepth) nested objects/arrays; this one is not read", nodes[index].start, pos - nodes[index].start, node: index)
        return index
    }

    // MARK: helpers

    /// Reads the string at `pos` (a quote) of `node`; returns its index in `strings`.
    mutating func readString(node: Int) -> Int {
        if let end = plainStringEnd() {
            // Nothing to decode or diagnose: the value is the input's bytes, kept as their range
            // (a history body is 4.5 MB of such token strings, never needed as `String`s).
            let index = strings.appendInput((pos + 1)..<end)
            pos = end + 1
            return index
        }
        var scanner = JSONStringScanner(bytes: bytes, start: pos)
        let result = scanner.scan()
        for var diagnostic in result.diagnostics {
            diagnostic.node = NodeIndex(node)
            findings.append(diagnostic)
        }
        pos = result.end
        return strings.appendDecoded(result.value)
    }

    /// The offset of the closing quote of the string at `pos` when everything before it is
    /// printable ASCII other than a backslash; nil otherwise (the scanner decodes and diagnoses).
    func plainStringEnd() -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            var i = pos + 1
            // Eight bytes at a time while none of them needs a look (a history body is 4.5 MB of
            // token text: the byte loop was an eighth of decoding one); the byte loop below decides.
            if let base = UnsafeRawPointer(buffer.baseAddress) {
                while i + 8 <= buffer.count, !Self.mayNeedALook(base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) {
                    i += 8
                }
            }
            while i < buffer.count {
                let c = buffer[i]
                if c == UInt8(ascii: "\"") { return i }
                if c < 0x20 || c >= 0x80 || c == UInt8(ascii: "\\") { return nil }
                i += 1
            }
            return nil
        }
    }

    /// Whether any of eight bytes is a quote, a backslash, a control character or not ASCII
    /// (exact: no borrow crosses bytes, since the high bit of every byte is cleared first).
    static func mayNeedALook(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let low7 = word & ~high
        // Per byte b (high bit cleared): b + 0x60 sets the high bit iff b >= 0x20.
        let atLeastSpace = (low7 &+ ones &* 0x60) & high
        func equals(_ c: UInt8) -> UInt64 {
            let x = low7 ^ (ones &* UInt64(c))  // zero exactly where the byte was c (or c | 0x80)
            return ~((x &+ ones &* 0x7F) | x) & high
        }
        return (word & high) | (~atLeastSpace & high) | equals(UInt8(ascii: "\"")) | equals(UInt8(ascii: "\\")) != 0
    }

    /// Skips a defect up to the next `,` `}` `]` at this level (strings and nested brackets skipped whole).
    mutating func skipJunk() { skipBalanced(toComma: true) }

    /// Moves `pos` to the next closing bracket at this level (and, with `toComma`, the next `,`),
    /// or to the end of the input: strings skipped whole, nested brackets counted whichever their kind.
    mutating func skipBalanced(toComma: Bool) {
        var open = 0
        while pos < bytes.count {
            let c = bytes[pos]
            if c == UInt8(ascii: "\"") {
                readStringQuietly()
                continue
            }
            let closes = c == UInt8(ascii: "}") || c == UInt8(ascii: "]")
            if open == 0 && (closes || (toComma && c == UInt8(ascii: ","))) { return }
            if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") { open += 1 }
            if closes { open -= 1 }
            pos += 1
        }
    }

    mutating func readStringQuietly() {
        var scanner = JSONStringScanner(bytes: bytes, start: pos)
        pos = scanner.scan().end
    }

    mutating func append(_ kind: JSONKind, parent: Int, depth: Int) -> Int {
        nodes.append(JSONNode(kind: kind, at: pos, parent: parent, subtreeEnd: nodes.count + 1, depth: depth))
        return nodes.count - 1
    }

    mutating func finish(_ index: Int) {
        nodes[index].end = pos
        nodes[index].subtreeEnd = nodes.count
    }

    mutating func skipWhitespace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case 0x20, 0x09, 0x0A, 0x0D: pos += 1
            default: return
            }
        }
    }

    /// `node` indexes `JSONTree.nodes` (the node the problem concerns), as in ASN1Lenient.
    mutating func report(_ code: JSONCode, _ message: String, _ offset: Int, _ length: Int, node: Int? = nil) {
        findings.append(code.diagnostic(message, offset..<(offset + length), node: node.map(NodeIndex.init)))
    }

    /// A byte that can begin a value: after a missing comma, read on from it instead of skipping.
    func startsValue(_ c: UInt8) -> Bool {
        c == UInt8(ascii: "\"") || c == UInt8(ascii: "{") || c == UInt8(ascii: "[") || c == UInt8(ascii: "-")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || isWordByte(c)
    }

    func isNumberByte(_ c: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
            || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
    }

    func isWordByte(_ c: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || c == UInt8(ascii: "_")
    }
}
