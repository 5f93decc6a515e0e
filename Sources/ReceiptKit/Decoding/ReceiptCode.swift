import ASN1Lenient

/// Every finding the receipt module adds to the parser's diagnostics, with its stable code and
/// severity. `pkcs7-` codes concern the container, `receipt-` codes the payload.
public enum ReceiptCode: String, Sendable, CaseIterable {
    case empty = "pkcs7-empty"
    case notContentInfo = "pkcs7-not-content-info"
    case notSignedData = "pkcs7-not-signed-data"
    case contentMissing = "pkcs7-content-missing"
    case signedDataMalformed = "pkcs7-signed-data-malformed"
    case contentTypeNotData = "pkcs7-content-type-not-data"
    case payloadMissing = "pkcs7-payload-missing"
    case payloadNotOctetString = "pkcs7-payload-not-octet-string"
    case noCertificates = "pkcs7-no-certificates"
    case noSignerInfos = "pkcs7-no-signer-infos"
    case payloadNotSet = "receipt-payload-not-set"
    case payloadTrailingData = "receipt-payload-trailing-data"
    case attributeMalformed = "receipt-attribute-malformed"
    case wrongType = "receipt-attribute-wrong-type"
    case dateInvalid = "receipt-date-invalid"
    case duplicate = "receipt-attribute-duplicate"
    case missing = "receipt-attribute-missing"

    public var severity: Severity {
        switch self {
        case .noCertificates, .payloadTrailingData: .warning
        default: .error
        }
    }

    /// One sentence for documentation and the explanation pane.
    public var summary: String {
        switch self {
        case .empty: "The input holds no ASN.1 element at all."
        case .notContentInfo: "A receipt starts with a PKCS#7 ContentInfo: SEQUENCE { contentType OID, [0] content }."
        case .notSignedData: "The ContentInfo's content type must be signedData (1.2.840.113549.1.7.2)."
        case .contentMissing: "The ContentInfo has no [0] content."
        case .signedDataMalformed: "The SignedData does not have the shape RFC 5652 gives it."
        case .contentTypeNotData: "A receipt's encapsulated content type must be data (1.2.840.113549.1.7.1)."
        case .payloadMissing: "The SignedData carries no content (a detached signature): there is no receipt payload."
        case .payloadNotOctetString: "The encapsulated content must be an OCTET STRING."
        case .noCertificates: "The SignedData embeds no certificates; the signer cannot be identified without them."
        case .noSignerInfos: "The SignedData has no SignerInfo: nothing is signed."
        case .payloadNotSet: "The receipt payload must be a SET of attributes."
        case .payloadTrailingData: "Bytes follow the payload SET inside the content OCTET STRING."
        case .attributeMalformed: "An attribute must be SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }."
        case .wrongType: "The attribute's value is not of the type the receipt format defines for it."
        case .dateInvalid: "A date attribute must hold an RFC 3339 date (or be empty)."
        case .duplicate: "An attribute that must appear once appears several times; which one counts is ambiguous."
        case .missing: "An attribute every receipt (or in-app purchase) carries is absent."
        }
    }
}

extension ReceiptCode: DiagnosticCodeFamily {
    /// A finding about the payload (`receipt-`), not the PKCS#7 container (`pkcs7-`).
    public var concernsPayload: Bool { rawValue.hasPrefix("receipt-") }
}

extension DiagnosticCode {
    /// The receipt module's code, when the receipt module reported it.
    public var receiptCode: ReceiptCode? { ReceiptCode(rawValue: rawValue) }
}

extension Diagnostic {
    /// A receipt finding covering a node's whole bytes.
    static func receipt(_ code: ReceiptCode, _ message: String, node: Int, in tree: Tree,
                        severity: Severity? = nil) -> Diagnostic {
        code.diagnostic(message, tree.nodes[node].byteRange, node: NodeIndex(node), severity: severity)
    }
}

extension DiagnosticCap {
    /// A receipt finding covering a node's whole bytes, worded only when it is kept.
    mutating func receipt(_ code: ReceiptCode, _ message: @autoclosure () -> String, node: Int, in tree: Tree,
                          severity: Severity? = nil) {
        append(code.code) { .receipt(code, message(), node: node, in: tree, severity: severity) }
    }
}
