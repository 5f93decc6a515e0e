import ASN1Lenient

/// The result of reading JSON: the input, the node arena in pre-order, decoded strings and every
/// diagnostic (byte ranges in `bytes`). Never throws: a broken document still yields what could be read.
public struct JSONTree: Sendable {
    public let bytes: [UInt8]
    public internal(set) var nodes: [JSONNode]
    /// Decoded string values and member keys (`JSONNode.text` indexes it), made into `String`s on access.
    var table: JSONStringTable
    public internal(set) var diagnostics: [Diagnostic]

    /// Every decoded string value and member key, in `JSONNode.text` order (each made on this call:
    /// prefer `string(at:)` / `key(ofMember:)`).
    public var strings: [String] { (0..<table.count).map { table.string($0, input: bytes) } }

    /// The top-level value (index 0), when one could be read.
    public var root: Int? { nodes.isEmpty ? nil : 0 }
    public var count: Int { nodes.count }
    public subscript(index: Int) -> JSONNode { nodes[index] }

    public func parent(of index: Int) -> Int? {
        let p = nodes[index].parent
        return p >= 0 ? p : nil
    }

    /// Direct children in order (members of an object, elements of an array, the value of a member).
    public func children(of index: Int) -> [Int] {
        var result: [Int] = []
        var child = index + 1
        while child < nodes[index].subtreeEnd {
            result.append(child)
            child = nodes[child].subtreeEnd
        }
        return result
    }

    /// The value node of a member (nil when the value could not be read).
    public func value(ofMember member: Int) -> Int? {
        nodes[member].kind == .member && nodes[member].subtreeEnd > member + 1 ? member + 1 : nil
    }

    /// The byte range of a member's value (empty at the member's end when the value is missing);
    /// a node's own range otherwise.
    public func valueRange(of index: Int) -> Range<Int> {
        guard nodes[index].kind == .member else { return nodes[index].range }
        return value(ofMember: index).map { nodes[$0].range } ?? nodes[index].end..<nodes[index].end
    }

    /// The decoded key of a member.
    public func key(ofMember member: Int) -> String? {
        nodes[member].kind == .member && nodes[member].text >= 0 ? table.string(nodes[member].text, input: bytes) : nil
    }

    /// `key(ofMember: member) == key`, without making a `String` when both are ASCII.
    public func memberKey(_ member: Int, is key: String) -> Bool {
        nodes[member].kind == .member && nodes[member].text >= 0 && table.equals(nodes[member].text, key, input: bytes)
    }

    /// `string(at: index) == value`, without making a `String` when both are ASCII.
    public func string(at index: Int, is value: String) -> Bool {
        nodes[index].kind == .string && nodes[index].text >= 0 && table.equals(nodes[index].text, value, input: bytes)
    }

    /// The member nodes of an object, in input order.
    public func members(of object: Int) -> [Int] {
        nodes[object].kind == .object ? children(of: object) : []
    }

    /// The member named `key` in an object. With duplicate keys (always diagnosed) the FIRST one wins:
    /// what Apple's own readers (`JSONSerialization`, and `JSONDecoder` on it) give an app on the device,
    /// and what `StoreKitPayload.field` (the summary) takes, so that both name the same value.
    /// (JavaScript's `JSON.parse` and many server libraries take the last.)
    public func member(_ key: String, in object: Int) -> Int? {
        guard nodes[object].kind == .object else { return nil }
        let query = JSONKeyQuery(key)
        var child = object + 1
        while child < nodes[object].subtreeEnd {
            if nodes[child].kind == .member, nodes[child].text >= 0, query.matches(nodes[child].text, in: table, input: bytes) {
                return child
            }
            child = nodes[child].subtreeEnd
        }
        return nil
    }

    /// The value of `key` in an object.
    public func value(_ key: String, in object: Int) -> Int? {
        member(key, in: object).flatMap { value(ofMember: $0) }
    }

    /// Follows object keys from `start` (the root by default): `lookup(["data", "bundleId"])`.
    public func lookup(_ keys: [String], from start: Int? = nil) -> Int? {
        guard var current = start ?? root else { return nil }
        for key in keys {
            guard let next = value(key, in: current) else { return nil }
            current = next
        }
        return current
    }

    public func string(at index: Int) -> String? {
        hasString(at: index) ? table.string(nodes[index].text, input: bytes) : nil
    }

    /// Whether `string(at: index)` has a value, without making it (a nested token is 5 KB of text).
    public func hasString(at index: Int) -> Bool { nodes[index].kind == .string && nodes[index].text >= 0 }

    /// `string(at: index)?.count`, without making the `String` when the value is its input bytes
    /// (printable ASCII, no escape: one character a byte; an escaped `\r\n` is one character of
    /// two bytes): a row preview reads it for a token string of thousands of characters.
    public func characterCount(ofString index: Int) -> Int? {
        guard nodes[index].kind == .string, nodes[index].text >= 0 else { return nil }
        let entry = table.entries[nodes[index].text]
        return entry.inInput ? entry.count : table.string(nodes[index].text, input: bytes).count
    }

    public func bool(at index: Int) -> Bool? {
        switch nodes[index].kind {
        case .true: true
        case .false: false
        default: nil
        }
    }

    public func number(at index: Int) -> JSONNumber? {
        guard nodes[index].kind == .number else { return nil }
        return JSONNumberReader.read(bytes[nodes[index].range])
    }

    /// The raw bytes of a node as written.
    public func text(of index: Int) -> String {
        String(decoding: bytes[nodes[index].range], as: UTF8.self)
    }

    /// For a string node: the input offset of every byte of its decoded UTF-8 value, so that text
    /// decoded from it (an x5c certificate's base64) can be pinned back to the JSON (`\/` is two
    /// input bytes for one decoded byte).
    public func sourceOffsets(ofString index: Int) -> [Int] {
        guard nodes[index].kind == .string else { return [] }
        var scanner = JSONStringScanner(bytes: bytes, start: nodes[index].start, recordsOffsets: true)
        return scanner.scan().sourceOffsets
    }
}
