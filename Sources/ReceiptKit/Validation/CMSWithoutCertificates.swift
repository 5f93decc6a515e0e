/// A DER PKCS#7 SignedData with its `certificates` set cut out, and that set's certificates.
///
/// `d2i_CMS_ContentInfo` decodes every embedded certificate's public key through OpenSSL 3's
/// provider decoders: about half of validating a receipt. In a batch run every receipt embeds the
/// same three certificates, so `SignatureValidation` hands OpenSSL this smaller structure and the
/// pooled, already-decoded certificates (`DecodedCertificatePool`) instead. Nothing is skipped:
/// `CMS_verify` still checks each receipt's signature with its signer's key, and the chain step
/// still verifies the chain (cached per run, as Apple's libraries cache it).
///
/// Only the plain shape is cut (`PlainSignedData`), with a certificate set made of certificates
/// only. Anything else is nil and goes the ordinary way.
struct CMSWithoutCertificates {
    /// ContentInfo { contentType, [0] SignedData without `certificates` }, DER.
    let stripped: [UInt8]
    /// Each certificate's DER, in the order of the set.
    let certificates: [[UInt8]]
    /// Bytes of the outer element (any further bytes are not covered by it).
    let consumed: Int

    init?(_ der: [UInt8]) {
        let found: (stripped: [UInt8], certificates: [[UInt8]], consumed: Int)? = der.withUnsafeBufferPointer { bytes in
            guard let plain = PlainSignedData(bytes), let set = plain.certificateSet else { return nil }
            var certificates: [[UInt8]] = []
            var position = set.contentStart
            while position < set.end {
                guard let certificate = PlainSignedData.element(bytes, at: position, limit: set.end, tag: 0x30) else { return nil }
                certificates.append(Array(bytes[position..<certificate.end]))
                position = certificate.end
            }
            guard !certificates.isEmpty else { return nil }
            // The set starts where the encapsulated content ends.
            var content = Array(bytes[plain.signedData.contentStart..<set.start])
            content += bytes[set.end..<plain.signedData.end]
            return (plain.container(bytes, signedDataContent: content), certificates, plain.outer.end)
        }
        guard let found else { return nil }
        (stripped, certificates, consumed) = found
    }
}

/// A DER PKCS#7 SignedData whose encapsulated content is cut out and handed to `CMS_verify` as
/// detached content, read in place: `d2i_CMS_ContentInfo` copies the eContent, and a receipt's
/// payload can be most of the input (a 5 MB payload held a second 5 MB while the tree was built).
/// Nothing is skipped: the signature is checked over the same octets. Only the plain shape
/// (`PlainSignedData`) with a primitive OCTET STRING is cut; anything else goes whole.
struct CMSWithoutContent {
    /// ContentInfo { contentType, [0] SignedData whose EncapsulatedContentInfo has no eContent }, DER.
    let stripped: [UInt8]
    /// The eContent's octets in the input.
    let content: Range<Int>
    let consumed: Int

    init?(_ der: [UInt8]) {
        let found: (stripped: [UInt8], content: Range<Int>, consumed: Int)? = der.withUnsafeBufferPointer { bytes in
            guard let plain = PlainSignedData(bytes), let eContent = plain.eContent else { return nil }
            var content = Array(bytes[plain.signedData.contentStart..<plain.digests.end])
            content += PlainSignedData.tlv(0x30, Array(bytes[plain.encapsulatedType.start..<plain.encapsulatedType.end]))
            content += bytes[plain.encapsulated.end..<plain.signedData.end]
            return (plain.container(bytes, signedDataContent: content), eContent.octets.contentStart..<eContent.octets.end,
                    plain.outer.end)
        }
        guard let found else { return nil }
        (stripped, content, consumed) = found
    }
}
