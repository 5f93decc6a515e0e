import Foundation
import DocumentCore
import Testing
import TestSupport
@testable import ReceiptKit
@testable import X509Trust

@Suite("Certificate files") struct CertificateFileTests {

    @Test("Certificate files that are neither DER nor PEM are rejected with a reason")
    func badCertificateFiles() {
        #expect(throws: CertificateParseError.self) { try CertificateInfo.parseCertificates(fileBytes: []) }
        #expect(throws: CertificateParseError.self) { try CertificateInfo.parseCertificates(fileBytes: Array("hello".utf8)) }
        #expect(throws: CertificateParseError.self) {
            try CertificateInfo.parseCertificates(fileBytes: Array("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8))
        }
        #expect(CertificateInfo(der: [0x30, 0x03, 0x02, 0x01, 0x01]) == nil)
    }
}
