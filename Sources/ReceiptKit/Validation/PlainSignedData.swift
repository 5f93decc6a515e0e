/// Where the elements of a plain DER PKCS#7 SignedData sit: definite lengths, every element where
/// RFC 5652 puts it. The one walk behind the two reshaped containers `SignatureValidation` can hand
/// OpenSSL (`CMSWithoutCertificates`, `CMSWithoutContent`); anything else is nil and goes whole.
struct PlainSignedData {
    typealias Element = (start: Int, contentStart: Int, end: Int)
    let outer: Element
    let contentType: Element
    let signedData: Element
    /// version and digestAlgorithms, then the EncapsulatedContentInfo.
    let digests: Element
    let encapsulated: Element
    /// The encapsulated content's type (an OID) and its `[0] EXPLICIT` primitive OCTET STRING, if so.
    let encapsulatedType: Element
    let eContent: (explicit: Element, octets: Element)?
    /// The `[0] IMPLICIT` certificate set, if present.
    let certificateSet: Element?

    /// The element at `start` when its first identifier octet is `tag` and its definite length fits
    /// within `limit` (`InnerTLV`, the decoder's reader of raw TLVs).
    static func element(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, limit: Int, tag: UInt8) -> Element? {
        guard let tlv = InnerTLV.read(bytes, at: start, limit: limit), tlv.tag == tag, !tlv.indefinite, tlv.fits else { return nil }
        return (start, tlv.contentStart, tlv.contentEnd)
    }

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        func element(at start: Int, limit: Int, tag: UInt8) -> Element? { Self.element(bytes, at: start, limit: limit, tag: tag) }
        guard let outer = element(at: 0, limit: bytes.count, tag: 0x30),
              let type = element(at: outer.contentStart, limit: outer.end, tag: 0x06),
              let explicit = element(at: type.end, limit: outer.end, tag: 0xA0), explicit.end == outer.end,
              let signedData = element(at: explicit.contentStart, limit: explicit.end, tag: 0x30),
              signedData.end == explicit.end,
              let version = element(at: signedData.contentStart, limit: signedData.end, tag: 0x02),
              let digests = element(at: version.end, limit: signedData.end, tag: 0x31),
              let encapsulated = element(at: digests.end, limit: signedData.end, tag: 0x30),
              let encapsulatedType = element(at: encapsulated.contentStart, limit: encapsulated.end, tag: 0x06)
        else { return nil }
        // Only a primitive OCTET STRING is located; any other content stays where it is.
        if let wrapper = element(at: encapsulatedType.end, limit: encapsulated.end, tag: 0xA0), wrapper.end == encapsulated.end,
           let octets = element(at: wrapper.contentStart, limit: wrapper.end, tag: 0x04), octets.end == wrapper.end {
            eContent = (wrapper, octets)
        } else {
            eContent = nil
        }
        (self.outer, contentType, self.signedData, self.digests, self.encapsulated, self.encapsulatedType) =
            (outer, type, signedData, digests, encapsulated, encapsulatedType)
        certificateSet = element(at: encapsulated.end, limit: signedData.end, tag: 0xA0)
        // What follows: optional CRLs [1], then the SignerInfos SET, and nothing more.
        var rest = certificateSet?.end ?? encapsulated.end
        if let crls = element(at: rest, limit: signedData.end, tag: 0xA1) { rest = crls.end }
        guard let signers = element(at: rest, limit: signedData.end, tag: 0x31), signers.end == signedData.end else { return nil }
    }

    /// The ContentInfo rebuilt around `signedDataContent` (the SignedData's new content).
    func container(_ bytes: UnsafeBufferPointer<UInt8>, signedDataContent: [UInt8]) -> [UInt8] {
        var outerContent = Array(bytes[outer.contentStart..<contentType.end])
        outerContent += Self.tlv(0xA0, Self.tlv(0x30, signedDataContent))
        return Self.tlv(0x30, outerContent)
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
