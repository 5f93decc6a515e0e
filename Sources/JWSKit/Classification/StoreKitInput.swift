import ByteText
import ASN1Lenient
import JSONLenient
import TextLoader

/// What kind of StoreKit 2 token a JWS is (from its payload's fields).
public enum StoreKitTokenKind: Sendable, Equatable {
    case transaction, renewalInfo, appTransaction
    case notification(type: String?, subtype: String?)
    /// Signed by the developer's In-App Purchase key (`kid`, no `x5c`).
    case developer(DeveloperTokenKind)
    case unknown

    /// Terminal-safe as built: a notification's type and subtype are the payload's text.
    public var label: String {
        switch self {
        case .transaction: "StoreKit 2 transaction"
        case .renewalInfo: "StoreKit 2 renewal info"
        case .appTransaction: "StoreKit 2 app transaction"
        case .notification(let type, let subtype):
            "App Store Server Notification V2 (\([type, subtype].compactMap { $0 }.map(TerminalSafe.escape).joined(separator: " / ")))"
        case .developer(let kind): kind.label
        case .unknown: "StoreKit 2 JWS of an unrecognised kind"
        }
    }

    init(_ payload: StoreKitPayload) {
        switch payload.kind {
        case .transaction: self = .transaction
        case .renewalInfo: self = .renewalInfo
        case .appTransaction: self = .appTransaction
        case .notification: self = .notification(type: payload.notificationType, subtype: payload.subtype)
        case .promotionalOffer, .introductoryOfferEligibility, .advancedCommerceRequest, .serverAPIToken:
            self = payload.kind.developerKind.map(StoreKitTokenKind.developer) ?? .unknown
        case .unknown: self = .unknown
        }
    }
}

/// A JWS found inside a JSON body, with the byte range of its characters in the body.
public struct EmbeddedToken: Sendable, Equatable {
    /// "signedPayload", "signedTransactions[2]", "data[0].lastTransactions[1].signedRenewalInfo".
    public var path: String
    /// The string's content (quotes excluded) in the input; feed it to `JWSDocument.decode`.
    public var range: Range<Int>
    public var kind: StoreKitTokenKind
    /// What classifying already decoded of the token, for `JWSDocument.decode(_:in:)`. Derived from
    /// the other fields and the body, so not compared.
    var prepared: JWSDocument.Prepared?

    public static func == (a: EmbeddedToken, b: EmbeddedToken) -> Bool {
        a.path == b.path && a.range == b.range && a.kind == b.kind
    }
}

/// What a pasted input is, as far as StoreKit goes.
public enum StoreKitInputKind: Sendable, Equatable {
    /// A compact JWS on its own.
    case token(StoreKitTokenKind)
    /// A JSON body carrying tokens: a notification body `{"signedPayload": …}`, a transaction
    /// history `{"signedTransactions": [...]}`, subscription statuses, or single `signed…` fields.
    case body(description: String, tokens: [EmbeddedToken])
    /// An iOS 6 style transaction receipt: an old-style plist with "signature" and "purchase-info".
    case legacyTransactionReceipt
    /// Not StoreKit 2 (the caller goes on with its other readers).
    case notStoreKit(reason: String)

    /// One line for every command's header.
    public var summary: String {
        switch self {
        case .token(let kind): kind.label
        case .body(let description, _): description
        case .legacyTransactionReceipt:
            "iOS 6 style transaction receipt (SKPaymentTransaction.transactionReceipt, deprecated since iOS 7): "
                + "use the app receipt, or StoreKit 2's Transaction.jwsRepresentation / the App Store Server API instead"
        case .notStoreKit(let reason): "not StoreKit 2: \(reason)"
        }
    }
}

public enum StoreKitInput {
    /// Keys of JSON bodies whose string values (or arrays of strings) are JWS.
    static let tokenKeys = Set(StoreKitKeys.tokenKeys)

    /// Classifies decoded input bytes (text with or without surrounding whitespace).
    public static func classify(_ bytes: [UInt8]) -> StoreKitInputKind {
        classifyKeepingJSON(bytes).kind
    }

    /// `classify`, with the JSON tree of `bytes` when it was parsed (a body): `Document.open` keeps
    /// it as the file layer's content instead of parsing the whole body again.
    public static func classifyKeepingJSON(_ bytes: [UInt8]) -> (kind: StoreKitInputKind, json: JSONTree?) {
        let classification = classifyKeepingWork(bytes)
        return (classification.kind, classification.json)
    }

    /// `classify`, keeping what it parsed for whoever opens the input next: a body's JSON tree, or
    /// a whole token's split, header and payload tree (`JWSDocument.decode(_:)` goes on from there;
    /// parsing a batch line's token twice was 5 % of its cost).
    /// `compactJWS`: the loader found `bytes` to be one compact JWS, whole (`LoadedInput.isCompactJWS`),
    /// so its characters are not read again for the shape (a third of a batch line's own scans).
    public static func classifyKeepingWork(_ bytes: [UInt8], compactJWS: Bool = false) -> StoreKitClassification {
        let trimmed = compactJWS ? 0..<bytes.count : trimmedRange(bytes)
        guard !trimmed.isEmpty else { return StoreKitClassification(.notStoreKit(reason: "the input is empty")) }
        let text = bytes[trimmed]
        if compactJWS || isCompactJWS(text) {
            let (kind, prepared) = JWSDocument.payloadKind(text: ByteWindow(bytes, window: trimmed))
            // Only a token that is the whole input: its offsets are the input's.
            return StoreKitClassification(.token(kind), token: trimmed.count == bytes.count ? prepared : nil)
        }
        if isLegacyPlist(text) { return StoreKitClassification(.legacyTransactionReceipt) }
        // "ew" is base64 for "{" and a space or line break: only then is a base64 plist worth decoding.
        if text.starts(with: Array("ew".utf8)), let decoded = standardBase64(text), isLegacyPlist(decoded[...]) {
            return StoreKitClassification(.legacyTransactionReceipt)
        }
        if text.first == UInt8(ascii: "{") || text.first == UInt8(ascii: "[") {
            let tree = JSONParser.parse(bytes)
            return StoreKitClassification(classifyJSON(tree), json: tree)
        }
        return StoreKitClassification(.notStoreKit(reason: "neither a compact JWS nor JSON carrying one"))
    }

    static func classifyJSON(_ tree: JSONTree) -> StoreKitInputKind {
        guard let root = tree.root else { return .notStoreKit(reason: "JSON without a value") }
        var tokens: [EmbeddedToken] = []
        collect(tree, root, path: "", inTokenKey: false, into: &tokens)
        guard !tokens.isEmpty else { return .notStoreKit(reason: "JSON without signedPayload, signedTransactions or other signed… fields") }
        return .body(description: describe(tree, tokens), tokens: tokens)
    }

    static func collect(_ tree: JSONTree, _ node: Int, path: String, inTokenKey: Bool, into tokens: inout [EmbeddedToken]) {
        switch tree[node].kind {
        case .object:
            for member in tree.members(of: node) {
                guard let key = tree.key(ofMember: member), let value = tree.value(ofMember: member) else { continue }
                collect(tree, value, path: path.isEmpty ? key : path + "." + key, inTokenKey: tokenKeys.contains(key), into: &tokens)
            }
        case .array:
            for (i, element) in tree.children(of: node).enumerated() {
                collect(tree, element, path: "\(path)[\(i)]", inTokenKey: inTokenKey, into: &tokens)
            }
        case .string where inTokenKey:
            let n = tree[node]
            let range = (n.start + 1)..<max(n.start + 1, n.end - 1)
            let (kind, prepared) = JWSDocument.payloadKind(text: ByteWindow(tree.bytes, window: range))
            tokens.append(EmbeddedToken(path: path, range: range, kind: kind, prepared: prepared))
        default:
            break
        }
    }

    static func describe(_ tree: JSONTree, _ tokens: [EmbeddedToken]) -> String {
        StoreKitBodyShape(tree, tokens).description
    }

    /// Base64url characters (and stray padding or standard-alphabet characters, which decoding then
    /// pins as diagnostics) in three dot-separated runs: a broken token is still read as a token.
    static func isCompactJWS(_ text: ArraySlice<UInt8>) -> Bool { CompactJWSShape.holds(text) }

    static func isLegacyPlist(_ text: ArraySlice<UInt8>) -> Bool {
        guard text.first == UInt8(ascii: "{") else { return false }
        let string = String(decoding: text.prefix(4096), as: UTF8.self)
        return string.contains("\"purchase-info\"") && string.contains("\"signature\"")
    }

    static func standardBase64(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        let compact = text.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard compact.allSatisfy({ Base64Decoder.sextet($0, .standard) != nil || $0 == UInt8(ascii: "=") }) else { return nil }
        let result = Base64Decoder.decode(compact[...], alphabet: .standard)
        return result.diagnostics.isEmpty ? result.bytes : nil
    }

    static func trimmedRange(_ bytes: [UInt8]) -> Range<Int> {
        var start = 0, end = bytes.count
        while start < end, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        while end > start, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
        return start..<end
    }
}

extension StoreKitTokenKind {
    /// The kind of a decoded document.
    public init(kindOf document: JWSDocument) { self.init(document.payload) }
}

/// What a JSON body carrying tokens is, decided once from its tree and its tokens: the one body
/// classifier (the document's kind and the classification's description both read it).
public enum StoreKitBodyShape: Sendable, Equatable {
    /// App Store Server API transaction history: `signedTransactions`, with how many it holds.
    case transactionHistory(transactions: Int)
    /// App Store Server API subscription statuses: `data[].lastTransactions[]`, with all its tokens.
    case subscriptionStatuses(tokens: Int)
    /// A notification request body: `signedPayload`.
    case notification(StoreKitTokenKind)
    /// One token under some other key.
    case single(StoreKitTokenKind, path: String)
    /// Any other JSON carrying tokens.
    case tokens(Int)

    public init(_ tree: JSONTree, _ tokens: [EmbeddedToken]) {
        if tree.lookup(["signedTransactions"]) != nil {
            // Counted, not filtered: a filtered copy of 10,000 tokens with their decoded parts was 12 MB.
            self = .transactionHistory(transactions: tokens.reduce(0) { $1.path.hasPrefix("signedTransactions[") ? $0 + 1 : $0 })
        } else if tokens.contains(where: { $0.path.contains("lastTransactions[") }) {
            self = .subscriptionStatuses(tokens: tokens.count)
        } else if let notification = tokens.first(where: { $0.path == "signedPayload" }) {
            self = .notification(notification.kind)
        } else if tokens.count == 1 {
            self = .single(tokens[0].kind, path: tokens[0].path)
        } else {
            self = .tokens(tokens.count)
        }
    }

    /// Several tokens reported one by one (a notification body or a single token is its token).
    public var isCollection: Bool {
        switch self {
        case .transactionHistory, .subscriptionStatuses, .tokens: true
        case .notification, .single: false
        }
    }

    public var description: String {
        switch self {
        case .transactionHistory(let n): "App Store Server API transaction history (\(n) transaction\(n == 1 ? "" : "s"))"
        case .subscriptionStatuses(let n): "App Store Server API subscription statuses (\(n) signed tokens)"
        case .notification(let kind): "notification body: " + kind.label
        case .single(let kind, let path): "JSON carrying one \(kind.label) at \(path)"
        case .tokens(let n): "JSON carrying \(n) StoreKit 2 tokens"
        }
    }
}

/// What `StoreKitInput.classifyKeepingWork` found, with the work it did to find it.
public struct StoreKitClassification: Sendable {
    public var kind: StoreKitInputKind
    /// A body's JSON tree (it becomes the file layer's content).
    public var json: JSONTree?
    /// A whole-input token decoded as far as classifying it went.
    public var token: JWSDocument.Prepared?

    init(_ kind: StoreKitInputKind, json: JSONTree? = nil, token: JWSDocument.Prepared? = nil) {
        self.kind = kind
        self.json = json
        self.token = token
    }
}
