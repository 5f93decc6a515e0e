import ASN1Lenient
import TextLoader

// Checks shared by every fuzz target. Each one traps (fatalError) on a violation, which libFuzzer
// records as a crash with the input that caused it.

/// Loads `raw` as a command loads a file. A refusal must be an `InputError` with a terminal-safe,
/// one-line message (the exit-2 path); anything else thrown traps. Nil when refused.
public func loadOrCheckRefusal(_ raw: [UInt8]) -> LoadedInput? {
    do {
        return try InputLoader.decode(raw, name: "fuzz")
    } catch let error as InputError {
        assertTerminalSafe(error.message, "InputError", allowNewlines: false)
        return nil
    } catch {
        fatalError("InputLoader.decode threw something other than InputError: \(error)")
    }
}

/// Traps unless the tree keeps every invariant the rest of the program relies on: the coverage
/// invariant, node and diagnostic ranges inside the input, consistent parent/depth/subtree links,
/// diagnostics that name existing nodes.
public func checkTree(_ tree: Tree, _ what: String = "tree") {
    let problems = tree.coverageViolations()
    if !problems.isEmpty { fatalError("\(what): coverage invariant broken: \(problems)") }
    let n = tree.bytes.count
    for (i, node) in tree.nodes.enumerated() {
        guard Int(node.offset) <= n, node.end <= n, node.contentStart <= node.contentEnd,
              Int(node.offset) <= node.contentStart else {
            fatalError("\(what): node \(i) range \(node.byteRange) (content \(node.contentRange)) outside input of \(n) bytes")
        }
        guard Int(node.subtreeEnd) > i, Int(node.subtreeEnd) <= tree.count else {
            fatalError("\(what): node \(i) subtreeEnd \(node.subtreeEnd) out of range (count \(tree.count))")
        }
        // A node stores no parent (20-byte node): the parent is the nearest earlier node one level
        // up, and it must contain this node's subtree.
        if node.depth > 0 {
            let p = tree.nodes.parentIndex(i)
            guard p >= 0, p < i, Int(tree.nodes[p].subtreeEnd) >= Int(node.subtreeEnd),
                  Int(tree.nodes[p].depth) + 1 == Int(node.depth) else {
                fatalError("\(what): node \(i) at depth \(node.depth) has inconsistent parent \(p)")
            }
        }
    }
    checkDiagnostics(tree.diagnostics, bytes: n, nodes: tree.count, what)
}

/// Messages are not checked for control characters: receipt findings quote the offending text as
/// the receipt holds it (e.g. a date string with a NUL in it), and every writer escapes messages
/// on output; the outputs themselves are checked by each target.
public func checkDiagnostics(_ diagnostics: [Diagnostic], bytes n: Int, nodes: Int, _ what: String) {
    for d in diagnostics {
        guard d.offset >= 0, d.length >= 0, d.offset + d.length <= n else {
            fatalError("\(what): diagnostic \(d.code) range \(d.offset)+\(d.length) outside input of \(n) bytes")
        }
        if let node = d.node?.index, !(0..<nodes).contains(node) {
            fatalError("\(what): diagnostic \(d.code) names node \(node) of \(nodes)")
        }
    }
}

/// Output may contain line feeds (and tabs); nothing else below U+0020, no DEL, no C1 control
/// (U+0080-U+009F, e.g. U+009B CSI), no bidi override / isolate and no other invisible format
/// character or line/paragraph separator (the policy documented in TerminalSafe).
///
/// The scan jumps with libc's `strcspn` (not instrumented for coverage) to the next byte that is a
/// control or non-ASCII: a byte-by-byte Swift loop took a quarter of the fuzzer's time.
public func assertTerminalSafe(_ text: String, _ what: String, allowNewlines: Bool = true) {
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
            checkScalar(scalar, what)
            i += UTF8.width(scalar)
        }
    }
}

@inline(__always)
public func checkScalar(_ scalar: Unicode.Scalar, _ what: String) {
    let v = scalar.value
    if v < 0x20 || v == 0x7F {
        fatalError("\(what) contains raw U+\(String(v, radix: 16))")
    }
    guard v >= 0x80 else { return }
    let bad = v < 0xA0 || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
        || [.format, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory)
    if bad { fatalError("\(what) contains raw U+\(String(v, radix: 16))") }
}

/// Bytes at which the scan stops: C0 controls (minus LF and TAB when allowed), DEL, all non-ASCII.
let stopSetWithNewlines = makeStopSet(allowNewlines: true)
let stopSetStrict = makeStopSet(allowNewlines: false)
/// NUL-terminated; an array (a Sendable constant) that `strcspn` takes as a pointer.
func makeStopSet(allowNewlines: Bool) -> [CChar] {
    var set: [UInt8] = []
    for b in 1...0xFF where b < 0x20 || b >= 0x7F {
        if allowNewlines && (b == 0x0A || b == 0x09) { continue }
        set.append(UInt8(b))
    }
    set.append(0)
    return set.map { CChar(bitPattern: $0) }
}

/// The repository root (Fuzz/..), for the TEST PKI under samples/pki.
public let repositoryRoot: String = {
    var path = #filePath
    for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    return path
}()

public func readFile(_ path: String) -> [UInt8] {
    guard let f = fopen(path, "rb") else { return [] }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n <= 0 { break }
        out.append(contentsOf: buffer[0..<n])
    }
    return out
}

// SwiftPM renames an executable's entry point to `<Module>_main` on Linux (for testable
// executables) and links debug builds with `--defsym main=<Module>_main`. With `-parse-as-library`
// there is no generated entry point, so each target defines that symbol and hands control to
// libFuzzer's driver (release builds use libFuzzer's own `main`).
@_silgen_name("LLVMFuzzerRunDriver")
public func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt
