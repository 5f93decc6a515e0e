import ASN1Lenient
import JSONLenient
import JWSKit
import ReceiptKit

/// A StoreKit 2 input as the diff reads it: its tokens (a token alone, or those of a body such as
/// a transaction history), each decoded with JWSKit, with the way back to file offsets.
struct StoreKitSide {
    /// One token and the tokens that carry it (outermost first), for mapping offsets to the file.
    struct Token {
        var path: String
        var document: JWSDocument
        var carriers: [JWSDocument]

        /// The file bytes that encode the payload bytes `range` of this token.
        func fileRange(payload range: Range<Int>) -> Range<Int>? {
            fileRange(range, in: document, carriers: carriers)
        }

        private func fileRange(_ range: Range<Int>, in doc: JWSDocument, carriers: [JWSDocument]) -> Range<Int>? {
            guard let segment = doc.segment(.payload) else { return nil }
            let characters = doc.enclosingRange(segment.map.characterRange(ofBytes: range))
            guard let parent = carriers.last else { return characters }
            return fileRange(characters, in: parent, carriers: Array(carriers.dropLast()))
        }

        /// The file bytes of the token's signature characters.
        var signatureFileRange: Range<Int>? {
            guard let segment = document.segment(.signature) else { return nil }
            let characters = document.enclosingRange(segment.characterRange)
            guard let parent = carriers.last else { return characters }
            return Token(path: path, document: parent, carriers: Array(carriers.dropLast())).fileRange(payload: characters)
        }
    }

    let document: Document
    var tokens: [Token] = []

    /// Nil when the file is neither a compact JWS nor JSON carrying tokens.
    init?(_ document: Document) {
        self.document = document
        let bytes = document.fileLayer.bytes
        switch StoreKitInput.classify(bytes) {
        case .token:
            var start = 0, end = bytes.count
            while start < end, Self.isSpace(bytes[start]) { start += 1 }
            while end > start, Self.isSpace(bytes[end - 1]) { end -= 1 }
            tokens = [Token(path: "", document: JWSDocument.decode(text: Array(bytes[start..<end]), textOffset: start),
                            carriers: [])]
        case .body(_, let embedded):
            tokens = embedded.map {
                Token(path: $0.path, document: JWSDocument.decode(text: Array(bytes[$0.range]), textOffset: $0.range.lowerBound),
                      carriers: [])
            }
        default:
            return nil
        }
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    /// Every transaction payload: tokens that are transactions and the signedTransactionInfo of
    /// notifications.
    var transactions: [Token] {
        var out: [Token] = []
        for token in tokens {
            if token.document.payload.kind == .transaction { out.append(token) }
            for nested in token.document.nested where nested.document.payload.kind == .transaction {
                out.append(Token(path: Self.join(token.path, nested.path), document: nested.document,
                                 carriers: token.carriers + [token.document]))
            }
        }
        return out
    }

    static func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : b.isEmpty ? a : "\(a).\(b)" }

    /// A payload field's value bytes, in file offsets.
    func side(_ token: Token, _ field: StoreKitField) -> DiffSide {
        let range = field.valueNode.flatMap { node in
            token.document.payloadJSON.map { $0[node.index].range }
        }
        let fileRange = range.flatMap { token.fileRange(payload: $0) }
        return DiffSide(node: nil, range: fileRange, fileRange: fileRange, value: field.value.display)
    }

    /// The x5c certificates of a token, leaf first.
    static func certificates(_ token: Token) -> [DiffCertificate] {
        token.document.header.certificates.map { cert in
            let info = CertificateInfo(der: cert.der)
            return DiffCertificate(sha256: info?.sha256Fingerprint ?? "", subject: info?.subject ?? "(unreadable certificate)")
        }
    }

    func signature(_ token: Token) -> DiffSide? {
        guard let range = token.signatureFileRange else { return nil }
        let bytes = token.document.signatureBytes
        return DiffSide(node: nil, range: range, fileRange: range,
                        value: "\(bytes.count) bytes \(bytes.prefix(8).map { ReceiptSide.hexByte($0) }.joined())…")
    }
}
