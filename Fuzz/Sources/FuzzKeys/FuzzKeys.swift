import FuzzSupport
import JWSKit
import X509Trust

/// Fuzz target `keys`: the files a user names on the command line besides the input, read as the
/// commands read them — `--key` (`DeveloperKey.load`: a PEM or DER public key, or the `.p8`), the
/// `api` command's signing key (`DeveloperSigner.load`) and `--root` (`CertificateInfo.parseCertificates`
/// and `TrustAnchorSet`, which share one reader). Byte 0's low bit picks the file name (an App Store
/// Connect key name, whose key id is read from it, or a plain one); the rest is the file. Traps when:
/// - a key reader leaves any byte of the file in the caller's buffer (it must zero it, read or not);
/// - an error quotes the file: a run of 16 base64 characters of the input appears in its message,
///   or the message holds a control character;
/// - a file read both as a signing key and as `--key` gives a key that does not verify what the
///   signer signed, or verifies a message it did not sign;
/// - a key id is read from a name that is not `SubscriptionKey_<id>.p8` / `AuthKey_<id>.p8`;
/// - a root file's certificates differ between `parseCertificates` and `TrustAnchorSet` (count of
///   distinct certificates, readable or not), or a certificate's subject, issuer, serial, validity or
///   algorithm is not terminal-safe.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeys(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let file = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let name = data[0] & 1 == 0 ? "SubscriptionKey_TESTKEY001.p8" : "key.pem"
    let quoted = base64Runs(file)

    let key = readKey(file, quoted, "DeveloperKey.load") { try DeveloperKey.load(&$0, fileName: name) }
    if let key {
        precondition(key.fingerprint.count == 64, "fingerprint \(key.fingerprint)")
        precondition(key.keyIDFromName == (name == "key.pem" ? nil : "TESTKEY001"), "key id \(String(describing: key.keyIDFromName))")
    }

    if let signer = readKey(file, quoted, "DeveloperSigner.load", { try DeveloperSigner.load(&$0, fileName: name) }) {
        // A private key is also a `--key`: the public half it gives checks what the signer signs.
        guard let key else { fatalError("a file read as a signing key is refused as --key") }
        precondition(key.source == .privateKey, "a signing key read as a \(key.source.rawValue)")
        let message = Array("eyJhbGciOiJFUzI1NiJ9.e30".utf8)
        guard let raw = signer.sign(message), raw.count == 64, let der = ES256Signature.der(fromRaw: raw) else {
            fatalError("a loaded signing key did not sign")
        }
        precondition(ES256Signature.verify(message: message[...], derSignature: der, developerKey: key) == nil,
                     "the key read from the same file does not verify the signature")
        precondition(ES256Signature.verify(message: message.dropLast(), derSignature: der, developerKey: key) != nil,
                     "a signature verified for a message it was not made over")
    }

    // --root: one reader for both; a file is either read (its distinct certificates) or unreadable.
    let anchors = TrustAnchorSet(files: [file]).prepared()
    do {
        let certificates = try CertificateInfo.parseCertificates(fileBytes: file)
        precondition(!certificates.isEmpty, "a root file read with no certificate")
        precondition(anchors.firstUnreadable == nil, "parseCertificates read a file TrustAnchorSet could not")
        precondition(Set(certificates.map(\.der)).count == anchors.certificates.count,
                     "\(certificates.count) certificates parsed, \(anchors.certificates.count) anchors")
        for certificate in certificates {
            // The texts made terminal-safe where they are built. The CN (`commonName`, `label`) is
            // kept as the certificate holds it, to be matched against Apple's names; like a step's
            // reason, which quotes it, every writer escapes it (FuzzReceipt checks what they write).
            for (text, what) in [(certificate.subject, "subject"), (certificate.issuer, "issuer"), (certificate.serial, "serial"),
                                 (certificate.validityText, "validity"), (certificate.signatureAlgorithm, "signature algorithm")] {
                assertTerminalSafe(text, "certificate \(what)", allowNewlines: false)
            }
            precondition(certificate.sha256Fingerprint.count == 64, "fingerprint \(certificate.sha256Fingerprint)")
        }
    } catch {
        precondition(anchors.firstUnreadable == 0 && anchors.certificates.isEmpty, "TrustAnchorSet read a file parseCertificates refused")
        checkMessage("\(error)", quoted, "parseCertificates")
    }
    return 0
}

/// `load` on a copy of `file`, as a command reads a key: the copy must come back zeroed whether
/// the key was read or not, and a refusal must quote none of the file.
func readKey<Key>(_ file: [UInt8], _ quoted: Set<ArraySlice<UInt8>>, _ what: String, _ load: (inout [UInt8]) throws -> Key) -> Key? {
    var bytes = file
    defer { precondition(bytes.allSatisfy { $0 == 0 }, "\(what) left bytes of the key file") }
    do {
        return try load(&bytes)
    } catch {
        checkMessage("\(error)", quoted, what)
        return nil
    }
}

/// Every 16-byte window of `bytes` made only of base64 (and base64url) characters: what an error
/// must never repeat, since a key file's body is base64.
func base64Runs(_ bytes: [UInt8]) -> Set<ArraySlice<UInt8>> {
    func isBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
    var windows: Set<ArraySlice<UInt8>> = []
    var run = 0
    for index in bytes.indices {
        run = isBase64(bytes[index]) ? run + 1 : 0
        if run >= 16 { windows.insert(bytes[(index - 15)...index]) }
    }
    return windows
}

/// An error message is one terminal-safe line that quotes no base64 run of the file.
func checkMessage(_ message: String, _ quoted: Set<ArraySlice<UInt8>>, _ what: String) {
    assertTerminalSafe(message, what, allowNewlines: false)
    let utf8 = Array(message.utf8)
    guard utf8.count >= 16, !quoted.isEmpty else { return }
    for start in 0...(utf8.count - 16) where quoted.contains(utf8[start..<start + 16]) {
        fatalError("\(what)'s error quotes the file: \(message)")
    }
}
