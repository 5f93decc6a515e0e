import ASN1Lenient
#if canImport(Glibc)
import Glibc
#endif

/// Fuzz target (a): input loading + parsing (+ the text outputs built on the parse).
///
/// The input is treated as the contents of a file: `InputLoader.decode` detects raw DER/BER,
/// base64, PEM or a verifyReceipt JSON body; the decoded bytes are parsed. Loading may fail with an
/// `InputError` (a normal outcome); anything else that goes wrong traps:
/// - the coverage invariant (every byte in exactly one node) is broken,
/// - a node or diagnostic range lies outside the input, a parent/depth/subtree link is inconsistent,
/// - a diagnostic names a node index that does not exist,
/// - a load error message, `dump` (tree and openssl formats), `json` or an explanation contains a
///   raw control character, a bidi override or another invisible format character.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let raw = Array(UnsafeBufferPointer(start: data, count: size))
    // The raw bytes are always parsed: the loader turns many inputs into a load error.
    let rawTree = ASN1Parser.parse(raw)
    check(rawTree)
    let loaded: LoadedInput
    do {
        loaded = try InputLoader.decode(raw, name: "fuzz")
    } catch let error as InputError {
        assertTerminalSafe(error.message, "InputError", allowNewlines: false)
        return 0
    } catch {
        fatalError("InputLoader.decode threw something other than InputError: \(error)")
    }
    let tree: Tree
    if loaded.encoding == .binary {
        guard loaded.bytes == raw else { fatalError("binary input was changed by the loader") }
        tree = rawTree
    } else {
        tree = ASN1Parser.parse(loaded.bytes)
        check(tree)
    }
    assertTerminalSafe(loaded.note, "LoadedInput.note", allowNewlines: false)
    // Rendering costs ~10x the parse; only inputs up to 2 KiB (decoded) are rendered, so the fuzzer
    // keeps most of its speed for the parser while small mutants still reach every output path.
    guard tree.bytes.count <= 2048 else { return 0 }
    assertTerminalSafe(TreeDump.render(tree, input: loaded), "TreeDump")
    assertTerminalSafe(OpenSSLDump.render(tree), "OpenSSLDump")
    assertTerminalSafe(JSONDump.render(tree, input: loaded), "JSONDump")
    for index in tree.nodes.indices.prefix(8) {
        for line in Explainer.explain(tree, node: index) { assertTerminalSafe(line.text, "Explainer", allowNewlines: false) }
    }
    return 0
}

/// Output may contain line feeds (and tabs); nothing else below U+0020, no DEL, no C1 control
/// (U+0080-U+009F, e.g. U+009B CSI), no bidi override / isolate and no other invisible format
/// character or line/paragraph separator (the policy documented in TerminalSafe).
///
/// The scan jumps with libc's `strcspn` (not instrumented for coverage) to the next byte that is a
/// control or non-ASCII: a byte-by-byte Swift loop took a quarter of the fuzzer's time.
func assertTerminalSafe(_ text: String, _ what: String, allowNewlines: Bool = true) {
    var text = text
    text.withUTF8 { utf8 in
        guard let base = utf8.baseAddress, utf8.count > 0 else { return }
        // A NUL-terminated copy, so that strcspn stops at the end (and an embedded NUL is found).
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count + 1)
        defer { buffer.deallocate() }
        UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: utf8.count)
        buffer[utf8.count] = 0
        let stops = allowNewlines ? stopSetWithNewlines : stopSetStrict
        var i = 0
        while i < utf8.count {
            i += Int(strcspn(buffer + i, stops))
            guard i < utf8.count else { return }
            let b = utf8[i]
            if b < 0x80 {
                fatalError("\(what) contains raw byte 0x\(String(b, radix: 16)) at \(i): \(String(decoding: utf8[max(0, i - 80)..<min(utf8.count, i + 80)], as: UTF8.self).debugDescription)")
            }
            var iterator = utf8[i...].makeIterator()
            var decoder = UTF8()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator) else {
                fatalError("\(what) is not valid UTF-8 at \(i)")
            }
            let v = scalar.value
            let bad = v < 0xA0 || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
                || [.format, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory)
            if bad { fatalError("\(what) contains raw U+\(String(v, radix: 16)) at \(i)") }
            i += UTF8.width(scalar)
        }
    }
}

/// Bytes at which the scan stops: C0 controls (minus LF and TAB when allowed), DEL, all non-ASCII.
let stopSetWithNewlines = makeStopSet(allowNewlines: true)
let stopSetStrict = makeStopSet(allowNewlines: false)
func makeStopSet(allowNewlines: Bool) -> UnsafeMutablePointer<CChar> {
    var set: [UInt8] = []
    for b in 1...0xFF where b < 0x20 || b >= 0x7F {
        if allowNewlines && (b == 0x0A || b == 0x09) { continue }
        set.append(UInt8(b))
    }
    set.append(0)
    let p = UnsafeMutablePointer<CChar>.allocate(capacity: set.count)
    for (i, b) in set.enumerated() { p[i] = CChar(bitPattern: b) }
    return p
}

/// Traps unless the tree keeps every invariant the rest of the program relies on.
func check(_ tree: Tree) {
    let problems = tree.coverageViolations()
    if !problems.isEmpty { fatalError("coverage invariant broken: \(problems)") }
    let n = tree.bytes.count
    for (i, node) in tree.nodes.enumerated() {
        guard Int(node.offset) <= n, node.end <= n, node.contentStart <= node.contentEnd,
              Int(node.offset) <= node.contentStart else {
            fatalError("node \(i) range \(node.byteRange) (content \(node.contentRange)) outside input of \(n) bytes")
        }
        guard Int(node.subtreeEnd) > i, Int(node.subtreeEnd) <= tree.count else {
            fatalError("node \(i) subtreeEnd \(node.subtreeEnd) out of range (count \(tree.count))")
        }
        if node.parent >= 0 {
            let p = Int(node.parent)
            guard p < i, Int(tree.nodes[p].subtreeEnd) >= Int(node.subtreeEnd),
                  Int(tree.nodes[p].depth) + 1 == Int(node.depth) else {
                fatalError("node \(i) has inconsistent parent \(p) / depth")
            }
        } else if node.depth != 0 {
            fatalError("root node \(i) has depth \(node.depth)")
        }
    }
    for d in tree.diagnostics {
        guard d.offset >= 0, d.length >= 0, d.offset + d.length <= n else {
            fatalError("diagnostic \(d.code) range \(d.offset)+\(d.length) outside input of \(n) bytes")
        }
        if let node = d.node, !(0..<tree.count).contains(node) {
            fatalError("diagnostic \(d.code) names node \(node) of \(tree.count)")
        }
    }
}
