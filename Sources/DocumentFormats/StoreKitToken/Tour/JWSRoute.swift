import ASN1Lenient
import JSONLenient
import JWSKit
import ByteText
import DocumentCore
import DocumentTour

/// The StoreKit 2 route: the compact token's three base64url parts → the header JSON → the payload
/// JSON → (a notification) its `data` object → a nested token → the x5c chain and Apple's marker
/// OIDs → why validity is judged at `signedDate` → the ES256 signature as raw r‖s and as the DER
/// ECDSA-Sig-Value OpenSSL wants. Found through the document's JWS layers (the first top-level token).
struct JWSRoute {
    let document: Document
    let token: JWSToken

    var jws: JWSDocument { token.document }

    func steps() -> [TourStep] {
        var steps: [TourStep] = []
        if let header = jws.segments.first {
            let parts = jws.segments.map { "\($0.role.rawValue) \(NumberText.grouped($0.characterRange.count)) characters" }
            steps.append(TourStep(node: NodeID(token.layers.token, 0), focus: .content, range: header.characterRange,
                                  title: "A compact JWS: three base64url parts",
                                  lesson: ["text: " + parts.joined(separator: "; "),
                                           "meaning: header.payload.signature, each base64url (- and _ for + and /) without = padding; 4 characters carry 3 bytes",
                                           "meaning: the signature covers the ASCII text header.payload exactly as written in the token"],
                                  check: base64Check(header)))
        }
        if let layer = token.layers.header {
            let bytes = document.layer(layer).bytes
            steps.append(TourStep(node: NodeID(layer, 0), focus: .whole, range: 0..<bytes.count, title: "The header, decoded: JSON",
                                  lesson: ["text: " + Self.excerpt(bytes),
                                           "meaning: alg \(jws.header.alg.map { "\"\(TerminalSafe.escape($0))\"" } ?? "(missing)") names the signature algorithm (ES256: ECDSA on P-256 with SHA-256); x5c holds the signing chain, leaf first, each entry standard base64 (not base64url) of a DER certificate"]))
        }
        if let layer = token.layers.payload, let tree = document.layer(layer).json {
            let bytes = document.layer(layer).bytes
            steps.append(TourStep(node: NodeID(layer, 0), focus: .whole, range: 0..<bytes.count, title: "The payload, decoded: JSON",
                                  lesson: ["text: " + Self.excerpt(bytes),
                                           "meaning: the StoreKit fields: ids are strings, prices are milliunits, dates are numbers; unknown fields are kept"],
                                  check: dateCheck() ?? memberCheck(tree)))
            steps += dataStops(layer, tree)
        }
        steps += chainStops()
        if let layer = token.layers.signature {
            let raw = document.layer(layer).bytes.array
            var lesson = ["meaning: ES256 writes the signature as raw r‖s: two big-endian integers as long as the curve's size, not DER"]
            var check: SelfCheck?
            if raw.count == 64, let signature = ECDSASignature(raw: raw) {
                lesson.append("r: " + Hex.string(signature.r, .upper, separator: " "))
                lesson.append("s: " + Hex.string(signature.s, .upper, separator: " "))
                lesson.append("der: OpenSSL's verify wants ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }")
                lesson.append("meaning: INTEGERs are signed and minimal, so a 00 goes before a first octet of 0x80 or more and leading zero octets go: the DER length varies, the raw form never does")
                check = derLengthCheck(signature)
            } else {
                lesson.append("meaning: this one is \(NumberText.grouped(raw.count)) byte\(raw.count == 1 ? "" : "s"): compare it with what P-256 needs")
                check = SelfCheck("How many bytes should an ES256 signature have?",
                                  right: ("64", "two P-256 integers of 32 bytes each, r then s"),
                                  wrong: [("\(raw.count)", "that is what this token has, and why it fails: ES256 is exactly 64 bytes"),
                                          ("32", "that is one of the two integers; r and s make 64")], seed: raw.count)
            }
            steps.append(TourStep(node: NodeID(layer, 0), focus: .whole, range: 0..<raw.count, title: "The ES256 signature: raw r‖s vs DER",
                                  lesson: lesson, check: check))
        }
        return steps
    }

    /// Base64url: 4 characters carry 3 bytes.
    func base64Check(_ segment: JWSSegment) -> SelfCheck? {
        let chars = segment.characterRange.count, bytes = segment.bytes.count
        return SelfCheck("The header is \(NumberText.grouped(chars)) base64url characters: how many bytes do they decode to?",
                         right: (NumberText.grouped(bytes), "each character carries 6 bits, so 4 characters carry 3 bytes: \(NumberText.grouped(chars)) × 6 / 8 = \(NumberText.grouped(bytes)) (a last group of 2 or 3 characters carries 1 or 2 bytes)"),
                         wrong: [(NumberText.grouped(chars), "a character carries 6 bits, not 8: the bytes are fewer than the characters"),
                                 (NumberText.grouped((chars * 4 + 2) / 3), "that multiplies by 4/3, which is encoding (bytes → characters); decoding multiplies by 3/4")],
                         seed: chars)
    }

    /// The date field a verifier judges the chain at, read as a number of milliseconds.
    func dateCheck() -> SelfCheck? {
        let name = jws.payload.signedDate != nil ? "signedDate" : "receiptCreationDate"
        guard let ms = jws.payload.validityDate, ms > 1_000_000, ms < 1e15 else { return nil }
        let digits = String(Int64(ms))
        let asSeconds = 1970 + Int(ms / 31_556_952)
        return SelfCheck("\(name) is \(digits): what moment is it?",
                         right: (ISODate.string(milliseconds: ms), "StoreKit dates are milliseconds since 1970-01-01 UTC: \(digits) ms"),
                         wrong: [("the year \(NumberText.grouped(asSeconds))", "that reads it as seconds; StoreKit writes milliseconds (13 digits for today's dates)"),
                                 (ISODate.string(milliseconds: ms / 1000), "that reads it as microseconds; StoreKit writes milliseconds")],
                         seed: Int(ms.truncatingRemainder(dividingBy: 7)))
    }

    /// A payload without a usable date: how many members its object holds.
    func memberCheck(_ tree: JSONTree) -> SelfCheck? {
        guard let root = tree.root else { return nil }
        let count = tree.members(of: root).count
        guard count > 0 else { return nil }
        return SelfCheck("How many members does the payload's top-level object hold?",
                         right: ("\(count)", "\(count) key-value pairs at depth 1; members of nested objects belong to those objects"),
                         wrong: [("\(tree.count)", "that counts every JSON node, nested ones and values included"),
                                 ("\(count + 1)", "count the keys at depth 1: there are \(count)")], seed: count)
    }

    /// DER length of ECDSA-Sig-Value for this r and s.
    func derLengthCheck(_ signature: ECDSASignature) -> SelfCheck? {
        let der = signature.der
        guard der.count > 6, der[2] == 0x02 else { return nil }
        let rLength = Int(der[3])
        guard der.count > 5 + rLength else { return nil }
        let sLength = Int(der[5 + rLength])
        let other = der.count == 72 ? 70 : 72
        return SelfCheck("How many bytes is this signature as a DER ECDSA-Sig-Value?",
                         right: ("\(der.count)", "30 \(Hex.byte(der[1], .upper)), then 02 \(Hex.byte(UInt8(rLength), .upper)) and r in \(rLength) octets, 02 \(Hex.byte(UInt8(sLength), .upper)) and s in \(sLength): 2 + 2 + \(rLength) + 2 + \(sLength) = \(der.count)"),
                         wrong: [("64", "64 is the raw r‖s; DER adds a SEQUENCE header and an INTEGER header for each of r and s"),
                                 ("\(other)", "a 00 is added only before a first octet of 0x80 or more: here r takes \(rLength) octets and s \(sLength)")],
                         seed: der.count)
    }

    /// The first 120 characters of JSON text, terminal-safe.
    static func excerpt(_ bytes: ByteWindow) -> String {
        let text = String(decoding: bytes.prefix(120), as: UTF8.self)
        return TerminalSafe.escape(text) + (bytes.count > 120 ? " …" : "")
    }
}
