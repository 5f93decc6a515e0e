import JSONLenient
import ByteText

/// A stretch of pasted text to search: its characters (JSON escapes and percent-encoding already
/// undone) and, for each, its offset in the pasted text, so that whatever is found in it maps back.
struct PasteView {
    var bytes: [UInt8]
    var offsets: OffsetList
    /// "JSON path payload", "form field receipt-data": where the view sits; nil for the text itself.
    var path: String?
    /// The last key naming the view (JSON key or form field), for ranking (`receipt-data`…).
    var key: String?

    /// The whole text.
    init(text: [UInt8]) {
        bytes = text
        offsets = OffsetList(identity: 0..<text.count)
    }

    init(bytes: [UInt8], offsets: OffsetList, path: String?, key: String?) {
        self.bytes = bytes
        self.offsets = offsets
        self.path = path
        self.key = key
    }

    /// Nested views (JSON inside a JSON string, a form body in a HAR's postData) are searched this deep.
    static let maximumNesting = 3

    /// The views inside this one when it is JSON or a form body (each string value, each form
    /// field), recursively; empty when it is neither.
    func innerViews(nesting: Int = 0) -> [PasteView] {
        guard nesting < Self.maximumNesting else { return [] }
        if let json = jsonViews(nesting: nesting) { return json }
        return formViews(nesting: nesting)
    }

    /// Every string value of a JSON document (with its path), and the views inside those strings.
    func jsonViews(nesting: Int) -> [PasteView]? {
        guard let first = bytes.firstIndex(where: { !PasteRuns.isSpace($0) }),
              bytes[first] == UInt8(ascii: "{") || bytes[first] == UInt8(ascii: "[") else { return nil }
        let tree = JSONParser.parse(bytes)
        guard let root = tree.root, !tree.diagnostics.contains(where: { $0.severity == .error }) else { return nil }
        var views: [PasteView] = []
        collect(tree, root, path: "", key: nil, nesting: nesting, into: &views)
        return views
    }

    private func collect(_ tree: JSONTree, _ node: Int, path: String, key: String?, nesting: Int, into views: inout [PasteView]) {
        switch tree[node].kind {
        case .object:
            for member in tree.members(of: node) {
                guard let name = tree.key(ofMember: member), let value = tree.value(ofMember: member) else { continue }
                collect(tree, value, path: path.isEmpty ? name : path + "." + name, key: name, nesting: nesting, into: &views)
            }
        case .array:
            for (i, element) in tree.children(of: node).enumerated() {
                collect(tree, element, path: "\(path)[\(i)]", key: key, nesting: nesting, into: &views)
            }
        case .string:
            guard let value = tree.string(at: node) else { return }
            let local = tree.sourceOffsets(ofString: node)
            let view = PasteView(bytes: Array(value.utf8), offsets: OffsetList(local.lazy.map { offsets[$0] }),
                                 path: joined(path), key: key)
            views.append(view)
            views += view.innerViews(nesting: nesting + 1)
        default:
            break
        }
    }

    /// A form-urlencoded body (`receipt-data=…&password=…`): each field's percent-decoded value.
    /// `+` is kept as `+`: in a pasted base64 value it is far more often an unencoded `+` than a space.
    func formViews(nesting: Int) -> [PasteView] {
        guard let first = bytes.firstIndex(where: { !PasteRuns.isSpace($0) }),
              let last = bytes.lastIndex(where: { !PasteRuns.isSpace($0) }) else { return [] }
        let body = bytes[first...last]
        guard body.count >= 3, body.contains(UInt8(ascii: "=")), !body.contains(where: { PasteRuns.isSpace($0) }),
              body.contains(UInt8(ascii: "&")) || body.contains(UInt8(ascii: "%")) else { return [] }
        var views: [PasteView] = []
        var start = first
        while start <= last {
            let end = bytes[start...last].firstIndex(of: UInt8(ascii: "&")) ?? last + 1
            if let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: percentDecoded(start..<equals).bytes, as: UTF8.self)
                let value = percentDecoded((equals + 1)..<end)
                views.append(PasteView(bytes: value.bytes, offsets: value.offsets, path: joined("form field " + name), key: name))
            }
            start = end + 1
        }
        return views
    }

    private func percentDecoded(_ range: Range<Int>) -> (bytes: [UInt8], offsets: OffsetList) {
        var out: [UInt8] = [], where_ = OffsetList()
        var i = range.lowerBound
        while i < range.upperBound {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < range.upperBound, let high = Hex.value(ofDigit: bytes[i + 1]), let low = Hex.value(ofDigit: bytes[i + 2]) {
                out.append(high << 4 | low)
                where_.append(offsets[i])
                i += 3
            } else {
                out.append(bytes[i])
                where_.append(offsets[i])
                i += 1
            }
        }
        return (out, where_)
    }

    /// `outer → inner` when this view is itself inside a JSON string or form field.
    private func joined(_ inner: String) -> String {
        guard let path else { return inner }
        return path + " → " + inner
    }
}
