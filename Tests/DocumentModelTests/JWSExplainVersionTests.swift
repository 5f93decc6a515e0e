import ASN1Lenient
import DocumentCore
import DocumentFormats
import Foundation
import JWSKit
import ReceiptKit
import Testing
import TextLoader

/// `explain` on a field Apple added late says which version of Apple's documentation introduced it.
@Suite struct JWSExplainVersionTests {
    @Test func explainNamesTheIntroducingVersion() throws {
        func b64url(_ text: String) -> String { JWSDocumentOpenTests.base64URLEncode(Array(text.utf8)) }
        let header = b64url(#"{"alg":"ES256","x5c":[]}"#)  // 24 bytes → 32 characters
        let payload = b64url(#"{"transactionId":"2","billingPlanType":"MONTHLY"}"#)
        let signature = JWSDocumentOpenTests.base64URLEncode(Array(repeating: 1, count: 64))
        let token = [header, payload, signature].joined(separator: ".")
        let document = Document.open(try InputLoader.decode(Array(token.utf8), name: "t.jws"), options: AnalysisOptions())
        // Character 65 = payload character 32 → payload bytes 24-26, inside the "billingPlanType" key (bytes 21-37).
        let text = try #require(JWSExplain(document).explain(fileOffset: 65))
        #expect(text.contains("JSON member \"billingPlanType\""))
        #expect(text.contains("\nmeaning: MONTHLY (paid monthly within a 12-month commitment)\nintroduced in: App Store Server API 1.21 / Notifications 2.21\n"))
    }
}
