import ASN1Lenient
import ReceiptKit
import DocumentCore

/// The `json` command's document of a receipt: a `receipt` object shaped like Apple's verifyReceipt
/// response (numbers as strings, `_ms` epoch-millisecond strings, dates `2015-05-23 12:18:09 Etc/GMT`,
/// `_pst` forms in America/Los_Angeles, flags "true"/"false", absent fields omitted), beside it
/// `validation`, `verdict`, `unlisted_attributes`, `findings` and `source` (input offset and
/// length of every field's value bytes: `bundle_id`, `in_app[0]`, `in_app[0].product_id`, …).
/// Keys are sorted so the output is stable.
///
/// The `json` document of a receipt written straight into bytes, in `ReceiptJSON.serialize`'s
/// formatting (sorted keys, the same escapes) without building dictionaries. The receipt, its
/// purchases, `source` and `subscriptions` are most of a document and are streamed member by
/// member; the small parts of no fixed shape (the input's `found`, an unlisted attribute's inner
/// value) go through `JSONStreamWriter.any`.
extension ReceiptJSON {
    /// The document as pretty-printed JSON with sorted keys. Characters a terminal would act on
    /// (bidi overrides, zero-width characters, C1 controls) are written as `\u` escapes too.
    /// Written by `streamed` (ReceiptJSONStream.swift), the one writer of this document (no
    /// dictionaries: docs/performance.md "Batch json"); ReceiptJSONTests hold the exact bytes.
    public static func text(_ a: ReceiptAnalysis, input: InputInfo? = nil, words: StepText = .plain) -> String {
        var bytes: [UInt8] = []
        stream(a, input: input, words: words) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A batch `json` line: the compact document with `"source"` and `"line"`.
    public static func batchLine(_ a: ReceiptAnalysis, input: InputInfo? = nil, words: StepText = .plain,
                                 source: BatchSourceFields) -> String {
        String(decoding: streamed(a, input: input, words: words, compact: true, batchSource: source), as: UTF8.self)
    }

    static func streamed(_ a: ReceiptAnalysis, input: InputInfo?, words: StepText, compact: Bool,
                         batchSource: BatchSourceFields? = nil) -> [UInt8] {
        let receipt = a.receipt
        var w = JSONStreamWriter(compact: compact, capacity: 4096 + (receipt?.inApp.count ?? 0) * 2048 + (receipt?.unlistedCount ?? 0) * 192)
        write(a, input: input, words: words, batchSource: batchSource, into: &w)
        return w.finishLine()
    }

    /// The pretty document handed to `sink` in pieces as it is written, never whole (a
    /// 20,000-purchase receipt's is 60 MB: held whole, and copied into a `String` and an output
    /// buffer, it peaked at 250 MiB).
    /// `bufferSize`: the bytes handed over at a time (tests cut the document into small pieces).
    /// `compact` and `batchSource`: a batch line too large to make whole (`JSONLine.write`).
    public static func stream(_ a: ReceiptAnalysis, input: InputInfo? = nil, words: StepText = .plain,
                              compact: Bool = false, batchSource: BatchSourceFields? = nil,
                              bufferSize: Int = 1 << 16, to sink: (UnsafeRawBufferPointer) -> Void) {
        withoutActuallyEscaping(sink) { sink in
            var w = JSONStreamWriter(compact: compact, capacity: bufferSize, sink: sink)
            write(a, input: input, words: words, batchSource: batchSource, into: &w)
            w.finishStreamedLine()
        }
    }

    private static func write(_ a: ReceiptAnalysis, input: InputInfo?, words: StepText,
                              batchSource: BatchSourceFields?, into w: inout JSONStreamWriter) {
        let receipt = a.receipt
        w.openObject()
        w.key("findings")
        w.openArray()
        for d in a.allDiagnostics { w.element(); writeFinding(d, into: &w) }
        w.closeArray()
        w.key("input"); writeInput(a, input, into: &w)
        if let line = batchSource?.line { w.key("line"); w.int(line) }
        w.key("receipt")
        // A batch line's "source" is the file: the byte ranges are not written, so not gathered.
        var ranges = SourceRanges(gathering: batchSource == nil)
        if let receipt { writeReceipt(receipt, a, ranges: &ranges, into: &w) } else { w.openObject(); w.closeObject() }
        w.key("source")
        if let batchSource { w.string(batchSource.file) } else { ranges.write(receipt, a, into: &w) }
        if let receipt { w.key("subscriptions"); writeSubscriptions(receipt, at: ReceiptDate(a.options.moment), into: &w) }
        w.key("unlisted_attributes")
        w.openArray()
        if let receipt { writeUnlisted(receipt, a, into: &w) }
        w.closeArray()
        w.key("validation")
        w.openArray()
        for step in a.validationSteps { w.element(); writeStep(step, words, into: &w) }
        w.closeArray()
        w.key("verdict")
        w.openObject()
        w.key("reasons")
        w.openArray()
        for reason in a.verdict.reasons { w.element(); w.string(words.reason(reason)) }
        w.closeArray()
        w.key("summary"); w.string(words.summary(a.verdict))
        w.key("valid"); w.bool(a.verdict.isValid)
        w.closeObject()
        w.closeObject()
    }

    /// `findingObject`, streamed.
    static func writeFinding(_ d: Diagnostic, into w: inout JSONStreamWriter) {
        w.openObject()
        w.key("code"); w.string(d.code.rawValue)
        w.key("length"); w.int(d.length)
        w.key("message"); w.string(d.message)
        w.key("offset"); w.int(d.offset)
        w.key("severity"); w.string(d.severity.description)
        w.closeObject()
    }

    /// `inputObject`, streamed (the pasted text's `found`, rare and of no fixed shape, through `any`).
    private static func writeInput(_ a: ReceiptAnalysis, _ input: InputInfo?, into w: inout JSONStreamWriter) {
        w.openObject()
        let c = a.container
        if let c { w.key("container"); w.constant(c.isBER ? "BER" : "DER") }
        if let input {
            w.key("encoding"); w.string(input.encoding)
            if let origin = input.origin { w.key("found"); w.any(origin.jsonObject) }
            w.key("name"); w.string(input.name)
        }
        if let c, let chunk = c.payloadChunks.first, c.payloadChunks.count == 1 {
            let n = a.tree.nodes[chunk]
            w.key("payload")
            w.openObject(); w.key("length"); w.int(Int(n.contentLength)); w.key("offset"); w.int(n.contentStart); w.closeObject()
        }
        w.key("size"); w.int(a.tree.bytes.count)
        w.closeObject()
    }

    // MARK: - receipt

    /// One member of a receipt or purchase object: `put`'s keys and values, without the dictionary.
    private struct Member {
        /// `number`: `String(n)`, written without the `String`.
        enum Value { case text(String), number(Int64), gmt(ReceiptDate), ms(ReceiptDate), pst(ReceiptDate) }
        var rank: Int
        var order: Int
        var value: Value
    }

    /// The members `put` makes of one field, appended in `put`'s order; false when it makes none.
    private static func members(_ f: ReceiptField, _ keys: JSONFieldKeys.Keys, into list: inout [Member]) -> Bool {
        let order = list.count
        switch f.value {
        case .string(let s): list.append(Member(rank: keys.rank, order: order, value: .text(s)))
        case .integer(let v):
            list.append(Member(rank: keys.rank, order: order, value: keys.isFlag ? .text(v != 0 ? "true" : "false") : .number(v)))
        case .bigInteger(let s): list.append(Member(rank: keys.rank, order: order, value: .text(s)))
        case .date(let d):
            list.append(Member(rank: keys.rank, order: order, value: .gmt(d)))
            list.append(Member(rank: keys.msRank, order: order + 1, value: .ms(d)))
            list.append(Member(rank: keys.pstRank, order: order + 2, value: .pst(d)))
        case .absentDate, .bytes, .inAppPurchase, .invalid:
            return false
        }
        return true
    }

    /// Writes members sorted by key; of equal keys the last one set wins, as in a dictionary.
    /// `extraRank`: a member `extra` writes, set after the fields (`in_app`); nil for none.
    private static func write(_ list: inout [Member], extraRank: Int?, extra: (inout JSONStreamWriter) -> Void,
                              into w: inout JSONStreamWriter) {
        list.sort { $0.rank != $1.rank ? $0.rank < $1.rank : $0.order < $1.order }
        w.openObject()
        var extraDone = extraRank == nil
        var i = 0
        while i < list.count {
            var last = i
            while last + 1 < list.count && list[last + 1].rank == list[i].rank { last += 1 }
            let m = list[last]
            if !extraDone, let extraRank, extraRank <= m.rank {
                extraDone = true
                w.key(quoted: JSONFieldKeys.shared.quoted[extraRank])
                extra(&w)
                if extraRank == m.rank { i = last + 1; continue }  // the extra member is set after the fields: it wins
            }
            w.key(quoted: JSONFieldKeys.shared.quoted[m.rank])
            switch m.value {
            case .text(let s): w.string(s)
            case .number(let n): w.quotedInt(n)
            case .gmt(let d): w.gmtString(d)
            case .ms(let d): w.millisecondsString(d)
            case .pst(let d): w.pstString(d)
            }
            i = last + 1
        }
        if !extraDone, let extraRank {
            w.key(quoted: JSONFieldKeys.shared.quoted[extraRank])
            extra(&w)
        }
        w.closeObject()
    }

    private static func writeReceipt(_ r: Receipt, _ a: ReceiptAnalysis, ranges: inout SourceRanges,
                                     into w: inout JSONStreamWriter) {
        let keys = JSONFieldKeys.shared
        var list: [Member] = []
        list.reserveCapacity(64)
        var seen = Set<Int>()
        if ranges.gathering { ranges.holders = [SourceRanges.Span](repeating: .none, count: r.inApp.count) }
        for f in r.fields {
            if case .inAppPurchase(let i) = f.value, i < ranges.holders.count { ranges.holders[i] = .init(range(f, a)) }
            guard !f.isUnlisted, f.type != 17, let k = keys.app(f.type), seen.insert(f.type).inserted else { continue }
            if members(f, k, into: &list) && ranges.gathering { ranges.app.append((k.rank, list.count, range(f, a))) }
        }
        write(&list, extraRank: keys.inAppRank, extra: { w in
            w.openArray()
            var purchase: [Member] = []
            purchase.reserveCapacity(64)
            for p in r.inApp {
                purchase.removeAll(keepingCapacity: true)
                purchaseMembers(p, into: &purchase) { _, _ in }
                w.element()
                write(&purchase, extraRank: nil, extra: { _ in }, into: &w)
            }
            w.closeArray()
        }, into: &w)
    }

    /// A purchase's members, in `put`'s order: its listed fields, the first of each type.
    /// `made`: each field that made members, with its keys (what `source` names).
    private static func purchaseMembers(_ p: InAppPurchase, into list: inout [Member],
                                        made: (ReceiptField, JSONFieldKeys.Keys) -> Void) {
        let keys = JSONFieldKeys.shared
        var seenTypes: UInt64 = 0  // in-app types are 1700…1763 in the table; others use the set
        var seenOther = Set<Int>()
        for f in p.fields {
            guard !f.isUnlisted, let k = keys.inApp(f.type) else { continue }
            let bit = f.type - 1700
            if bit >= 0 && bit < 64 {
                guard seenTypes & (1 << UInt64(bit)) == 0 else { continue }
                seenTypes |= 1 << UInt64(bit)
            } else if !seenOther.insert(f.type).inserted { continue }
            if members(f, k, into: &list) { made(f, k) }
        }
    }

    private static func range(_ f: ReceiptField, _ a: ReceiptAnalysis) -> Range<Int> { a.fileRange(f.valueRange) }

    /// The `source` object: app keys by rank, `in_app[…]` keys sorted as strings, merged in key order.
    /// A purchase's keys are found again when written, one purchase at a time: gathered while the
    /// purchases were written, a 20,000-purchase receipt's 230,000 keys took 6 MB at `json`'s peak
    /// (11 MB as strings; issue 32).
    private struct SourceRanges {
        let gathering: Bool
        var app: [(rank: Int, order: Int, range: Range<Int>)] = []
        /// A byte range in 32-bit values (inputs stop at 512 MiB), or none.
        struct Span {
            var lower: UInt32
            var upper: UInt32
            static let none = Span(lower: 1, upper: 0)
            init(lower: UInt32, upper: UInt32) { (self.lower, self.upper) = (lower, upper) }
            init(_ range: Range<Int>) { (lower, upper) = (UInt32(range.lowerBound), UInt32(range.upperBound)) }
            var range: Range<Int>? { lower <= upper ? Int(lower)..<Int(upper) : nil }
        }
        /// Each purchase's attribute 17, as `in_app[n]` names it (a whole field each).
        var holders: [Span] = []

        init(gathering: Bool) { self.gathering = gathering }

        /// One purchase's keys: `rank` -1 is the purchase's own attribute (`in_app[n]`).
        private struct PurchaseKey {
            var rank: Int
            var range: Range<Int>
        }

        func write(_ receipt: Receipt?, _ a: ReceiptAnalysis, into w: inout JSONStreamWriter) {
            let names = JSONFieldKeys.shared.names
            var appKeys = app.map { (key: names[$0.rank], order: $0.order, range: $0.range) }
            appKeys.sort { $0.key != $1.key ? $0.key < $1.key : $0.order < $1.order }
            // As strings, "in_app[10]…" sorts before "in_app[1]…" ('0' < ']'): the purchases in the
            // order of "n]", and within one its own key ("in_app[n]") before its fields' (".name").
            let purchases = receipt?.inApp ?? []
            let order = purchases.indices.sorted { String($0) + "]" < String($1) + "]" }
            var nextPurchase = 0
            var keys: [PurchaseKey] = []
            var scratch: [Member] = []
            var k = 0
            var currentIndex = 0
            /// The next purchase with keys, its keys sorted; false when none is left.
            func fill() -> Bool {
                while k == keys.count && nextPurchase < order.count {
                    let p = purchases[order[nextPurchase]]
                    nextPurchase += 1
                    (keys, k) = ([], 0)
                    scratch.removeAll(keepingCapacity: true)
                    purchaseMembers(p, into: &scratch) { f, fk in keys.append(.init(rank: fk.rank, range: a.fileRange(f.valueRange))) }
                    if p.index < holders.count, let attr = holders[p.index].range { keys.append(.init(rank: -1, range: attr)) }
                    let unsorted = keys
                    let sorted = unsorted.indices.sorted { x, y in
                        let (ra, rb) = (unsorted[x].rank, unsorted[y].rank)
                        if ra != rb {
                            if ra < 0 || rb < 0 { return ra < 0 }
                            if names[ra] != names[rb] { return names[ra] < names[rb] }
                        }
                        return x < y
                    }
                    keys = sorted.map { unsorted[$0] }
                    currentIndex = p.index
                }
                return k < keys.count
            }
            func key(_ e: PurchaseKey) -> String { "in_app[\(currentIndex)]" + (e.rank >= 0 ? "." + names[e.rank] : "") }
            func sameKey(_ a: PurchaseKey, _ b: PurchaseKey) -> Bool {
                a.rank == b.rank || (a.rank >= 0 && b.rank >= 0 && names[a.rank] == names[b.rank])
            }
            func emit(_ name: String, _ r: Range<Int>) {
                w.key(escaping: name)
                w.openObject(); w.key("length"); w.int(r.count); w.key("offset"); w.int(r.lowerBound); w.closeObject()
            }
            // Of equal keys the last is written (as a dictionary keeps the last value put).
            func emitApp(_ i: inout Int) {
                var last = i
                while last + 1 < appKeys.count && appKeys[last + 1].key == appKeys[i].key { last += 1 }
                emit(appKeys[last].key, appKeys[last].range)
                i = last + 1
            }
            func emitPurchase() {
                var last = k
                while last + 1 < keys.count && sameKey(keys[last + 1], keys[k]) { last += 1 }
                emit(key(keys[last]), keys[last].range)
                k = last + 1
            }
            w.openObject()
            var i = 0
            while true {
                let purchaseLeft = fill()
                if !purchaseLeft {
                    guard i < appKeys.count else { break }
                    emitApp(&i)
                    continue
                }
                if i < appKeys.count && appKeys[i].key <= key(keys[k]) {
                    emitApp(&i)  // equal cannot happen with the schema's keys; the purchase's would win
                } else {
                    emitPurchase()
                }
            }
            w.closeObject()
        }
    }

    // MARK: - unlisted attributes and steps (`unlisted`, `stepObject`)

    private static func writeUnlisted(_ r: Receipt, _ a: ReceiptAnalysis, into w: inout JSONStreamWriter) {
        let tree = a.receiptTree
        let names = QuotedTagNames.universal
        r.forEachUnlistedField { f in
            w.element()
            w.openObject()
            if let i = f.inAppIndex { w.key("in_app_index"); w.int(i) }
            if let inner = f.innerNode {  // `InnerValue.describe`
                w.key("inner")
                w.openObject()
                w.key("asn1_type"); writeTagName(inner, tree, names, into: &w)
                writeInnerValue(inner, tree, into: &w)
                w.closeObject()
            }
            let range = a.fileRange(f.valueRange)
            w.key("length"); w.int(range.count)
            w.key("level"); w.constant(f.level == .app ? "app" : "in_app")
            w.key("offset"); w.int(range.lowerBound)
            w.key("type"); w.int(f.type)
            w.key("value_hex"); w.hex(r.bytes[f.valueRange])
            if let v = f.version { w.key("version"); w.int64(v) }
            w.closeObject()
        }
    }

    /// `Tree.tagName(of:)`: a universal tag's name from the names quoted once, any other through its `String`.
    static func writeTagName(_ index: Int, _ tree: Tree, _ names: QuotedTagNames, into w: inout JSONStreamWriter) {
        let node = tree.nodes[index]
        if node.kind == .tlv, node.tagClass == .universal, node.tagNumber < names.count {
            names.write(Int(node.tagNumber), into: &w)
        } else {
            w.string(tree.tagName(of: index))
        }
    }

    /// `UniversalTag.names` as JSON strings, quotes included, one after another in one buffer (an
    /// array of arrays cost a retain and a release per name written).
    struct QuotedTagNames: Sendable {
        static let universal = QuotedTagNames(UniversalTag.names)
        let bytes: [UInt8]
        /// Name `i` is `bytes[starts[i]..<starts[i + 1]]`.
        let starts: [Int]
        var count: Int { starts.count - 1 }

        init(_ names: [String]) {
            var bytes: [UInt8] = [], starts = [0]
            for name in names {
                writeString(name, into: &bytes)
                starts.append(bytes.count)
            }
            self.bytes = bytes
            self.starts = starts
        }

        func write(_ i: Int, into w: inout JSONStreamWriter) {
            let range = starts[i]..<starts[i + 1]
            bytes.withUnsafeBufferPointer { w.value(quoted: UnsafeBufferPointer(rebasing: $0[range])) }
        }
    }

    /// `"value"` and `InnerValue.text(of:in:)`, or nothing when it is nil. The values an unlisted
    /// attribute holds (an INTEGER that fits 64 bits, a string or time of plain ASCII) are written
    /// from the bytes; any other value takes `InnerValue.text`'s string.
    static func writeInnerValue(_ index: Int, _ tree: Tree, into w: inout JSONStreamWriter) {
        let node = tree.nodes[index]
        if node.kind == .tlv, node.tagClass == .universal, !node.isConstructed {
            let content = node.contentRange
            switch node.tagNumber {
            case 2, 10:  // `IntegerValue.decimal` of up to 8 octets is the `Int64`'s decimal
                if !content.isEmpty, let v = IntegerValue.int64(tree.bytes[content]) {
                    w.key("value"); w.quotedInt(v)
                    return
                }
            case 12, 18...27:  // UTF-8 or single-octet text (strings and times): never nil
                w.key("value")
                tree.bytes.withUnsafeBufferPointer { all in
                    w.string(UnsafeBufferPointer(rebasing: all[content])) { InnerValue.text(of: index, in: tree) ?? "" }
                }
                return
            default:
                break
            }
        }
        if let text = InnerValue.text(of: index, in: tree) { w.key("value"); w.string(text) }
    }

    private static func writeStep(_ s: ValidationStep, _ words: StepText, into w: inout JSONStreamWriter) {
        w.openObject()
        w.key("details")
        w.openArray()
        for line in s.details { w.element(); w.string(line) }
        w.closeArray()
        w.key("id"); w.string(s.id.rawValue)
        switch s.status {
        case .passed: break
        case .failed(let why), .notChecked(let why): w.key("reason"); w.string(words.reason(why))
        }
        w.key("status")
        switch s.status {
        case .passed: w.constant("passed")
        case .failed: w.constant("failed")
        case .notChecked: w.constant("not-checked")
        }
        w.key("title"); w.string(StepText.title(s.id))
        w.closeObject()
    }

    // MARK: - subscriptions: active at `at`, latest expiry per product and per original transaction

    private static func writeSubscriptions(_ r: Receipt, at moment: ReceiptDate, into w: inout JSONStreamWriter) {
        var latestByProduct: [String: ReceiptDate] = [:]
        var latestByOriginal: [String: ReceiptDate] = [:]
        for p in r.inApp where p.isAutoRenewable {
            guard let expires = p.expiresDate else { continue }
            if let product = p.productID, latestByProduct[product].map({ $0 < expires }) ?? true { latestByProduct[product] = expires }
            if let original = p.originalTransactionID ?? p.transactionID,
               latestByOriginal[original].map({ $0 < expires }) ?? true { latestByOriginal[original] = expires }
        }
        func dates(_ d: ReceiptDate, _ w: inout JSONStreamWriter) {
            w.openObject()
            w.key("expires_date"); w.gmtString(d)
            w.key("expires_date_ms"); w.millisecondsString(d)
            w.closeObject()
        }
        func latest(_ map: [String: ReceiptDate], _ w: inout JSONStreamWriter) {
            w.openObject()
            for key in map.keys.sorted() {
                w.key(escaping: key)
                dates(map[key]!, &w)
            }
            w.closeObject()
        }
        w.openObject()
        w.key("active")
        w.openArray()
        for p in r.activeSubscriptions(at: moment) {
            w.element()
            w.openObject()
            if let d = p.expiresDate {
                w.key("expires_date"); w.gmtString(d)
                w.key("expires_date_ms"); w.millisecondsString(d)
            }
            w.key("in_app_index"); w.int(p.index)
            if let v = p.originalTransactionID { w.key("original_transaction_id"); w.string(v) }
            if let v = p.productID { w.key("product_id"); w.string(v) }
            if let v = p.transactionID { w.key("transaction_id"); w.string(v) }
            w.closeObject()
        }
        w.closeArray()
        w.key("at"); w.gmtString(moment)
        w.key("at_ms"); w.millisecondsString(moment)
        w.key("latest_expiry_by_original_transaction"); latest(latestByOriginal, &w)
        w.key("latest_expiry_by_product"); latest(latestByProduct, &w)
        w.closeObject()
    }
}

/// The `json` keys of every listed attribute (`AttributeSpec.jsonKey` and its `_ms` / `_pst`
/// forms), made once, each with its rank in byte order, so that members sort by an integer.
struct JSONFieldKeys: Sendable {
    struct Keys: Sendable {
        var rank: Int
        var msRank: Int
        var pstRank: Int
        var isFlag: Bool
    }

    static let shared = JSONFieldKeys()

    /// Every key, sorted: `names[rank]`.
    let names: [String]
    /// `names[rank]` as a JSON string, quotes included, written once for every document.
    let quoted: [[UInt8]]
    let inAppRank: Int
    private let appKeys: [Int: Keys]
    private let inAppKeys: [Int: Keys]

    private init() {
        var all = Set<String>(["in_app"])
        for spec in ReceiptSchema.app + ReceiptSchema.inApp {
            guard let key = spec.jsonKey else { continue }
            all.formUnion([key, key + "_ms", key + "_pst"])
        }
        names = all.sorted()
        quoted = names.map { name in
            var bytes: [UInt8] = []
            ReceiptJSON.writeString(name, into: &bytes)
            return bytes
        }
        let rank = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($0.element, $0.offset) })
        func table(_ specs: [AttributeSpec]) -> [Int: Keys] {
            var t: [Int: Keys] = [:]
            for spec in specs {
                guard let key = spec.jsonKey, t[spec.type] == nil else { continue }  // `spec(type:)` finds the first
                t[spec.type] = Keys(rank: rank[key]!, msRank: rank[key + "_ms"]!, pstRank: rank[key + "_pst"]!,
                                    isFlag: spec.expected == .flag)
            }
            return t
        }
        appKeys = table(ReceiptSchema.app)
        inAppKeys = table(ReceiptSchema.inApp)
        inAppRank = rank["in_app"]!
    }

    func app(_ type: Int) -> Keys? { appKeys[type] }
    func inApp(_ type: Int) -> Keys? { inAppKeys[type] }
}
