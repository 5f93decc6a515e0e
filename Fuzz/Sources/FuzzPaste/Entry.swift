import FuzzSupport

// SwiftPM renames an executable's entry point to `<Module>_main` on Linux and links debug builds
// with `--defsym main=<Module>_main`; see LLVMFuzzerRunDriver in FuzzSupport.
@_cdecl("FuzzPaste_main")
func fuzzPasteMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    // A closure, not `fuzzPaste` itself: converting the @_cdecl function emits a second C symbol.
    return LLVMFuzzerRunDriver(&argc, &argv, { data, size in fuzzPaste(data, size) })
}
