/// Knobs for one parse.
public struct ParseOptions: Sendable {
    /// Deepest nesting the parser descends into. Deeper content becomes an unparsed region with a
    /// `nesting-too-deep` error. Real receipts nest about 15 levels (payload inside certificates
    /// inside PKCS#7); 256 leaves room for anything legitimate.
    public var maxDepth: Int = 256
    /// Guess encapsulated ASN.1 inside primitive OCTET STRING / BIT STRING values. A wrong guess
    /// is silently undone; it never produces a diagnostic.
    public var guessEncapsulation: Bool = true
    /// Offsets of primitive OCTET STRING / BIT STRING nodes whose content is known to be ASN.1 (a
    /// receipt payload): it is parsed on purpose and every defect inside is reported.
    public var encapsulateOnPurpose: Set<Int> = []

    public init(maxDepth: Int = 256, guessEncapsulation: Bool = true, encapsulateOnPurpose: Set<Int> = []) {
        self.maxDepth = maxDepth
        self.guessEncapsulation = guessEncapsulation
        self.encapsulateOnPurpose = encapsulateOnPurpose
    }
}
