import ASN1Lenient
import TestSupport
import TextLoader

/// Parses hex text (spaces and line breaks ignored).
func parse(_ hex: String, options: ParseOptions = ParseOptions()) -> Tree {
    ASN1Parser.parse(DER.hex(hex), options: options)
}

/// The loader's error message for `raw`, or nil when it loads.
func decodeError(_ raw: [UInt8], name: String) -> String? {
    do {
        _ = try InputLoader.decode(raw, name: name)
        return nil
    } catch let error as InputError {
        return error.message
    } catch {
        return "unexpected error \(error)"
    }
}
