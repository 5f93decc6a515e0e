import ASN1Lenient
import ReceiptKit
import X509Trust
import ByteText
import DocumentCore

/// Certificates by SHA-256 fingerprint and the signature bytes of each side.
package enum SignatureDiff {
    package static func compare(certificatesA: [DiffCertificate], certificatesB: [DiffCertificate],
                        signatureA: DiffSide?, signatureB: DiffSide?, bytesA: [UInt8], bytesB: [UInt8]) -> DiffSignatures {
        let same: Bool
        switch (signatureA?.fileRange, signatureB?.fileRange) {
        case let (ra?, rb?): same = bytesA[ra].elementsEqual(bytesB[rb])
        case (nil, nil): same = true
        default: same = false
        }
        return DiffSignatures(certificatesA: certificatesA, certificatesB: certificatesB, signatureA: signatureA,
                              signatureB: signatureB, sameSignature: same)
    }

    /// certificate-removed / -added by fingerprint, then signature-changed.
    package static func entries(_ s: DiffSignatures) -> [DiffEntry] {
        var out: [DiffEntry] = []
        let inB = Set(s.certificatesB.map(\.sha256)), inA = Set(s.certificatesA.map(\.sha256))
        for c in s.certificatesA where !inB.contains(c.sha256) {
            out.append(DiffEntry(kind: .certificateRemoved, subject: c.subject, key: c.sha256, a: side(c)))
        }
        for c in s.certificatesB where !inA.contains(c.sha256) {
            out.append(DiffEntry(kind: .certificateAdded, subject: c.subject, key: c.sha256, b: side(c)))
        }
        if !s.sameSignature {
            out.append(DiffEntry(kind: .signatureChanged, subject: "signature", a: s.signatureA, b: s.signatureB))
        }
        return out
    }

    static func side(_ c: DiffCertificate) -> DiffSide {
        DiffSide(node: c.node, range: c.range, fileRange: c.fileRange, value: c.sha256)
    }
}
