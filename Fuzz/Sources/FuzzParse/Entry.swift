// SwiftPM renames an executable's entry point to `<Module>_main` on Linux (for testable
// executables) and links with `--defsym main=<Module>_main`. With `-parse-as-library` there is no
// generated entry point, so we provide that symbol ourselves and hand control to libFuzzer.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("FuzzParse_main")
func fuzzParseMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    // A closure, not `fuzzParse` itself: converting the @_cdecl function emits a second C symbol.
    return LLVMFuzzerRunDriver(&argc, &argv, { data, size in fuzzParse(data, size) })
}
