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
    public var encapsulateOnPurpose: Set<Int> = []
    /// Diagnostics recorded per code; past it, one summary diagnostic of the same code and severity
    /// (pinned to the first unlisted occurrence) says how many more there are. A diagnostic costs
    /// ~150 bytes against a node's 16, so without a cap 100 MB of zeros (50 million stray
    /// end-of-contents markers) took ~16 GB; with it, memory stays a small multiple of the input.
    /// No real receipt comes near 10,000 diagnostics of one kind.
    public var maxDiagnosticsPerCode: Int = 10_000
    /// Tests only: parse every element with the general header reader and close every guess through
    /// the frame stack, to check the fast paths against (the result must be the same).
    var generalPathOnly = false

    public init(maxDepth: Int = 256, guessEncapsulation: Bool = true, encapsulateOnPurpose: Set<Int> = [],
                maxDiagnosticsPerCode: Int = 10_000) {
        self.maxDepth = maxDepth
        self.guessEncapsulation = guessEncapsulation
        self.encapsulateOnPurpose = encapsulateOnPurpose
        self.maxDiagnosticsPerCode = maxDiagnosticsPerCode
    }
}
