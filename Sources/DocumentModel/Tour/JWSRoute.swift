import ASN1Lenient
import JWSKit

/// The StoreKit 2 route: the compact token's three base64url parts → the header JSON → the payload
/// JSON → an x5c certificate's DER → the ES256 signature as raw r‖s and as the DER ECDSA-Sig-Value
/// OpenSSL wants. Found through the document's JWS layers (the first top-level token).
struct JWSRoute {
    let document: Document
    let token: JWSToken

    func steps() -> [TourStep] {
        let jws = token.document
        var steps: [TourStep] = []
        let parts = jws.segments.map { "\($0.role.rawValue) \(NumberText.grouped($0.characterRange.count)) characters → \(NumberText.grouped($0.bytes.count)) bytes" }
        if let header = jws.segments.first {
            steps.append(TourStep(node: NodeID(token.layers.token, 0), focus: .content, range: header.characterRange,
                                  title: "A compact JWS: three base64url parts",
                                  lesson: ["text: " + parts.joined(separator: "; "),
                                           "meaning: header.payload.signature, each base64url (- and _ for + and /) without = padding; 4 characters carry 3 bytes",
                                           "meaning: the signature covers the ASCII text header.payload exactly as written in the token"]))
        }
        if let layer = token.layers.header {
            let bytes = document.layer(layer).bytes
            steps.append(TourStep(node: NodeID(layer, 0), focus: .whole, range: 0..<bytes.count, title: "The header, decoded: JSON",
                                  lesson: ["text: " + Self.excerpt(bytes),
                                           "meaning: alg \(jws.header.alg.map { "\"\(TerminalSafe.escape($0))\"" } ?? "(missing)") names the signature algorithm; x5c holds \(jws.header.certificates.count) certificate\(jws.header.certificates.count == 1 ? "" : "s"), leaf first, each standard base64 of DER"]))
        }
        if let layer = token.layers.payload {
            let bytes = document.layer(layer).bytes
            steps.append(TourStep(node: NodeID(layer, 0), focus: .whole, range: 0..<bytes.count, title: "The payload, decoded: JSON",
                                  lesson: ["text: " + Self.excerpt(bytes),
                                           "meaning: dates are milliseconds since 1970, ids are strings, prices are milliunits; unknown fields are kept"]))
        }
        if let layer = token.layers.certificates.first, let tree = document.layer(layer).tree, !tree.nodes.isEmpty {
            let lessons = TourLessons(tree: tree, layer: layer)
            steps.append(lessons.step(0, .length, "An x5c certificate: DER inside base64 inside JSON",
                                      ["meaning: the x5c string decodes to an X.509 certificate, the same DER as in a receipt's certificate set"],
                                      check: lessons.lengthCheck(0)))
        }
        if let layer = token.layers.signature {
            let raw = document.layer(layer).bytes
            var lesson = ["meaning: ES256 writes the signature as raw r‖s, two 32-byte big-endian integers (64 bytes), not DER"]
            if let signature = ECDSASignature(raw: raw) {
                lesson.append("r: " + Self.hex(signature.r))
                lesson.append("s: " + Self.hex(signature.s))
                let der = signature.der
                lesson.append("der: OpenSSL's verify wants ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }: \(der.count) bytes, \(Self.hex(Array(der.prefix(8)))) …")
                lesson.append("meaning: INTEGERs are signed and minimal, so a 0x00 is added before a top bit of 1 and leading zeros go: the DER length varies, the raw form never does")
            }
            steps.append(TourStep(node: NodeID(layer, 0), focus: .whole, range: 0..<raw.count, title: "The ES256 signature: raw r‖s vs DER", lesson: lesson))
        }
        return steps
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map(hexByte).joined(separator: " ") }

    /// The first 120 characters of JSON text, terminal-safe.
    static func excerpt(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(120), as: UTF8.self)
        return TerminalSafe.escape(text) + (bytes.count > 120 ? " …" : "")
    }
}
