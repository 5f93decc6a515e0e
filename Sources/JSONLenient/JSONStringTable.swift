/// The decoded string values and member keys of a `JSONTree`, without a `String` each: a string with
/// no escape and only printable ASCII is its input bytes, so it is kept as a range of the input;
/// only the others (escapes, non-ASCII, defects) keep the scanner's decoded bytes, in one buffer.
/// A `String` is made when someone asks for one (a history body's 1,000 tokens of 4.5 KB each are
/// located by range and never read as text).
struct JSONStringTable: Sendable {
    /// 8 bytes (it was 24): offsets and lengths fit 30 bits, since the reader reads no input of
    /// 1 GiB or more (`JSONParser.nodeBudget`) and a decoded string is never longer than its text.
    struct Entry: Sendable {
        private static let inInputBit: UInt32 = 1 << 31, asciiBit: UInt32 = 1 << 30
        private let start32: UInt32
        private let countAndFlags: UInt32

        init(start: Int, count: Int, inInput: Bool, isASCII: Bool) {
            start32 = UInt32(truncatingIfNeeded: start)
            countAndFlags = UInt32(truncatingIfNeeded: count) | (inInput ? Self.inInputBit : 0) | (isASCII ? Self.asciiBit : 0)
        }

        /// Offset in the input (`inInput`) or in `decoded`.
        var start: Int { Int(start32) }
        var count: Int { Int(countAndFlags & (Self.asciiBit - 1)) }
        var inInput: Bool { countAndFlags & Self.inInputBit != 0 }
        /// Every decoded byte is ASCII: byte equality is then exactly `String`'s `==` against ASCII text.
        var isASCII: Bool { countAndFlags & Self.asciiBit != 0 }
    }

    var entries: [Entry] = []
    var decoded: [UInt8] = []

    var count: Int { entries.count }

    /// A string whose decoded value is `range` of the input as it is (printable ASCII, no escape).
    mutating func appendInput(_ range: Range<Int>) -> Int {
        entries.append(Entry(start: range.lowerBound, count: range.count, inInput: true, isASCII: true))
        return entries.count - 1
    }

    /// A string the scanner decoded.
    mutating func appendDecoded(_ value: [UInt8]) -> Int {
        let isASCII = value.allSatisfy { $0 < 0x80 }
        entries.append(Entry(start: decoded.count, count: value.count, inInput: false, isASCII: isASCII))
        decoded += value
        return entries.count - 1
    }

    /// The decoded UTF-8 bytes of string `index` (`input` is the tree's input).
    func withBytes<R>(_ index: Int, input: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let entry = entries[index]
        let storage = entry.inInput ? input : decoded
        return storage.withUnsafeBufferPointer { buffer in
            body(UnsafeBufferPointer(rebasing: buffer[entry.start..<(entry.start + entry.count)]))
        }
    }

    func string(_ index: Int, input: [UInt8]) -> String {
        withBytes(index, input: input) { String(decoding: $0, as: UTF8.self) }
    }

    /// `string(index) == value`, by bytes when both are ASCII (where `String`'s canonical equivalence
    /// is byte equality), else by `String` (so "\u{212A}" still equals "K", as in a `Dictionary`).
    func equals(_ index: Int, _ value: String, input: [UInt8]) -> Bool {
        JSONKeyQuery(value).matches(index, in: self, input: input)
    }

    /// `string(a) == string(b)` (the same rule as `equals`).
    func equals(_ a: Int, _ b: Int, input: [UInt8]) -> Bool {
        let x = entries[a], y = entries[b]
        guard x.isASCII, y.isASCII else { return string(a, input: input) == string(b, input: input) }
        guard x.count == y.count else { return false }
        return withBytes(a, input: input) { p in withBytes(b, input: input) { q in p.elementsEqual(q) } }
    }
}

/// The keys of one object read so far, to diagnose a duplicate as a `[String: Int]` would: the most
/// recent earlier member whose key is `==`. A scan by bytes while the object is small (no `String`
/// made for ASCII keys), a dictionary beyond that (so a hostile object stays linear).
struct SeenKeys {
    static let scanLimit = 32
    private var scanned: [(key: Int, member: Int)] = []
    private var hashed: [String: Int]?

    /// Records `key` (a string index) of `member`; returns the earlier member with the same key.
    mutating func insert(_ key: Int, member: Int, strings: JSONStringTable, input: [UInt8]) -> Int? {
        if hashed == nil {
            var earlier: Int?
            for entry in scanned.reversed() where strings.equals(entry.key, key, input: input) {
                earlier = entry.member
                break
            }
            // Room for the whole scan at once: growing one by one was half of recording a key.
            if scanned.capacity == 0 { scanned.reserveCapacity(Self.scanLimit + 1) }
            scanned.append((key, member))
            if scanned.count > Self.scanLimit {
                hashed = Dictionary(scanned.map { (strings.string($0.key, input: input), $0.member) }, uniquingKeysWith: { _, later in later })
                scanned = []
            }
            return earlier
        }
        let text = strings.string(key, input: input)
        defer { hashed?[text] = member }
        return hashed?[text]
    }
}

/// A string to compare with many table entries (a key looked up among an object's members): its
/// length and whether it is ASCII are worked out once, so each entry costs a length test and, when
/// the lengths agree, a byte loop over the string's own UTF-8 (no copy of it is made: the array
/// each query allocated was a third of a lookup, and a payload's kind asks for six keys).
struct JSONKeyQuery {
    let text: String
    let count: Int
    let isASCII: Bool

    init(_ text: String) {
        self.text = text
        count = text.utf8.count
        isASCII = text.utf8.allSatisfy { $0 < 0x80 }
    }

    func matches(_ index: Int, in table: JSONStringTable, input: [UInt8]) -> Bool {
        let entry = table.entries[index]
        guard entry.isASCII, isASCII else { return table.string(index, input: input) == text }
        guard entry.count == count else { return false }
        return table.withBytes(index, input: input) { bytes in
            text.utf8.withContiguousStorageIfAvailable { query in
                for i in 0..<bytes.count where bytes[i] != query[i] { return false }
                return true
            } ?? bytes.elementsEqual(text.utf8)
        }
    }
}
