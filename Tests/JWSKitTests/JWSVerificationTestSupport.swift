import Foundation
import JWSKit
import ReceiptKit
import TestSupport
import X509Trust

// Test-local token splitting: just enough to feed the verifier plain values. The real decoder
// (offsets, diagnostics) lives in JWSKit's decoding half and is tested there.

struct SplitToken {
    var signingInput: [UInt8]
    var signature: [UInt8]
    var header: [String: Any]
    var payload: [String: Any]?

    var alg: String? { header["alg"] as? String }
    var x5c: [[UInt8]] {
        ((header["x5c"] as? [String]) ?? []).map { [UInt8](Data(base64Encoded: $0) ?? Data()) }
    }
    var signedDate: Date? {
        (payload?["signedDate"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue / 1000) }
    }

    init(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        signingInput = Array((parts[0] + "." + parts[1]).utf8)
        signature = decodeBase64URLForVerification(parts[2])
        header = (try? JSONSerialization.jsonObject(with: Data(decodeBase64URLForVerification(parts[0])))) as? [String: Any] ?? [:]
        payload = (try? JSONSerialization.jsonObject(with: Data(decodeBase64URLForVerification(parts[1])))) as? [String: Any]
    }

    func input(signedDate: Date?, claims: JWSClaims, options: JWSVerificationOptions) -> JWSVerificationInput {
        JWSVerificationInput(signingInput: signingInput[...], signature: signature, alg: alg, x5c: x5c,
                             signedDate: signedDate, claims: claims, options: options)
    }
}

func decodeBase64URLForVerification(_ s: String) -> [UInt8] {
    var t = s.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    t += String(repeating: "=", count: (4 - t.count % 4) % 4)
    return [UInt8](Data(base64Encoded: t) ?? Data())
}

/// The `jws_samples` entries of samples/manifest.json.
enum JWSSampleManifest {
    // Written once by the lazy initializer (which Swift runs exactly once) and only read after.
    nonisolated(unsafe) static let entries: [[String: Any]] = {
        guard let data = try? Data(contentsOf: Paths.samples.appendingPathComponent("manifest.json")),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [] }
        return object["jws_samples"] as? [[String: Any]] ?? []
    }()

    static var files: [String] { entries.compactMap { $0["file"] as? String } }

    static func entry(_ file: String) -> [String: Any] { entries.first { $0["file"] as? String == file } ?? [:] }
}

extension JWSVerificationReport {
    /// step id → "passed" / "failed" / "not-checked", the manifest's vocabulary.
    var keywords: [String: String] {
        Dictionary(uniqueKeysWithValues: steps.map { ($0.step.rawValue, $0.status.keyword) })
    }

    var failureCode: String? {
        if case .failed(let f)? = firstFailure?.status { return f.code.rawValue }
        return nil
    }
}

func fingerprintHex(_ bytes: [UInt8]) -> String { Digest.hex(Digest.sha256(bytes)) }
