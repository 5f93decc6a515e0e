/// The StoreKit 2 tokens of ../shared/corpus/jws by who signed them (facts from its MANIFEST.md),
/// one list for every test target that verifies them.
public enum CorpusTokens {
    /// Signed by Apple: chain to Apple Root CA - G3.
    public static let appleSigned = [
        "notification-production-com.nineton.taller-2024-10-17-TEST.jws",
        "notification-sandbox-com.Abilities-2022-09-02-TEST.jws",
        "notification-sandbox-com.loki-project.loki-messenger-2025-10-01-DID_RENEW.jws",
        "notification-sandbox-com.loki-project.loki-messenger-2025-10-02-SUBSCRIBED-RESUBSCRIBE.jws",
        "renewal-sandbox-co.ringalarm-2023-05-23.jws",
        "renewal-sandbox-com.loki-project.loki-messenger-2025-10-02-autorenew-off.jws",
        "transaction-sandbox-Com.VoiceRecording.Telephone-2022-11-04-offer1.jws",
        "transaction-sandbox-com.app.qysmat-2023-03-27.jws",
        "transaction-sandbox-com.loki-project.loki-messenger-2025-10-01-RENEWAL.jws",
    ]
    /// Signed by Xcode's StoreKit Testing (one self-signed certificate).
    public static let xcode = [
        "apptransaction-xcode-com.example.naturelab.backyardbirds.example-2023-10-19.jws",
        "renewal-xcode-com.example.naturelab.backyardbirds.example-2023-10-19.jws",
        "transaction-xcode-com.example.naturelab.backyardbirds.example-2023-10-19.jws",
    ]
    /// Signed by Apple's test CA of its server libraries (testca/apple-testCA.der).
    public static let testCA = [
        "testca/notification-testca-com.example-2023-04-12-TEST.jws",
        "testca/transaction-testca-com.example-2023-01-05.jws",
    ]
}
