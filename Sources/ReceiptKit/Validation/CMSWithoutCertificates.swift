import ASN1Lenient

/// A DER PKCS#7 SignedData with its `certificates` set cut out, and that set's certificates.
///
/// `d2i_CMS_ContentInfo` decodes every embedded certificate's public key through OpenSSL 3's
/// provider decoders: about half of validating a receipt. In a batch run every receipt embeds the
/// same three certificates, so `SignatureValidation` hands OpenSSL this smaller structure and the
/// pooled, already-decoded certificates (`DecodedCertificatePool`) instead. Nothing is skipped:
/// `CMS_verify` still checks each receipt's signature with its signer's key, and the chain step
/// still verifies the chain (cached per run, as Apple's libraries cache it).
///
/// Only the plain shape is cut: definite lengths, every element where RFC 5652 puts it, the
/// certificate set made of certificates only. Anything else is nil and goes the ordinary way.
struct CMSWithoutCertificates {
    /// ContentInfo { contentType, [0] SignedData without `certificates` }, DER.
    let stripped: [UInt8]
    /// Each certificate's DER, in the order of the set.
    let certificates: [[UInt8]]
    /// Bytes of the outer element (any further bytes are not covered by it).
    let consumed: Int

    init?(_ der: [UInt8]) {
        let found: (stripped: [UInt8], certificates: [[UInt8]], consumed: Int)? = der.withUnsafeBufferPointer { bytes in
            func element(at start: Int, limit: Int, tag: UInt8) -> (contentStart: Int, end: Int)? {
                guard start < limit, bytes[start] == tag,
                      case .success(let header) = BERHeader.read(bytes, at: start, limit: limit),
                      case .definite(let length, _) = header.length, length <= limit - header.contentStart
                else { return nil }
                return (header.contentStart, header.contentStart + length)
            }
            guard let outer = element(at: 0, limit: bytes.count, tag: 0x30),
                  let type = element(at: outer.contentStart, limit: outer.end, tag: 0x06),
                  let explicit = element(at: type.end, limit: outer.end, tag: 0xA0), explicit.end == outer.end,
                  let signedData = element(at: explicit.contentStart, limit: explicit.end, tag: 0x30),
                  signedData.end == explicit.end,
                  let version = element(at: signedData.contentStart, limit: signedData.end, tag: 0x02),
                  let digests = element(at: version.end, limit: signedData.end, tag: 0x31),
                  let content = element(at: digests.end, limit: signedData.end, tag: 0x30),
                  let set = element(at: content.end, limit: signedData.end, tag: 0xA0)
            else { return nil }
            var certificates: [[UInt8]] = []
            var position = set.contentStart
            while position < set.end {
                guard let certificate = element(at: position, limit: set.end, tag: 0x30) else { return nil }
                certificates.append(Array(bytes[position..<certificate.end]))
                position = certificate.end
            }
            // What follows the set: optional CRLs [1], then the SignerInfos SET, and nothing more.
            var rest = set.end
            if let crls = element(at: rest, limit: signedData.end, tag: 0xA1) { rest = crls.end }
            guard !certificates.isEmpty, let signers = element(at: rest, limit: signedData.end, tag: 0x31),
                  signers.end == signedData.end else { return nil }

            // The set starts where the encapsulated content ends.
            var signedContent = Array(bytes[signedData.contentStart..<content.end])
            signedContent += bytes[set.end..<signedData.end]
            let signedDataTLV = Self.tlv(0x30, signedContent)
            var outerContent = Array(bytes[outer.contentStart..<type.end])
            outerContent += Self.tlv(0xA0, signedDataTLV)
            return (Self.tlv(0x30, outerContent), certificates, outer.end)
        }
        guard let found else { return nil }
        (stripped, certificates, consumed) = found
    }

    /// A DER element: tag, definite length (short or long form), content.
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let n = content.count
        var out: [UInt8] = [tag]
        if n < 0x80 {
            out.append(UInt8(n))
        } else {
            let octets = (n.bitWidth - n.leadingZeroBitCount + 7) / 8
            out.append(0x80 | UInt8(octets))
            for shift in stride(from: (octets - 1) * 8, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: n >> shift)) }
        }
        out.reserveCapacity(out.count + n)
        return out + content
    }
}
