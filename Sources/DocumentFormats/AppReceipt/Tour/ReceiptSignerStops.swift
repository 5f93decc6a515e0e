import ASN1Lenient
import ReceiptKit
import ByteText
import TextOutput
import DocumentCore
import DocumentTour

/// The receipt route's last stops: what the SignerInfo's signature covers (its signed attributes,
/// or the content itself), the signature, and the device hash (attribute 5).
extension ReceiptRoute {
    /// The SignerInfo's children by position, for its lesson.
    func signerParts(_ signer: Int) -> [String] {
        let tree = file.tree
        return Array(tree.children(of: signer)).enumerated().map { i, child in
            let c = tree.nodes[child]
            let at = "at \(NumberText.grouped(Int(c.offset)))"
            if c.tagClass == .contextSpecific { return "part: [\(c.tagNumber)] \(c.tagNumber == 0 ? "signedAttrs" : "unsignedAttrs") \(at)" }
            if let name = algorithmName(child) { return "part: \(i == 2 ? "digestAlgorithm" : "signatureAlgorithm") \(name) \(at)" }
            switch i {
            case 0: return "part: version \(at)"
            case 1: return "part: sid, the signer's issuer and serial number \(at)"
            case _ where c.isUniversal(4): return "part: signature, an OCTET STRING of \(NumberText.grouped(Int(c.contentLength))) octets \(at)"
            default: return "part: \(tree.tagName(of: child)) (\(NumberText.grouped(Int(c.contentLength))) content octets) \(at)"
            }
        }
    }

    /// An AlgorithmIdentifier's OID, dotted with its name.
    func algorithmName(_ node: Int) -> String? {
        let tree = file.tree
        guard tree.nodes[node].isUniversal(16), let oid = tree.child(of: node, at: 0),
              case .objectIdentifier(let dotted, let name)? = tree.value(of: oid) else { return nil }
        return name.map { "\($0) (\(dotted))" } ?? dotted
    }

    func signerStops(_ signer: Int) -> [TourStep] {
        let tree = file.tree
        let parts = Array(tree.children(of: signer))
        let signedAttrs = parts.first { tree.nodes[$0].tagClass == .contextSpecific && tree.nodes[$0].tagNumber == 0 }
        var steps: [TourStep] = []
        if let signedAttrs {
            let a = tree.nodes[signedAttrs]
            let octet = tree.bytes[Int(a.offset)]
            let attributes = tree.children(of: signedAttrs).compactMap { attribute -> String? in
                let kids = Array(tree.children(of: attribute))
                guard let first = kids.first, case .objectIdentifier(let dotted, _)? = tree.value(of: first) else { return nil }
                let name = ["1.2.840.113549.1.9.3": "contentType", "1.2.840.113549.1.9.4": "messageDigest",
                            "1.2.840.113549.1.9.5": "signingTime"][dotted] ?? OIDNames.name(for: dotted) ?? dotted
                var value = ""
                if let set = kids.dropFirst().first, let v = tree.child(of: set, at: 0) {
                    switch tree.value(of: v) {
                    case .octets(let bytes)?: value = ": " + Hex.string(bytes, .upper, separator: " ")
                    case .time(let raw, _)?: value = ": " + TerminalSafe.escape(raw)
                    case .objectIdentifier(let d, let n)?: value = ": " + (n ?? d)
                    default: break
                    }
                }
                return "attribute: \(name)\(value)"
            }
            let check = SelfCheck("The signer hashes these attributes as a SET OF: which octet comes first in what it hashes?",
                                  right: ("31", "RFC 5652 §5.4: the DER of the attributes is hashed with the SET OF tag 0x31 in place of the [0] IMPLICIT tag 0x\(Hex.byte(octet, .upper)) written here"),
                                  wrong: [(Hex.byte(octet, .upper), "0x\(Hex.byte(octet, .upper)) is the IMPLICIT tag as written in the file; the hash is taken over the attributes re-tagged as an explicit SET OF (0x31)"),
                                          ("30", "0x30 is a SEQUENCE; the attributes are a SET OF, tag 0x31")],
                                  seed: Int(a.offset))
            steps.append(file.step(signedAttrs, .identifier, "What the signature covers: the signed attributes",
                                   ["meaning: when signedAttrs is present, the signature covers them, not the content: \(RangeText.text(Int(a.offset)..<a.end)) re-tagged as a SET OF; the content is covered through messageDigest, its hash"]
                                   + attributes, check: check, withheld: [.identifier]))
        } else if let digest = parts.dropFirst(2).first {
            steps.append(file.step(digest, .whole, "What the signature covers",
                                   ["meaning: signedAttrs ([0]) is OPTIONAL and would follow this digestAlgorithm; when present the signature covers the attributes (which carry the content's hash), when absent it covers the content itself"],
                                   check: coverageCheck(digest), withheld: []))
        }
        if let signature = parts.last(where: { tree.nodes[$0].isUniversal(4) }) {
            let algorithm = parts.dropLast().last { algorithmName($0) != nil }.flatMap(algorithmName) ?? "?"
            steps.append(file.step(signature, .content, "The signature",
                                   ["meaning: \(algorithm): change one covered byte and it no longer verifies; the signer's certificate holds the public key that checks it"],
                                   check: signatureSizeCheck(signature, rsa: algorithm.contains("RSA") || algorithm.contains("1.2.840.113549.1.1.")),
                                   withheld: [.content]))
        }
        return steps
    }

    /// Without signed attributes: which bytes are signed.
    func coverageCheck(_ digest: Int) -> SelfCheck? {
        let tree = file.tree
        guard let string = container.payloadString, treeHas(string) else { return nil }
        let s = tree.nodes[string]
        let chunks = container.payloadChunks.filter(treeHas)
        let contentBytes = chunks.isEmpty ? Int(s.contentLength) : chunks.reduce(0) { $0 + Int(tree.nodes[$1].contentLength) }
        let total = tree.nodes[container.contentInfo].totalLength
        let digestName = algorithmName(digest) ?? "its digest algorithm"
        return SelfCheck("This SignerInfo has no [0] after its digestAlgorithm: which bytes does the signature cover?",
                         right: ("the payload's \(NumberText.grouped(contentBytes)) content octets", "with no signedAttrs the signer hashes the eContent itself, the OCTET STRING's \(NumberText.grouped(contentBytes)) content octets\(chunks.count > 1 ? " (its segments joined)" : ""), with \(digestName)"),
                         wrong: [("the whole ContentInfo, \(NumberText.grouped(total)) bytes", "the ContentInfo holds the SignerInfo and its signature: a signature cannot cover itself"),
                                 ("the OCTET STRING, \(NumberText.grouped(s.totalLength)) bytes with its header", "only the content octets are hashed, not the OCTET STRING's tag and length")],
                         seed: Int(tree.nodes[digest].offset))
    }

    func treeHas(_ node: Int) -> Bool { file.treeHasNode(node) }

    /// An RSA signature is as long as the modulus.
    func signatureSizeCheck(_ signature: Int, rsa: Bool) -> SelfCheck? {
        let count = Int(file.tree.nodes[signature].contentLength)
        guard rsa, count > 0 else { return file.lengthCheck(signature) }
        return SelfCheck("An RSA signature is exactly as long as the key's modulus. How long is this signer's key?",
                         right: ("\(count * 8) bits", "the signature has \(NumberText.grouped(count)) content octets: \(NumberText.grouped(count)) × 8 = \(NumberText.grouped(count * 8)) bits"),
                         wrong: [("\(count) bits", "\(count) is the number of octets; each octet is 8 bits"),
                                 ("\(count * 16) bits", "an octet is 8 bits, not 16: \(NumberText.grouped(count)) × 8 = \(NumberText.grouped(count * 8))")],
                         seed: Int(file.tree.nodes[signature].offset))
    }
}
