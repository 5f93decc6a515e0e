import ASN1Lenient
import Foundation
import JWSKit
import TestSupport

enum Corpus {
    static func text(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Paths.jws.appendingPathComponent(name)))
    }

    static func document(_ name: String) throws -> JWSDocument {
        JWSDocument.decode(text: try text(name), textOffset: 0)
    }
}

/// base64url without padding, for hand-built tokens.
func base64url(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
}

func base64url(_ text: String) -> String { base64url(Array(text.utf8)) }

/// A token with the given header and payload JSON and 64 signature bytes of 0x01.
func token(header: String = #"{"alg":"ES256","x5c":[]}"#, payload: String, signature: [UInt8] = Array(repeating: 1, count: 64)) -> [UInt8] {
    Array("\(base64url(header)).\(base64url(payload)).\(base64url(signature))".utf8)
}

extension JWSDocument {
    func codes(_ layer: JWSLayer) -> [DiagnosticCode] { diagnostics.filter { $0.layer == layer }.map(\.diagnostic.code) }
}
