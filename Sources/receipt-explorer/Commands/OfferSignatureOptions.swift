import ArgumentParser
import DocumentCore
import DocumentFormats

/// `verify --offer-signature SIG --key KEY --bundle-id B --product-id P --offer-id O
/// [--app-account-token T] --nonce N --timestamp MS`: a legacy (V1) promotional offer signature
/// given as options rather than a FILE. The options become the JSON object `verify FILE` reads
/// (the V1 format builds it), so both forms are checked by the one path.
struct OfferSignatureOptions: ParsableArguments {
    @Option(name: .customLong("offer-signature"),
            help: ArgumentHelp("A V1 promotional offer signature (base64 of the DER ECDSA signature) to check with --key and --bundle-id against the fields given with --product-id, --offer-id, --app-account-token, --nonce and --timestamp (no FILE).",
                               valueName: "SIG"))
    var signature: String?

    @Option(name: .customLong("product-id"), help: ArgumentHelp("With --offer-signature: the product identifier signed.", valueName: "ID"))
    var productID: String?

    @Option(name: .customLong("offer-id"), help: ArgumentHelp("With --offer-signature: the offer identifier signed.", valueName: "ID"))
    var offerID: String?

    @Option(name: .customLong("app-account-token"),
            help: ArgumentHelp("With --offer-signature: the appAccountToken signed (a UUID, compared lowercase; empty when absent).", valueName: "UUID"))
    var appAccountToken: String?

    @Option(help: ArgumentHelp("With --offer-signature: the nonce signed (a UUID, compared lowercase).", valueName: "UUID"))
    var nonce: String?

    @Option(help: ArgumentHelp("With --offer-signature: the timestamp signed, in milliseconds since 1970.", valueName: "MS"))
    var timestamp: String?

    /// The flags given, by name, in the order help lists them.
    var given: [String] {
        [(signature, "--offer-signature"), (productID, "--product-id"), (offerID, "--offer-id"),
         (appAccountToken, "--app-account-token"), (nonce, "--nonce"), (timestamp, "--timestamp")]
            .filter { $0.0 != nil }.map(\.1)
    }

    /// The V1 document the options describe, or a one-line complaint and exit status 2: the bundle id,
    /// the key id and every signed field but the appAccountToken must be given (each is a signed part).
    func input(bundleID: String?, keyID: String?) throws -> DocumentInput {
        guard let signature else {
            CommandSupport.complain("\(given.joined(separator: ", ")) \(given.count == 1 ? "goes" : "go") with --offer-signature (or give FILE)")
            throw ExitCode(ExitStatus.usageOrIO)
        }
        let missing = [(bundleID, "--bundle-id"), (productID, "--product-id"), (offerID, "--offer-id"), (nonce, "--nonce"), (timestamp, "--timestamp")]
            .filter { $0.0 == nil }.map(\.1)
        guard missing.isEmpty, let productID, let offerID, let nonce, let timestamp else {
            CommandSupport.complain("--offer-signature needs \(missing.joined(separator: ", ")): each is a signed part of a V1 signature (the bundle id the first, and nothing else carries it)")
            throw ExitCode(ExitStatus.usageOrIO)
        }
        guard let milliseconds = Int64(timestamp), milliseconds >= 0, timestamp.allSatisfy(\.isASCII) else {
            CommandSupport.complain("--timestamp: '\(timestamp)' is not milliseconds since 1970 (digits)")
            throw ExitCode(ExitStatus.usageOrIO)
        }
        guard let keyID else {
            CommandSupport.complain("--offer-signature needs the key id, the second signed part: --key-id, or a key file named SubscriptionKey_<KID>.p8")
            throw ExitCode(ExitStatus.usageOrIO)
        }
        return OfferSignatureV1Format.input(signature: signature, productID: productID, offerID: offerID, keyID: keyID,
                                            appAccountToken: appAccountToken, nonce: nonce, timestamp: milliseconds)
    }

    /// The V1 flags with a FILE: refused, naming the flag and what the FILE is.
    func refuse(with document: Document) throws {
        guard let flag = given.first else { return }
        CommandSupport.complain("\(flag) does not apply to \(document.kind.summary): the V1 offer fields are given as options without FILE")
        throw ExitCode(ExitStatus.usageOrIO)
    }
}
