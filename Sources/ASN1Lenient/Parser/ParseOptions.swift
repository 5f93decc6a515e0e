/// Knobs for one parse.
public struct ParseOptions: Sendable {
    /// Deepest nesting the parser descends into. Deeper content becomes an unparsed region with a
    /// `nesting-too-deep` error. Real receipts nest about 15 levels (payload inside certificates
    /// inside PKCS#7); 256 leaves room for anything legitimate. Values above 1,022 act as 1,022: a
    /// node records its depth in 10 bits (`Node.maxDepth`).
    public var maxDepth: Int = 256
    /// Guess encapsulated ASN.1 inside primitive OCTET STRING / BIT STRING values. A wrong guess
    /// is silently undone; it never produces a diagnostic.
    public var guessEncapsulation: Bool = true
    /// Offsets of primitive OCTET STRING / BIT STRING nodes whose content is known to be ASN.1 (a
    /// receipt payload): it is parsed on purpose and every defect inside is reported.
    public var encapsulateOnPurpose: OffsetSet = []
    /// Diagnostics recorded per code; past it, one summary diagnostic of the same code and severity
    /// (pinned to the first unlisted occurrence) says how many more there are. A diagnostic costs
    /// ~150 bytes against a node's 16, so without a cap 100 MB of zeros (50 million stray
    /// end-of-contents markers) took ~16 GB; with it, memory stays a small multiple of the input.
    /// No real receipt comes near 10,000 diagnostics of one kind.
    public var maxDiagnosticsPerCode: Int = 10_000
    /// Most nodes one parse builds; nil: `nodeBudget(inputBytes:)`, which keeps the arena within
    /// 1.5× the input plus 12 MiB however densely the input packs its elements (a 2-byte `05 00`
    /// costs a 12-byte node: 6× the input), 2× plus 16 MiB if every node needs an escape entry. At the budget the parser stops building nodes, reports
    /// `too-many-elements` at the offset where it stopped, and shows the rest as unparsed regions.
    public var maxNodes: Int?
    /// Tests only: parse every element with the general header reader and close every guess through
    /// the frame stack, to check the fast paths against (the result must be the same).
    var generalPathOnly = false

    public init(maxDepth: Int = 256, guessEncapsulation: Bool = true, encapsulateOnPurpose: OffsetSet = [],
                maxDiagnosticsPerCode: Int = 10_000, maxNodes: Int? = nil) {
        self.maxDepth = maxDepth
        self.guessEncapsulation = guessEncapsulation
        self.encapsulateOnPurpose = encapsulateOnPurpose
        self.maxDiagnosticsPerCode = maxDiagnosticsPerCode
        self.maxNodes = maxNodes
    }

    /// Nodes allowed per input byte (one per 8 bytes: 2 bytes of node per input byte) and the
    /// allowance on top. Legitimate DER averages 4 bytes or more per node (a receipt payload 4.1,
    /// certificates more), so the 1,800,079 nodes of a 20,000-purchase payload (7,445,340 bytes)
    /// fit with 9 % to spare; the allowance covers every smaller input whatever its density.
    public static let bytesPerBudgetedNode = 8
    public static let nodeAllowance = 1 << 20

    /// The node budget of a parse of `inputBytes` bytes when `maxNodes` does not set one.
    public static func nodeBudget(inputBytes: Int) -> Int {
        inputBytes / bytesPerBudgetedNode + nodeAllowance
    }
}
