import FuzzSupport

// SwiftPM renames an executable's entry point to `<Module>_main` on Linux and links debug builds
// with `--defsym main=<Module>_main`; see LLVMFuzzerRunDriver in FuzzSupport.
@_cdecl("FuzzKeys_main")
func fuzzKeysMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    // A closure, not `fuzzKeys` itself: converting the @_cdecl function emits a second C symbol.
    return LLVMFuzzerRunDriver(&argc, &argv, { data, size in fuzzKeys(data, size) })
}
