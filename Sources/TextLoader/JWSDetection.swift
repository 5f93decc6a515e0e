import ASN1Lenient
import ByteText
import Platform

/// StoreKit 2 inputs. The loader only recognises their syntax and hands the text on: decoding and
/// classification belong to JWSKit, which this layer cannot import (DocumentModel calls it).
extension InputDetector {
    /// `header.payload.signature`: three runs of base64url characters separated by two dots, with
    /// optional surrounding whitespace and one pair of quotes (copied out of JSON or a log line).
    /// Standard-alphabet characters and `=` are tolerated so that a broken token still loads as a
    /// token and the decoder pins each bad character.
    static let compactJWS = InputDetector(name: "compact JWS") { input in
        guard input.isTextLike, let range = input.compactJWS else { return nil }
        let token = range.count == input.bytes.count ? input.bytes : Array(input.bytes[range])  // a batch line: no copy
        let trimmed = range.count == input.bytes.count ? "" : " (surrounding whitespace or quotes removed)"
        var loaded = LoadedInput(bytes: token, name: input.name, encoding: .jws,
                                 note: "a compact JWS, \(NumberText.grouped(token.count)) characters\(trimmed)")
        loaded.isCompactJWS = true
        return loaded
    }

    /// A JSON object naming a StoreKit token field, or an iOS 6 style transaction receipt plist
    /// (`{ "signature" = "…"; "purchase-info" = "…"; }`), which is not JSON at all.
    static let storeKitText = InputDetector(name: "StoreKit JSON") { input in
        guard input.isTextLike, input.bytes[input.firstNonSpace] == UInt8(ascii: "{") else { return nil }
        let text = input.text
        let head = String(decoding: text.prefix(1 << 16), as: UTF8.self)
        if head.contains("\"receipt-data\"") { return nil }  // a verifyReceipt body: the next step
        let legacy = head.contains("\"purchase-info\"") && head.contains("\"signature\"")
        guard legacy || JWSText.tokenKeys.contains(where: { head.contains("\"\($0)\"") }) else { return nil }
        let what = legacy ? "an old-style property list" : "JSON carrying StoreKit tokens"
        return LoadedInput(bytes: text, name: input.name, encoding: .storeKitText,
                           note: "\(what), \(NumberText.grouped(text.count)) bytes")
    }
}

/// The JSON keys of StoreKit data: the one list, read by the loader's detector here and by
/// JWSKit's classifier (which cannot be imported from this layer).
public enum StoreKitKeys {
    /// Keys whose string values (or arrays of strings) are compact JWS.
    public static let tokenKeys = ["signedPayload", "signedTransactionInfo", "signedRenewalInfo", "signedTransactions",
                                   "signedAppTransactionInfo", "signedTransaction"]
    /// Keys of containers that hold token keys (subscription statuses' `data[].lastTransactions[]`).
    public static let containerKeys = ["lastTransactions"]
    /// Keys of signed parts that are no Apple token: a Retention Messaging reply's offer signatures
    /// and Advanced Commerce data, a V1 offer signature's fields. The JSON is the input, not the
    /// token or base64 the paste finder would find in it.
    public static let signedPartKeys = ["promotionalOfferSignatureV2", "promotionalOfferSignatureV1", "advancedCommerceInfo",
                                        "encodedSignature"]
}

enum JWSText {
    /// Any key that tells the loader a JSON object is StoreKit text.
    static let tokenKeys = StoreKitKeys.tokenKeys + StoreKitKeys.containerKeys + StoreKitKeys.signedPartKeys

    /// The token's characters in `bytes` when the whole input is one compact JWS.
    static func tokenRange(_ bytes: [UInt8], from first: Int) -> Range<Int>? {
        let (start, end) = unquoted(bytes, from: first)
        // Shorter is a version number ("1.2.3"), not a token: a header alone is longer.
        guard end - start >= 16 else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            CompactJWSShape.holds(UnsafeBufferPointer(rebasing: buffer[start..<end]))
        } ? start..<end : nil
    }

    /// The text from `first` without trailing whitespace and one pair of surrounding quotes (a
    /// token copied out of JSON or a log line).
    static func unquoted(_ bytes: [UInt8], from first: Int) -> (start: Int, end: Int) {
        var start = first
        var end = bytes.count
        while end > start, RawInput.isSpace(bytes[end - 1]) { end -= 1 }
        if end - start >= 2, bytes[start] == UInt8(ascii: "\""), bytes[end - 1] == UInt8(ascii: "\"") {
            start += 1
            end -= 1
        }
        return (start, end)
    }

    static func isTokenCharacter(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39)
            || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") || c == UInt8(ascii: "+") || c == UInt8(ascii: "/")
            || c == UInt8(ascii: "=")
    }
}

/// Whether bytes have a compact JWS's shape: token characters (base64url's, base64's and `=`) and
/// exactly two dots. Every input the loader is given, and every token the classifier sees, passes
/// here, so it runs at memory speed: the dots are found with `memchr` (none: no token, and a base64
/// receipt is not read byte by byte), then the other bytes are tested as a `ByteClass` (a bit test
/// and a branch a byte cost 16 instructions a byte, 4 % of a batch line).
public enum CompactJWSShape {
    public static func holds(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { holds($0) }
    }

    public static func holds(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return false }
        let dot = Int32(UInt8(ascii: "."))
        guard let first = memchr(base, dot, buffer.count) else { return false }
        let afterFirst = base.distance(to: first.assumingMemoryBound(to: UInt8.self)) + 1
        guard let second = memchr(base + afterFirst, dot, buffer.count - afterFirst) else { return false }
        let afterSecond = base.distance(to: second.assumingMemoryBound(to: UInt8.self)) + 1
        guard memchr(base + afterSecond, dot, buffer.count - afterSecond) == nil else { return false }
        return !notTokenCharacter.occurs(in: buffer)
    }

    /// Every byte that is neither `JWSText.isTokenCharacter` nor a dot.
    static let notTokenCharacter = ByteClass { !JWSText.isTokenCharacter($0) && $0 != UInt8(ascii: ".") }
}
