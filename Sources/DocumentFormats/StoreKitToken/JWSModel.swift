import ASN1Lenient
import JSONLenient
import JWSKit
import ByteText
import DocumentCore

/// The layers of one token in its document.
public struct JWSTokenLayers: Sendable, Equatable {
    /// The token's characters (the file layer for a token pasted alone).
    public var token: LayerID
    public var header: LayerID?
    public var payload: LayerID?
    public var signature: LayerID?
    /// `x5c[i]`'s DER, in x5c order (entries that are not strings have no layer).
    public var certificates: [LayerID]
    /// An Advanced Commerce request's decoded `request` claim.
    public var request: LayerID? = nil
}

/// One token of a StoreKit 2 document: the top-level token, a token of a JSON body, or a token
/// nested in another token's payload.
public struct JWSToken: Sendable {
    /// Where it was found: nil for a token pasted alone; "signedTransactions[1]" in a JSON body;
    /// "data.signedTransactionInfo" inside a notification's payload.
    public var path: String?
    /// The enclosing token (index into `JWSModel.tokens`) for a nested token.
    public var parent: Int?
    /// Where its characters sit in the layer that holds them (the file layer, or the parent's payload).
    public var rangeInParent: Range<Int>
    public var document: JWSDocument
    public var kind: StoreKitTokenKind
    /// What the token is, in words, everywhere it is named (dump, explain, verify, json, the explorer):
    /// its payload kind's label, unless the document's format knows it better (a Retention Messaging
    /// request's payload is no StoreKit 2 type, yet its format knows what it is).
    public var label: String
    public var layers: JWSTokenLayers
    /// The verification steps (with the notification consistency step for a notification) when
    /// the document was opened with `validate`; nil otherwise.
    public var report: JWSVerificationReport?

    /// "ES256, 3 certificates". Terminal-safe, like the loader's notes it joins in `Document.note`:
    /// the alg is the input's text (a damaged header decodes to any bytes, controls included).
    public var headerSummary: String {
        let n = document.header.certificates.count
        // A developer-signed token names its key instead of carrying certificates.
        if n == 0, let kid = document.header.kid {
            return "\(document.header.alg.map(TerminalSafe.escape) ?? "no alg"), kid \(TerminalSafe.escape(kid)), no x5c"
        }
        return "\(document.header.alg.map(TerminalSafe.escape) ?? "no alg"), \(n) certificate\(n == 1 ? "" : "s")"
    }
}

/// The StoreKit 2 model of a document: every token, in document order (a parent before its nested tokens).
public struct JWSModel: Sendable {
    public var tokens: [JWSToken]
    /// The JSON body's tree when the input was a JSON body (also the file layer's content).
    public var body: JSONTree?
    /// What the body is (`StoreKitBodyShape`): a history lists its transactions, a collection of
    /// tokens is verified token by token. Nil for a token alone and for a body without tokens.
    public var shape: StoreKitBodyShape?

    public init(tokens: [JWSToken], body: JSONTree?, shape: StoreKitBodyShape? = nil) {
        self.tokens = tokens
        self.body = body
        self.shape = shape
    }

    public init(tokens: [JWSToken], body: JSONTree?) {
        self.tokens = tokens
        self.body = body
    }

    /// No tokens and no body: the model views that show JSON layers use for a document without tokens.
    public static let empty = JWSModel(tokens: [], body: nil)

    /// Tokens not nested in another token: the token pasted alone, or each token of a JSON body.
    public var topLevel: [JWSToken] { tokens.filter { $0.parent == nil } }
    /// The tokens nested in `tokens[index]`.
    public func nested(in index: Int) -> [JWSToken] { nestedIndices(of: index).map { tokens[$0] } }

    /// The indices of the tokens nested in `tokens[index]`. A token's descendants follow it (the
    /// builder adds a token, then its nested ones), so the scan stops at the first token that is not
    /// one: a history's reports asked this of every token across all 10,000 (a tenth of `verify`).
    public func nestedIndices(of index: Int) -> [Int] { Self.nestedIndices(of: index, in: tokens) }

    static func nestedIndices(of index: Int, in tokens: [JWSToken]) -> [Int] {
        var found: [Int] = []
        var next = index + 1
        while next < tokens.count, let parent = tokens[next].parent, parent >= index {
            if parent == index { found.append(next) }
            next += 1
        }
        return found
    }
}
