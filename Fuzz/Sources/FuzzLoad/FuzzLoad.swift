import ASN1Lenient
import FuzzSupport
import TextLoader

/// Fuzz target `load`: the input loader first, then the parser on what it decoded.
///
/// `parse` spends most of its time in the parser on binary mutants; this target starts from text
/// (base64, PEM, verifyReceipt JSON, mixtures with binary, with a dictionary of their tokens) so
/// that the loader's detection steps, the base64 decoder and the "is this one element?" header
/// check get the mutations. Traps when:
/// - `InputLoader.decode` throws anything other than `InputError`, or its message / note holds a
///   raw control character;
/// - a loader diagnostic's range lies outside the loaded bytes, or it names a node;
/// - binary input is changed by the loader;
/// - the decoded bytes parse into a tree that breaks an invariant (see `checkTree`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLoad(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let raw = Array(UnsafeBufferPointer(start: data, count: size))
    guard let loaded = loadOrCheckRefusal(raw) else { return 0 }
    assertTerminalSafe(loaded.note, "LoadedInput.note", allowNewlines: false)
    if loaded.encoding == .binary && loaded.bytes != raw { fatalError("binary input was changed by the loader") }
    // Loader findings name no node; their ranges are offsets into the loaded bytes.
    checkDiagnostics(loaded.diagnostics, bytes: loaded.bytes.count, nodes: 0, "loader")
    if loaded.diagnostics.contains(where: { $0.node != nil || $0.severity != .error }) {
        fatalError("a loader diagnostic names a node or is not an error")
    }
    let tree = ASN1Parser.parse(loaded.bytes)
    checkTree(tree, "decoded")
    return 0
}
