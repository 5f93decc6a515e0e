import ASN1Lenient
import ReceiptKit
import X509Trust
import ByteText
import DocumentCore

/// A value `redact` replaces, as the document holds it: decoded text (ids, tokens, a bundle id;
/// a DER INTEGER as its decimal text) or raw bytes (the opaque value, the SHA-1 hash).
public enum RedactedValue: Hashable, Sendable, Comparable {
    case text(String)
    case bytes([UInt8])

    public static func < (a: RedactedValue, b: RedactedValue) -> Bool {
        switch (a, b) {
        case (.text(let x), .text(let y)): Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8))
        case (.bytes(let x), .bytes(let y)): x.lexicographicallyPrecedes(y)
        case (.text, .bytes): true
        case (.bytes, .text): false
        }
    }

    var isEmpty: Bool {
        switch self {
        case .text(let s): s.isEmpty
        case .bytes(let b): b.isEmpty
        }
    }

    var byteCount: Int {
        switch self {
        case .text(let s): s.utf8.count
        case .bytes(let b): b.count
        }
    }

    var bytes: [UInt8] {
        switch self {
        case .text(let s): Array(s.utf8)
        case .bytes(let b): b
        }
    }
}

/// The run's secret: every stand-in is drawn from SHA-256(secret ‖ value ‖ counter), so it is the
/// same for the same value in every file of the run and says nothing about the value without the
/// secret (which is never written anywhere).
public struct StandInKey: Sendable {
    let secret: [UInt8]

    /// A fresh random secret: stand-ins differ from run to run.
    public static func random() -> StandInKey {
        var generator = SystemRandomNumberGenerator()
        return StandInKey(secret: (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// `--seed`: the same seed gives the same stand-ins (for reproducible copies and tests).
    public static func seeded(_ seed: String) -> StandInKey {
        StandInKey(secret: Digest.sha256(Array("receipt-explorer redact seed 1\u{0}".utf8) + Array(seed.utf8)))
    }
}

/// Why a stand-in could not be made.
public struct StandInError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

/// The run's table original → stand-in, drawn once for every value of every file (in sorted
/// order, so the table does not depend on the order of the files). A stand-in keeps the value's
/// length and character class (digits, a UUID, letters and digits in place, bytes), differs from
/// it, is used for no other value, and is never another original value of the run where the
/// class has room for that (one-digit Xcode ids do not always).
public struct StandIns: Sendable, Equatable {
    /// The originals that have a stand-in, their bytes end to end in the order drawn; each one's
    /// stand-in, of the same length, at the same offsets of `standInBytes`; `order` lists them in
    /// `RedactedValue` order for lookups. Byte buffers and offsets instead of a dictionary of
    /// values: a 20,000-purchase receipt's table took 8 MB, and building it beside the opened
    /// receipt 10 MB (issue 32).
    private var originalBytes: [UInt8] = []
    private var standInBytes: [UInt8] = []
    /// `starts[i]..<starts[i + 1]`: value i.
    private var starts: [Int] = [0]
    private var isText: [Bool] = []
    private var order: [Int32] = []

    public init(key: StandInKey, originals: Set<RedactedValue>) throws {
        var values = Values()
        for original in originals { values.insert(original) }
        try self.init(key: key, values: values)
    }

    /// The run's values as the table is drawn from them: a digit id as its number in its class
    /// (sorted, once each: `sort`), every other value as itself. A set of a 20,000-purchase
    /// receipt's 60,000 ids as strings took 6 MB beside the opened receipt (issue 32).
    package struct Values {
        var numbers: [DigitClass: [UInt64]] = [:]
        package private(set) var others = Set<RedactedValue>()

        package init() {}

        /// The digit ids' numbers, class by class (fewest digits first).
        package var digitIDs: [[UInt64]] { numbers.sorted { ($0.key.digits, $0.key.low) < ($1.key.digits, $1.key.low) }.map(\.value) }

        /// Adds `original` (an empty value has no stand-in: left out).
        package mutating func insert(_ original: RedactedValue) {
            guard !original.isEmpty else { return }
            if case .text(let text) = original, let (digitClass, value) = DigitClass.of(Array(text.utf8)) {
                numbers[digitClass, default: []].append(value)
            } else {
                others.insert(original)
            }
        }

        /// Each class's numbers in order, once each.
        package mutating func sort() {
            for digitClass in numbers.keys { SortedSearch.sortKeepingOneOfEach(&numbers[digitClass]!) }
        }

        /// Whether `value` is one of them (after `sort`): a digit id is one only as a number of its
        /// class, as `insert` put it there.
        package func contains(_ value: RedactedValue) -> Bool {
            guard case .text(let text) = value, let (digitClass, number) = DigitClass.of(Array(text.utf8)) else {
                return others.contains(value)
            }
            return numbers[digitClass].map { SortedSearch.contains($0, number) } ?? false
        }
    }

    package init(key: StandInKey, values: Values) throws {
        var values = values
        values.sort()
        // Room for every value, so that the buffers never grow by doubling: a 50 MB receipt's
        // table, held through the copy's check, took 10.5 MiB growing and takes 6.5 (issue 32).
        let count = values.numbers.values.reduce(values.others.count) { $0 + $1.count }
        let bytes = values.numbers.reduce(values.others.reduce(0) { $0 + $1.byteCount }) { $0 + $1.key.digits * $1.value.count }
        originalBytes.reserveCapacity(bytes)
        standInBytes.reserveCapacity(bytes)
        starts.reserveCapacity(count + 1)
        isText.reserveCapacity(count)
        // Digit ids first, class by class, each class in order; then every other value in order,
        // avoiding the stand-ins given so far (the digit ids' found in their class's sorted list).
        var digitStandIns: [DigitClass: [UInt64]] = [:]
        for (digitClass, sorted) in values.numbers.sorted(by: { ($0.key.digits, $0.key.low) < ($1.key.digits, $1.key.low) }) {
            let standIns = try digitClass.orderPreserving(sorted, key: key)
            for (original, standIn) in zip(sorted, standIns) { append(.text(String(original)), .text(String(standIn))) }
            digitStandIns[digitClass] = standIns.sorted()
        }
        func isDigitStandIn(_ value: RedactedValue) -> Bool {
            guard case .text(let text) = value, let (digitClass, number) = DigitClass.of(Array(text.utf8)),
                  let standIns = digitStandIns[digitClass] else { return false }
            return SortedSearch.contains(standIns, number)
        }
        var used = Set<RedactedValue>()
        for original in values.others.sorted() {
            var stream = RandomStream(key: key, value: original)
            let standIn = try Self.draw(original, stream: &stream, avoiding: { candidate, strict in
                candidate == original || used.contains(candidate) || isDigitStandIn(candidate) || (strict && values.contains(candidate))
            })
            used.insert(standIn)
            append(original, standIn)
        }
        order = (0..<Int32(isText.count)).sorted { precedes(Int($0), Int($1)) }
    }

    private mutating func append(_ original: RedactedValue, _ standIn: RedactedValue) {
        let (a, b) = (original.bytes, standIn.bytes)
        // Every class keeps the length (`candidate`): a stand-in of another length is a bug.
        precondition(a.count == b.count, "a stand-in of another length")
        originalBytes += a
        standInBytes += b
        starts.append(originalBytes.count)
        if case .text = original { isText.append(true) } else { isText.append(false) }
    }

    /// `RedactedValue` order of values i and j: text before bytes, then their bytes.
    private func precedes(_ i: Int, _ j: Int) -> Bool {
        if isText[i] != isText[j] { return isText[i] }
        return originalBytes[starts[i]..<starts[i + 1]].lexicographicallyPrecedes(originalBytes[starts[j]..<starts[j + 1]])
    }

    /// Whether the originals are still kept (`letOriginalsGo`).
    public var keepsOriginals: Bool { order.count == count }

    /// Keeps the stand-ins alone, once every value of the run is known by its place in the table:
    /// what `redact` without a mapping needs to write and check the copies (the originals were half
    /// of a 50 MB receipt's table; issue 32). Looking up an original afterwards is a bug.
    public mutating func letOriginalsGo() {
        originalBytes = []
        order = []
    }

    /// How many values have a stand-in.
    public var count: Int { isText.count }

    public subscript(original: RedactedValue) -> RedactedValue? {
        index(of: original).map(standIn(at:))
    }

    /// Value i's stand-in (`index(of:)`).
    func standIn(at i: Int) -> RedactedValue { value(i, in: standInBytes) }

    /// Value i itself, while the originals are kept.
    func original(at i: Int) -> RedactedValue {
        precondition(keepsOriginals, "an original looked up after the run let them go")
        return value(i, in: originalBytes)
    }

    private func value(_ i: Int, in bytes: [UInt8]) -> RedactedValue {
        let range = starts[i]..<starts[i + 1]
        return isText[i] ? .text(String(decoding: bytes[range], as: UTF8.self)) : .bytes(Array(bytes[range]))
    }

    /// Where `original` is among the values, by binary search in `order`; nil when it has no stand-in.
    func index(of original: RedactedValue) -> Int? {
        precondition(keepsOriginals, "an original looked up after the run let them go")
        let text: Bool
        let key: [UInt8]
        switch original {
        case .text(let string): text = true; key = Array(string.utf8)
        case .bytes(let bytes): text = false; key = bytes
        }
        func value(_ i: Int) -> ArraySlice<UInt8> { originalBytes[starts[i]..<starts[i + 1]] }
        let at = SortedSearch.partition(order.count) { k in
            let i = Int(order[k])
            return isText[i] != text ? isText[i] : value(i).lexicographicallyPrecedes(key)
        }
        guard at < order.count else { return nil }
        let i = Int(order[at])
        return isText[i] == text && value(i).elementsEqual(key) ? i : nil
    }

    /// Draws candidates until one is acceptable: first avoiding every original, then (for classes
    /// too small for that) only the value itself and the stand-ins already given.
    static func draw(_ original: RedactedValue, stream: inout RandomStream,
                     avoiding rejected: (RedactedValue, _ strict: Bool) -> Bool) throws -> RedactedValue {
        for strict in [true, false] {
            for _ in 0..<256 {
                let candidate = candidate(for: original, stream: &stream)
                if !rejected(candidate, strict) { return candidate }
            }
        }
        let length = original.bytes.count
        throw StandInError(description: "no stand-in of the same length and class is left for a \(length)-character value")
    }

    static func candidate(for original: RedactedValue, stream: inout RandomStream) -> RedactedValue {
        switch original {
        case .bytes(let bytes):
            return .bytes(bytesCandidate(bytes, stream: &stream))
        case .text(let text):
            let utf8 = Array(text.utf8)
            if isUUID(utf8) { return .text(uuidCandidate(utf8, stream: &stream)) }
            if utf8.allSatisfy(isDigit), let number = digitsCandidate(utf8, stream: &stream) { return .text(number) }
            return .text(characterCandidate(utf8, stream: &stream))
        }
    }

    // MARK: - Classes

    /// Random bytes; when the value does not look like one DER element, neither does the stand-in
    /// (the parser guesses ASN.1 inside OCTET STRINGs that do, which would change the tree).
    static func bytesCandidate(_ original: [UInt8], stream: inout RandomStream) -> [UInt8] {
        let looksLikeElement = BERHeader.spansExactlyOneElement(original) && original.first != 0
        while true {
            let candidate = stream.bytes(original.count)
            let candidateLooks = BERHeader.spansExactlyOneElement(candidate) && candidate.first != 0
            if looksLikeElement || !candidateLooks { return candidate }
        }
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    static func isHex(_ c: UInt8) -> Bool { isDigit(c) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x66) }

    /// 8-4-4-4-12 hexadecimal digits.
    static func isUUID(_ text: [UInt8]) -> Bool {
        guard text.count == 36 else { return false }
        for (i, c) in text.enumerated() {
            if [8, 13, 18, 23].contains(i) { if c != UInt8(ascii: "-") { return false } } else if !isHex(c) { return false }
        }
        return true
    }

    /// A random version-4 UUID in the original's letter case.
    static func uuidCandidate(_ original: [UInt8], stream: inout RandomStream) -> String {
        var random = stream.bytes(16)
        random[6] = (random[6] & 0x0F) | 0x40
        random[8] = (random[8] & 0x3F) | 0x80
        let upper = original.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") }
        var out: [UInt8] = []
        for (i, byte) in random.enumerated() {
            if [4, 6, 8, 10].contains(i) { out.append(UInt8(ascii: "-")) }
            Hex.append(byte, to: &out, upper ? .upper : .lower)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The same number of digits, no leading zero (unless the value is one digit), and the same
    /// length as a minimal DER INTEGER, so that a receipt's in-app 1711 and a token's
    /// webOrderLineItemId with the same value get the same stand-in and the receipt's lengths stay.
    /// Nil for values with a leading zero or beyond 64 bits (drawn digit by digit instead).
    static func digitsCandidate(_ original: [UInt8], stream: inout RandomStream) -> String? {
        let n = original.count
        guard n <= 19, n == 1 || original[0] != UInt8(ascii: "0"),
              let value = UInt64(String(decoding: original, as: UTF8.self)) else { return nil }
        var power: UInt64 = 1
        for _ in 1..<n { power *= 10 }
        let digitLow: UInt64 = n == 1 ? 0 : power
        let digitHigh: UInt64 = power * 10 - 1
        let octets = derLength(value)
        let derLow: UInt64 = octets == 1 ? 0 : UInt64(1) << UInt64(8 * (octets - 1) - 1)
        let derHigh: UInt64 = octets >= 9 ? UInt64.max : (UInt64(1) << UInt64(8 * octets - 1)) - 1
        let low = max(digitLow, derLow), high = min(digitHigh, derHigh)
        return String(low + stream.below(high - low + 1))
    }

    /// Octets of a minimal two's-complement INTEGER holding `value`.
    static func derLength(_ value: UInt64) -> Int {
        var octets = 1
        while octets < 9 && value >= UInt64(1) << UInt64(8 * octets - 1) { octets += 1 }
        return octets
    }

    /// Letters stay letters of the same case, digits stay digits (a non-zero first character
    /// stays non-zero, so a number keeps its length); everything else is kept.
    static func characterCandidate(_ original: [UInt8], stream: inout RandomStream) -> String {
        var out = original
        for (i, c) in original.enumerated() {
            switch c {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): out[i] = UInt8(ascii: "a") + UInt8(stream.below(26))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): out[i] = UInt8(ascii: "A") + UInt8(stream.below(26))
            case UInt8(ascii: "1")...UInt8(ascii: "9") where i == 0 && original.count > 1:
                out[i] = UInt8(ascii: "1") + UInt8(stream.below(9))
            case UInt8(ascii: "0")...UInt8(ascii: "9"): out[i] = UInt8(ascii: "0") + UInt8(stream.below(10))
            default: break
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Digit ids of one length and one DER INTEGER length: their stand-ins are drawn from the same
/// interval (see `StandIns.digitsCandidate`) and given out in the originals' order. Order matters:
/// a DER SET's elements are sorted by their bytes, and two in-app purchases often first differ in
/// a transaction id, so stand-ins out of order would turn a sorted SET into an unsorted one.
struct DigitClass: Hashable {
    var digits: Int
    var low: UInt64
    var high: UInt64

    /// The class and value of a digit id without a leading zero that fits in 64 bits.
    static func of(_ text: [UInt8]) -> (DigitClass, UInt64)? {
        let n = text.count
        guard n >= 1, n <= 19, text.allSatisfy(StandIns.isDigit), n == 1 || text[0] != UInt8(ascii: "0"),
              let value = UInt64(String(decoding: text, as: UTF8.self)) else { return nil }
        var power: UInt64 = 1
        for _ in 1..<n { power *= 10 }
        let octets = StandIns.derLength(value)
        let derLow: UInt64 = octets == 1 ? 0 : UInt64(1) << UInt64(8 * (octets - 1) - 1)
        let derHigh: UInt64 = octets >= 9 ? UInt64.max : (UInt64(1) << UInt64(8 * octets - 1)) - 1
        return (DigitClass(digits: n, low: max(n == 1 ? 0 : power, derLow), high: min(power * 10 - 1, derHigh)), value)
    }

    /// Stand-ins for `originals` (sorted, distinct), in the same order: none equal to its own
    /// original, and none equal to any original where the interval has room for that.
    func orderPreserving(_ originals: [UInt64], key: StandInKey) throws -> [UInt64] {
        var stream = RandomStream(key: key, value: .text("digits \(digits) \(low)"))
        let size = high - low + 1  // never 0: high < 2^64 - 1 or low > 0
        let taken = Set(originals)
        let room = size - UInt64(originals.count)
        if room >= UInt64(originals.count) {
            // Enough values that are no original: draw that many distinct ones.
            var chosen = Set<UInt64>()
            if size <= 1 << 20 {
                var pool = (low...high).filter { !taken.contains($0) }
                for i in 0..<originals.count {
                    let j = i + Int(stream.below(UInt64(pool.count - i)))
                    pool.swapAt(i, j)
                    chosen.insert(pool[i])
                }
            } else {
                while chosen.count < originals.count {
                    let value = low + stream.below(size)
                    if !taken.contains(value) { chosen.insert(value) }
                }
            }
            return chosen.sorted()
        }
        // Few values (one-digit Xcode ids): any distinct ones, as long as none stays itself.
        for _ in 0..<1024 {
            var pool = Array(low...high)
            for i in 0..<originals.count {
                let j = i + Int(stream.below(UInt64(pool.count - i)))
                pool.swapAt(i, j)
            }
            let drawn = pool.prefix(originals.count).sorted()
            if !zip(drawn, originals).contains(where: { $0 == $1 }) { return drawn }
        }
        throw StandInError(description: "no order-keeping stand-ins are left for \(originals.count) \(digits)-digit values")
    }
}

/// Bytes drawn from SHA-256(secret ‖ value kind ‖ value ‖ counter), block after block.
struct RandomStream {
    private let seed: [UInt8]
    private var counter: UInt32 = 0
    private var buffer: [UInt8] = []

    init(key: StandInKey, value: RedactedValue) {
        switch value {
        case .text(let text): seed = key.secret + [0x74] + Array(text.utf8)
        case .bytes(let bytes): seed = key.secret + [0x62] + bytes
        }
    }

    mutating func byte() -> UInt8 {
        if buffer.isEmpty {
            let count = withUnsafeBytes(of: counter.bigEndian) { Array($0) }
            buffer = Digest.sha256(seed + count)
            counter &+= 1
        }
        return buffer.removeLast()
    }

    mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in byte() } }

    /// Uniform in 0..<bound (bound 0 means 2^64), by rejection.
    mutating func below(_ bound: UInt64) -> UInt64 {
        while true {
            var value: UInt64 = 0
            for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
            if bound == 0 { return value }
            let limit = UInt64.max - UInt64.max % bound
            if value < limit { return value % bound }
        }
    }
}
