import ASN1Lenient
import FuzzSupport
import TextLoader
import TextOutput

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
    checkTree(rawTree, "raw")
    guard let loaded = loadOrCheckRefusal(raw) else { return 0 }
    let tree: Tree
    if loaded.encoding == .binary {
        guard loaded.bytes == raw else { fatalError("binary input was changed by the loader") }
        tree = rawTree
    } else {
        tree = ASN1Parser.parse(loaded.bytes)
        checkTree(tree, "decoded")
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
