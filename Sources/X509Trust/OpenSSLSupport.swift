import COpenSSL
import ASN1Lenient
import ByteText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Internal glue between Swift and OpenSSL: the error queue, memory BIOs, X509 <-> DER, hex and dates.
// Every OpenSSL object created here is freed by the function that created it (or handed to a caller
// that frees it with `defer`, or to a `DecodedCertificate`, which frees it in `deinit`).

/// Message digests: SHA-1 (the receipt's device hash, checked only by `verify`) with OpenSSL's EVP
/// interface; SHA-256 (fingerprints) in Swift, so naming a certificate loads no libcrypto.
public enum Digest {
    public static func sha1(_ bytes: [UInt8]) -> [UInt8] { evp(bytes, EVP_sha1()) }
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] { SHA256.hash(bytes) }

    /// Uppercase hex, no separators (the form used for pinned fingerprints).
    public static func hex(_ bytes: [UInt8]) -> String { Hex.string(bytes, .upper) }

    private static func evp(_ bytes: [UInt8], _ md: OpaquePointer?) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                // EVP_Digest accepts a null data pointer when the count is 0.
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, md, nil)
            }
        }
        // Only fails on allocation failure; an empty result is then the honest answer.
        guard ok == 1 else { ERR_clear_error(); return [] }
        return Array(out.prefix(Int(length)))
    }
}

public enum OpenSSLError {
    /// Empties this thread's error queue (OpenSSL keeps one queue per thread).
    public static func clear() { ERR_clear_error() }

    /// Drains this thread's error queue into distinct reason phrases, oldest first
    /// (e.g. "not enough data", "content verify error").
    public static func drain() -> [String] {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var phrase: String
            if let r = ERR_reason_error_string(code) {
                phrase = String(cString: r)
            } else {
                var buffer = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(code, &buffer, buffer.count)
                phrase = OpenSSLBridge.text(ofFilled: buffer)
            }
            if !reasons.contains(phrase) { reasons.append(phrase) }
        }
        return reasons
    }

    /// The drained queue as one phrase, or `fallback` when OpenSSL left no reason.
    public static func drainedMessage(fallback: String) -> String {
        let reasons = drain()
        return reasons.isEmpty ? fallback : reasons.joined(separator: "; ")
    }
}

public enum OpenSSLBridge {
    /// A read-only memory BIO over `bytes`, passed to `body` and freed afterwards.
    /// The BIO must not outlive `body` (it borrows the array's storage).
    public static func withReadBIO<R>(_ bytes: [UInt8], _ body: (OpaquePointer) -> R) -> R? {
        withReadBIO(bytes[...], body)
    }

    public static func withReadBIO<R>(_ bytes: ArraySlice<UInt8>, _ body: (OpaquePointer) -> R) -> R? {
        if bytes.isEmpty {
            // An empty memory BIO reads as end-of-file, which is what zero bytes mean.
            guard let bio = BIO_new(BIO_s_mem()) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
        return bytes.withUnsafeBytes { raw -> R? in
            guard raw.count <= Int(Int32.max), let base = raw.baseAddress,
                  let bio = BIO_new_mem_buf(base, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    /// The bytes written into a memory BIO.
    public static func contents(of bio: OpaquePointer) -> [UInt8] {
        var data: UnsafePointer<CChar>? = nil
        let n = shim_BIO_get_mem_data(bio, &data)
        guard n > 0, let data else { return [] }
        return data.withMemoryRebound(to: UInt8.self, capacity: n) { Array(UnsafeBufferPointer(start: $0, count: n)) }
    }

    /// Runs `body` with a fresh writable memory BIO and returns what was written as a string.
    public static func string(_ body: (OpaquePointer) -> Void) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        body(bio)
        return String(decoding: contents(of: bio), as: UTF8.self)
    }

    /// Decodes one DER certificate that must span all of `der`. The caller owns the result (X509_free).
    public static func x509(der: [UInt8]) -> OpaquePointer? {
        guard !der.isEmpty else { return nil }
        return der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var p: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let x = d2i_X509(nil, &p, buffer.count) else { return nil }
            if let p, let base = buffer.baseAddress, p - base != buffer.count {
                X509_free(x)  // a certificate followed by other bytes is not "a certificate file"
                return nil
            }
            return x
        }
    }

    /// The DER encoding of a certificate.
    public static func der(of x509: OpaquePointer) -> [UInt8] {
        let length = i2d_X509(x509, nil)
        guard length > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: Int(length))
        let written = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var p: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_X509(x509, &p)
        }
        return written == length ? out : []
    }

    /// The certificates of a STACK_OF(X509), borrowed (not up-referenced).
    public static func elements(of stack: OpaquePointer?) -> [OpaquePointer] {
        guard let stack else { return [] }
        let n = shim_sk_X509_num(stack)
        guard n > 0 else { return [] }
        return (0..<n).compactMap { shim_sk_X509_value(stack, $0) }
    }

    public static func objectText(_ object: OpaquePointer?, numeric: Bool = false) -> String {
        guard let object else { return "?" }
        var buffer = [CChar](repeating: 0, count: 128)
        let n = OBJ_obj2txt(&buffer, Int32(buffer.count), object, numeric ? 1 : 0)
        guard n > 0 else { return "?" }
        return text(ofFilled: buffer)
    }

    /// The text OpenSSL wrote into `buffer`, up to its NUL (the buffers start zeroed and OpenSSL
    /// ends what it writes with a NUL, so one is always there).
    static func text(ofFilled buffer: [CChar]) -> String {
        buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    public static func longName(nid: Int32) -> String? {
        guard nid != NID_undef, let p = OBJ_nid2ln(nid) else { return nil }
        return String(cString: p)
    }
}

public enum ValidationDate {
    public static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var t = tm()
        guard ASN1_TIME_to_tm(time, &t) == 1 else { ERR_clear_error(); return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&t)))
    }

    /// Seconds since 1970 for OpenSSL and libc, clamped so that odd dates cannot trap the conversion.
    public static func timeT(_ date: Date) -> time_t {
        let t = date.timeIntervalSince1970
        guard t.isFinite else { return t > 0 ? 253_402_300_799 : 0 }
        return time_t(min(max(t.rounded(.down), -62_135_596_800), 253_402_300_799))  // years 1 … 9999
    }

    /// `2016-02-12T10:57:42Z`
    public static func iso(_ date: Date) -> String {
        ISO8601Text.string(epochMilliseconds: Int64(timeT(date)) * 1000, fraction: .whenNonZero, farYears: .plain)
    }

    /// `2016-02-12`
    public static func day(_ date: Date) -> String { String(iso(date).prefix(10)) }
}

/// Certificate path validation with OpenSSL's X509 store: the one implementation for receipts
/// (`ChainVerification`, on the CMS's own OpenSSL objects through `run`) and JWS `x5c` chains
/// (JWSKit, on `DecodedCertificate`s through `verify`, so no OpenSSL object leaves X509Trust).
public enum X509PathVerification {
    public struct Outcome: Sendable, Equatable {
        public var ok: Bool
        /// OpenSSL's X509_V_ERR_* code (0 when `ok`).
        public var code: Int
        /// OpenSSL's verify error text ("certificate has expired", …); "ok" when `ok`.
        public var error: String
        /// Depth of the certificate the error concerns (0 = leaf).
        public var depth: Int
        /// The path OpenSSL built, leaf first, anchor last (partial when verification failed).
        public var chain: [CertificateInfo]
        /// The certificate the error concerns, when OpenSSL names one.
        public var errorCertificate: CertificateInfo? = nil
        /// OpenSSL could not start verifying (no path was judged).
        public var setupFailed = false
    }

    /// Verifies `leaf` through `untrusted` to one of `anchors` (nothing else is trusted), on
    /// certificates decoded once by the caller (see `CertificateCache`).
    /// `date` nil ignores validity dates; `partialChain` lets a non-self-signed anchor end the path.
    public static func verify(leaf: DecodedCertificate, untrusted: [DecodedCertificate], anchors: [DecodedCertificate],
                              at date: Date?, partialChain: Bool) -> Outcome {
        let key = VerifiedPathCache.Key(leaf: leaf.info.der, untrusted: untrusted.map(\.info.der), anchors: anchors.map(\.info.der),
                                        time: date.map { Int64(ValidationDate.timeT($0)) }, partialChain: partialChain)
        return VerifiedPathCache.shared.outcome(for: key) {
            uncached(leaf: leaf, untrusted: untrusted, anchors: anchors, at: date, partialChain: partialChain)
        }
    }

    private static func uncached(leaf: DecodedCertificate, untrusted: [DecodedCertificate], anchors: [DecodedCertificate],
                                 at date: Date?, partialChain: Bool) -> Outcome {
        OpenSSLError.clear()
        defer { OpenSSLError.clear() }
        func fail(_ why: String) -> Outcome { Outcome(ok: false, code: -1, error: why, depth: 0, chain: []) }
        return withExtendedLifetime((leaf, untrusted, anchors)) {
            guard let store = X509_STORE_new() else { return fail("out of memory") }
            defer { X509_STORE_free(store) }  // drops the references the store took
            // The path OpenSSL builds is made of these very objects: their facts are already read.
            var known: [OpaquePointer: CertificateInfo] = [:]
            for anchor in anchors {
                anchor.withX509 { x in
                    known[x] = anchor.info
                    _ = X509_STORE_add_cert(store, x)  // a duplicate anchor is not an error worth reporting
                }
            }
            guard let stack = shim_sk_X509_new_null() else { return fail("out of memory") }
            defer { shim_sk_X509_free(stack) }  // borrowed entries: free the stack only
            for certificate in untrusted {
                certificate.withX509 { x in
                    known[x] = certificate.info
                    _ = shim_sk_X509_push(stack, x)
                }
            }
            OpenSSLError.clear()
            return leaf.withX509 { x in
                known[x] = leaf.info
                return run(leaf: x, untrusted: stack, store: store, at: date, partialChain: partialChain, known: known)
            }
        }
    }

    /// Builds and judges the path from `leaf` through the `untrusted` stack to an anchor of `store`
    /// (all borrowed). `date` nil ignores validity dates. `known`: the facts of certificates the
    /// caller has read already, by object, so that the path's are not read again.
    /// `cacheKey`: the DER of the leaf, of the `untrusted` stack and of the store's anchors, when the
    /// caller knows them (receipts): the check is then looked up in `VerifiedPathCache` first.
    public static func run(leaf: OpaquePointer, untrusted: OpaquePointer, store: OpaquePointer, at date: Date?,
                    partialChain: Bool, known: [OpaquePointer: CertificateInfo],
                    cacheKey: (leaf: [UInt8], untrusted: [[UInt8]], anchors: [[UInt8]])?) -> Outcome {
        guard let cacheKey else {
            return run(leaf: leaf, untrusted: untrusted, store: store, at: date, partialChain: partialChain, known: known)
        }
        let key = VerifiedPathCache.Key(leaf: cacheKey.leaf, untrusted: cacheKey.untrusted, anchors: cacheKey.anchors,
                                        time: date.map { Int64(ValidationDate.timeT($0)) }, partialChain: partialChain)
        return VerifiedPathCache.shared.outcome(for: key) {
            run(leaf: leaf, untrusted: untrusted, store: store, at: date, partialChain: partialChain, known: known)
        }
    }

    public static func run(leaf: OpaquePointer, untrusted: OpaquePointer, store: OpaquePointer, at date: Date?,
                    partialChain: Bool, known: [OpaquePointer: CertificateInfo]) -> Outcome {
        OpenSSLError.clear()
        defer { OpenSSLError.clear() }
        guard let ctx = X509_STORE_CTX_new() else {
            return Outcome(ok: false, code: -1, error: "out of memory", depth: 0, chain: [], setupFailed: true)
        }
        defer { X509_STORE_CTX_free(ctx) }
        guard X509_STORE_CTX_init(ctx, store, leaf, untrusted) == 1 else {
            let why = OpenSSLError.drainedMessage(fallback: "could not set up verification")
            return Outcome(ok: false, code: -1, error: why, depth: 0, chain: [], setupFailed: true)
        }
        let param = X509_STORE_CTX_get0_param(ctx)
        var flags = UInt(0)
        if partialChain { flags |= UInt(X509_V_FLAG_PARTIAL_CHAIN) }
        if let date {
            X509_VERIFY_PARAM_set_time(param, ValidationDate.timeT(date))
        } else {
            flags |= UInt(X509_V_FLAG_NO_CHECK_TIME)
        }
        if flags != 0 { X509_VERIFY_PARAM_set_flags(param, flags) }
        let ok = X509_verify_cert(ctx) == 1
        func info(_ x: OpaquePointer) -> CertificateInfo { known[x] ?? CertificateInfo(x509: x) }
        let chain = OpenSSLBridge.elements(of: X509_STORE_CTX_get0_chain(ctx)).map(info)
        if ok { return Outcome(ok: true, code: 0, error: "ok", depth: 0, chain: chain) }
        let code = X509_STORE_CTX_get_error(ctx)
        let text = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "verification error \(code)"
        let current = X509_STORE_CTX_get_current_cert(ctx).map(info)
        return Outcome(ok: false, code: Int(code), error: text, depth: Int(X509_STORE_CTX_get_error_depth(ctx)), chain: chain,
                       errorCertificate: current)
    }
}
