import ASN1Lenient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import X509Trust

/// What to check besides decoding.
public struct AnalysisOptions: Sendable {
    /// Run the OpenSSL steps (signature, chain, time, receipt signer). Off: decode only, the fast
    /// path for huge files and for views that do not need a verdict.
    public var validate: Bool
    /// User-supplied root certificates, trusted in addition to the pinned anchors: read once (and
    /// their self-signatures checked once) for every document opened with these options or a copy.
    public var anchors: TrustAnchorSet
    /// Bytes of the anchors' files (DER or PEM).
    public var roots: [[UInt8]] {
        get { anchors.files }
        set { anchors = TrustAnchorSet(files: newValue) }
    }
    /// For the device-hash step; nil leaves it unchecked.
    public var deviceID: DeviceIdentifier?
    /// Expected bundle id and app version; nil leaves the step unchecked.
    public var bundleID: String?
    public var appVersion: String?
    /// Expected environment (Production, Sandbox, Xcode, LocalTesting; any case) and app Apple ID
    /// (attribute 1); nil leaves the step unchecked.
    public var environment: String?
    public var appAppleID: Int64?
    /// The moment for the expiration step and active subscriptions; nil = `now`.
    public var at: Date?
    /// "Today", for whether the chain would still verify now.
    public var now: Date
    public var parseOptions: ParseOptions

    public init(validate: Bool = true, roots: [[UInt8]] = [], deviceID: DeviceIdentifier? = nil,
                bundleID: String? = nil, appVersion: String? = nil, environment: String? = nil, appAppleID: Int64? = nil,
                at: Date? = nil, now: Date = Date(), parseOptions: ParseOptions = ParseOptions()) {
        self.validate = validate
        anchors = TrustAnchorSet(files: roots)
        self.deviceID = deviceID
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.environment = environment
        self.appAppleID = appAppleID
        self.at = at
        self.now = now
        self.parseOptions = parseOptions
    }

    /// The moment judged by the expiration step and `activeSubscriptions()`.
    public var moment: Date { at ?? now }
}

/// Maps offsets in a reassembled payload (several OCTET STRING chunks) back to the input file.
public struct PayloadMap: Sendable, Equatable {
    public struct Segment: Sendable, Equatable {
        /// Offset in the reassembled payload.
        public var payloadOffset: Int
        /// Offset of the same byte in the input.
        public var fileOffset: Int
        public var length: Int
    }

    public var segments: [Segment]

    /// The input offset of a payload offset (the end of the last segment for offsets past it).
    public func fileOffset(_ payloadOffset: Int) -> Int {
        guard let last = segments.last else { return payloadOffset }
        for s in segments where payloadOffset < s.payloadOffset + s.length {
            return s.fileOffset + max(0, payloadOffset - s.payloadOffset)
        }
        return last.fileOffset + last.length + (payloadOffset - last.payloadOffset - last.length)
    }

    /// The input range covering a payload range (chunk headers in between included).
    public func fileRange(_ range: Range<Int>) -> Range<Int> {
        let start = fileOffset(range.lowerBound)
        guard !range.isEmpty else { return start..<start }
        return start..<(fileOffset(range.upperBound - 1) + 1)
    }
}

/// Everything known about one input: the parse tree with every finding merged, the container,
/// the decoded receipt, the links between them and the validation steps.
public struct ReceiptAnalysis: Sendable {
    /// The parse of the whole input; `tree.diagnostics` holds the parser's diagnostics followed by
    /// the receipt module's findings (so every view shows one list).
    public var tree: Tree
    /// Only when the payload came in several OCTET STRING chunks: the reassembled payload parsed
    /// on its own. The receipt's node indices and `links` then point into this tree, and its
    /// offsets are payload offsets (`payloadMap` converts them to input offsets).
    public var payloadTree: Tree?
    public var payloadMap: PayloadMap?
    public var container: ContainerInfo?
    /// Nil when the input is not a receipt (not a PKCS#7 SignedData, no payload, payload not a SET).
    public var receipt: Receipt?
    /// Where the receipt module's own findings (`pkcs7-…`, `receipt-…`) sit in `tree.diagnostics`,
    /// after the parser's: kept there once (a second list was 0.7 MB for 10,000 findings).
    public var findingsRange: Range<Int>
    /// The receipt module's own findings, in the input's terms (node indices into `tree`, input
    /// offsets): a copy of their part of `tree.diagnostics`.
    public var findings: [Diagnostic] { Array(tree.diagnostics[findingsRange]) }
    /// The OpenSSL report (nil when validation was not requested).
    public var signature: SignatureReport?
    /// contents, signature, chain, time, receipt-signer, device-hash, bundle-id, app-version,
    /// expiration — each passed / failed(why) / not checked(why).
    public var validationSteps: [ValidationStep]
    public var links: ReceiptLinks
    public var options: AnalysisOptions
    /// How many times the input was parsed (1, or 2 when the payload had to be parsed on purpose).
    public var parseCount: Int
    /// The overall outcome, as `verify` reports it.
    public var verdict: Verdict

    /// The tree that `receipt`'s node indices and `links` refer to.
    public var receiptTree: Tree { payloadTree ?? tree }

    /// Which receipt field (and in-app purchase) a node of `receiptTree` belongs to.
    public func location(of node: Int) -> FieldLocation? { links.location(of: node) }

    /// The input byte range of a range of `receiptTree` (identity unless the payload was reassembled).
    public func fileRange(_ range: Range<Int>) -> Range<Int> {
        payloadMap?.fileRange(range) ?? range
    }

    /// Auto-renewable subscriptions active at `date` (default: `options.moment`).
    public func activeSubscriptions(at date: Date? = nil) -> [InAppPurchase] {
        receipt?.activeSubscriptions(at: ReceiptDate(date ?? options.moment)) ?? []
    }

    public func step(_ id: StepID) -> ValidationStep? { validationSteps.first { $0.id == id } }

    /// The worst severity among every diagnostic and finding.
    public var worstSeverity: Severity? { tree.worstSeverity }
}

extension ReceiptAnalysis {
    /// Every diagnostic in the input's terms: the tree's (parser and receipt findings) and, for a
    /// reassembled payload, the payload parser's own diagnostics mapped to input offsets.
    public var allDiagnostics: [Diagnostic] {
        guard let payload = payloadTree, let map = payloadMap else { return tree.diagnostics }
        var out = tree.diagnostics
        for var d in payload.diagnostics where d.code.receiptCode == nil {
            let r = map.fileRange(d.range)
            d.offset = r.lowerBound
            d.length = r.count
            d.node = (container?.payloadChunks.first { tree.nodes[$0].contentRange.contains(r.lowerBound) } ?? container?.payloadString).map(NodeIndex.init)
            out.append(d)
        }
        return out
    }
}
