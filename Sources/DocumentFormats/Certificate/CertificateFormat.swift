import ASN1Lenient
import ReceiptKit
import DocumentCore
import DocumentTour

/// An X.509 certificate on its own (DER, or PEM / base64 the loader undid).
public struct CertificateFormat: DocumentFormat, TourRoute {
    public static let id = FormatID(rawValue: "certificate")
    public var id: FormatID { Self.id }

    public func recognize(_ probe: FormatProbe) -> Recognition? {
        Self.looksLikeCertificate(probe.asn1)
            ? Recognition(.likely, "SEQUENCE of tbsCertificate, signatureAlgorithm and a BIT STRING (RFC 5280)") : nil
    }

    public func open(_ probe: FormatProbe) -> Document {
        ASN1Format.openTree(probe, kind: .certificate)
    }

    /// SEQUENCE { SEQUENCE (tbsCertificate), SEQUENCE (AlgorithmIdentifier), BIT STRING }, where
    /// the tbsCertificate starts with the [0] version or the serial INTEGER.
    static func looksLikeCertificate(_ tree: Tree) -> Bool {
        guard tree.roots.count == 1, let root = tree.roots.first, tree.nodes[root].isUniversal(16),
              tree.childCount(of: root) == 3,
              let tbs = tree.child(of: root, at: 0), let algorithm = tree.child(of: root, at: 1),
              let signature = tree.child(of: root, at: 2),
              tree.nodes[tbs].isUniversal(16), tree.nodes[algorithm].isUniversal(16), tree.nodes[signature].isUniversal(3),
              let first = tree.child(of: tbs, at: 0) else { return false }
        let head = tree.nodes[first]
        return head.isUniversal(2) || (head.tagClass == .contextSpecific && head.tagNumber == 0)
    }

    public func describe(_ kind: DocumentKind) -> KindDescription? {
        kind == .certificate ? KindDescription(summary: "an X.509 certificate", title: "Certificate") : nil
    }

    public func tourSteps(_ document: Document) -> [TourStep]? {
        guard let root = document.fileTree.roots.first else { return nil }
        return CertificateRoute(lessons: TourLessons(tree: document.fileTree, layer: .file), root: root)?.steps()
    }
}
