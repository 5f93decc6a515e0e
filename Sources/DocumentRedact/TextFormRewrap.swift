import ASN1Lenient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TextLoader
import DocumentCore
import X509Trust

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
    /// The input and the new bytes go before the copy is read back (the read of 50 MB of pasted
    /// text decodes it again beside them; issue 32): all three are empty on return. The new bytes
    /// are kept when they are the copy's text itself (a file that is the data); otherwise what the
    /// copy is checked against is their length and SHA-256.
    static func rewrap(raw: inout [UInt8], loaded: inout LoadedInput, newBytes: inout [UInt8]) throws -> Rewrapped {
        let name = loaded.name, encoding = loaded.encoding, pasted = loaded.origin != nil
        let out = try text(raw: &raw, loaded: &loaded, newBytes: newBytes)
        let expected = ExpectedBytes(newBytes, text: out)
        raw = []
        loaded = LoadedInput(bytes: [], name: name, encoding: encoding, note: "")
        newBytes = []
        return Rewrapped(text: out, loaded: try readBack(out, name: name, encoding: encoding, pasted: pasted, expected: expected))
    }

    /// The copy's text read back the way every command reads it, which must read as the input was:
    /// in the same encoding, to the redacted bytes, found in a paste or not as the input was (a
    /// base64 run that also appears elsewhere in the text, say, would be caught here).
    static func readBack(_ text: [UInt8], name: String, encoding: InputEncoding, pasted: Bool, expected: ExpectedBytes) throws -> LoadedInput {
        let reread: LoadedInput
        do {
            reread = try PasteLoader.decode(text, name: name)
        } catch let error as InputError {
            throw Failure(message: "the copy no longer loads: \(error.message)")
        }
        guard reread.encoding == encoding, expected.matches(reread.bytes), (reread.origin != nil) == pasted else {
            throw Failure(message: "the copy does not load back to the redacted bytes (it reads as \(reread.encoding.rawValue))")
        }
        return reread
    }

    /// What the copy must read back as: the bytes themselves when the copy's text holds them
    /// anyway, else their length and digest.
    enum ExpectedBytes {
        case bytes([UInt8])
        case digest(count: Int, sha256: [UInt8])

        init(_ bytes: [UInt8], text: [UInt8]) {
            let shared = bytes.withUnsafeBufferPointer { a in text.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
            self = shared && bytes.count == text.count ? .bytes(bytes) : .digest(count: bytes.count, sha256: Digest.sha256(bytes))
        }

        func matches(_ read: [UInt8]) -> Bool {
            switch self {
            case .bytes(let bytes): read == bytes
            case .digest(let count, let sha256): read.count == count && Digest.sha256(read) == sha256
            }
        }
    }

    /// The copy's text: `newBytes` where `loaded.bytes` were in `raw`.
    /// Data found in pasted text is written back from its characters alone: the data as read goes
    /// first (it was beside the text, its copy and the new bytes: 50 MB of 290 MiB; issue 32).
    static func text(raw: inout [UInt8], loaded: inout LoadedInput, newBytes: [UInt8]) throws -> [UInt8] {
        precondition(loaded.bytes.count == newBytes.count, "stand-ins keep every length")
        if loaded.bytes == newBytes { return raw }
        if let origin = loaded.origin {
            loaded.bytes = []
            do {
                return try PasteRewrite.rewrite(raw, origin: origin, newBytes: newBytes)
            } catch let failure as PasteRewrite.Failure {
                throw Failure(message: failure.message)
            }
        }
        let old = loaded.bytes
        let out: [UInt8]
        if raw.count == old.count, raw == old {
            out = newBytes  // the file is the data (DER): no second copy of it
        } else if let range = raw.firstRange(of: old) {
            var copy = raw
            copy.replaceSubrange(range, with: newBytes)
            out = copy
        } else if let run = Base64Rewrite.locate(old, in: raw) {
            do {
                out = try Base64Rewrite.rewrite(raw, slots: Base64Rewrite.slots(raw, in: run), bytes: newBytes, alphabet: .either,
                                                escapedSlash: Base64Rewrite.escapesSlash(raw, in: run))
            } catch let failure as Base64Rewrite.Failure {
                throw Failure(message: failure.message)
            }
        } else {
            throw Failure(message: "the decoded bytes were not found in the file's text, so the copy cannot be written in its form")
        }
        return out
    }
}
