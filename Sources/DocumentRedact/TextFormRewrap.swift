import ASN1Lenient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TextLoader
import DocumentCore

/// Puts a redacted document's file-layer bytes back into the text form the input came in, so that
/// the copy is the same kind of file: raw DER stays raw; a token, a JSON body or a token pasted in
/// quotes is spliced back where it was; base64, PEM and a verifyReceipt body keep their line
/// breaks, whitespace, padding, alphabet and JSON escapes (`Base64Rewrite`); data the paste finder
/// found in a log line, a JSON log object, a HAR or a form body is written back through the
/// loader's record of where it sits (`PasteRewrite`), the text around it untouched. The result is
/// read back the way every command reads it (`PasteLoader`), which must find the new bytes in it
/// the same way it found the old ones.
enum TextFormRewrap {
    struct Failure: Error {
        var message: String
    }

    /// The copy's text, and that text as the loader reads it (what the copy's check opens).
    struct Rewrapped {
        var text: [UInt8]
        var loaded: LoadedInput
    }

    /// `raw`: the input's text (with any values around the data already replaced, in place).
    static func rewrap(raw: [UInt8], loaded: LoadedInput, newBytes: [UInt8]) throws -> Rewrapped {
        let old = loaded.bytes
        precondition(old.count == newBytes.count, "stand-ins keep every length")
        let out: [UInt8]
        if old == newBytes {
            out = raw
        } else if let origin = loaded.origin {
            do {
                out = try PasteRewrite.rewrite(raw, origin: origin, old: old, newBytes: newBytes)
            } catch let failure as PasteRewrite.Failure {
                throw Failure(message: failure.message)
            }
        } else if raw.count == old.count, raw == old {
            out = newBytes  // the file is the data (DER): no second copy of it
        } else if let range = raw.firstRange(of: old) {
            var copy = raw
            copy.replaceSubrange(range, with: newBytes)
            out = copy
        } else if let run = Base64Rewrite.locate(old, in: raw) {
            do {
                out = try Base64Rewrite.rewrite(raw, slots: Base64Rewrite.slots(raw, in: run), bytes: newBytes, alphabet: .either)
            } catch let failure as Base64Rewrite.Failure {
                throw Failure(message: failure.message)
            }
        } else {
            throw Failure(message: "the decoded bytes were not found in the file's text, so the copy cannot be written in its form")
        }
        // The copy must be read as the input was (a base64 run that also appears elsewhere in the
        // text, say, would be caught here).
        let reread: LoadedInput
        do {
            reread = try PasteLoader.decode(out, name: loaded.name)
        } catch let error as InputError {
            throw Failure(message: "the copy no longer loads: \(error.message)")
        }
        guard reread.encoding == loaded.encoding, reread.bytes == newBytes, (reread.origin == nil) == (loaded.origin == nil) else {
            throw Failure(message: "the copy does not load back to the redacted bytes (it reads as \(reread.encoding.rawValue))")
        }
        return Rewrapped(text: out, loaded: reread)
    }
}
