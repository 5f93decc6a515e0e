import Foundation
import JWSKit
import Testing
import TestSupport

/// A root you supply is outside bytes too: a chain whose certificates' common names hold terminal
/// controls (CSI after ESC, BEL, an OSC window-title sequence) is written escaped by every command,
/// the names kept whole and readable. The chain is made here with the OpenSSL command line, and the
/// token signed with its leaf key, so no such file sits in the repository.
@Suite struct HostileCertificateNameTests {
    static let openssl = OpenSSLTool.path
    static let rootName = "evil\u{1B}[31mroot\u{07}"
    static let leafName = "leaf\u{1B}]0;title\u{07}"

    @Test(.enabled(if: openssl != nil, Comment(rawValue: OpenSSLTool.missingReason)))
    func namesWithTerminalControlsAreWrittenEscaped() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let token = try Self.makeToken(in: dir)
        let root = dir.appendingPathComponent("root.pem").path

        let text = try runCLI(["verify", "--root", root, token])
        #expect(text.stdout.contains("anchored at            user-supplied root (CN=evil\\\\1B[31mroot\\\\07)"), "\(text.stdout)")
        #expect(text.stdout.contains("leaf: CN=leaf\\\\1B]0\\\\;title\\\\07"), "\(text.stdout)")

        let json = try runCLI(["verify", "--format", "json", "--root", root, token])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdoutBytes)) as? [String: Any])
        let certificates = try #require(report["certificates"] as? [[String: Any]], "\(json.stdout)")
        #expect(certificates.compactMap { $0["subject"] as? String }.contains("CN=leaf\\1B]0\\;title\\07"))
        #expect(certificates.compactMap { $0["issuer"] as? String }.contains("CN=evil\\1B[31mroot\\07"))

        for arguments in [["verify"], ["verify", "--format", "json"], ["explain"], ["dump"], ["json"]] {
            let result = try runCLI(arguments + ["--root", root, token])
            for (stream, bytes) in [("stdout", result.stdoutBytes), ("stderr", Array(result.stderr.utf8))] {
                let raw = bytes.firstIndex { ($0 < 0x20 && $0 != 0x0A && $0 != 0x09) || $0 == 0x7F }
                #expect(raw == nil, "\(arguments.joined(separator: " ")): raw byte \(raw.map { bytes[$0] } ?? 0) in \(stream)")
            }
            #expect(!result.stdout.contains("\u{9B}") && !result.stdout.contains("\u{9D}"), "\(arguments): a C1 control")
        }
    }

    /// Root (P-256, CA, the hostile name) → intermediate (CA) → leaf (the other hostile name), and a
    /// transaction token signed by the leaf with the chain in `x5c`; returns the token's path.
    static func makeToken(in dir: URL) throws -> String {
        func openssl(_ arguments: [String]) throws {
            let result = try runProgram(URL(fileURLWithPath: try #require(Self.openssl)), arguments)
            try #require(result.status == 0, "openssl \(arguments.joined(separator: " ")): \(result.stderr)")
        }
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        let ca = path("ca.ext")
        try "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign\n".write(toFile: ca, atomically: true, encoding: .utf8)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try openssl(["req", "-x509"] + ec + ["-keyout", path("root.key"), "-subj", "/CN=\(rootName)", "-days", "9000",
                                             "-addext", "basicConstraints=critical,CA:TRUE", "-out", path("root.pem")])
        for (name, subject, issuer, extensions) in [("inter", "inter", "root", ["-extfile", ca]), ("leaf", leafName, "inter", [])] {
            try openssl(["req", "-new"] + ec + ["-keyout", path("\(name).key"), "-subj", "/CN=\(subject)", "-out", path("\(name).csr")])
            try openssl(["x509", "-req", "-in", path("\(name).csr"), "-CA", path("\(issuer).pem"), "-CAkey", path("\(issuer).key"),
                         "-set_serial", "7", "-days", "9000", "-out", path("\(name).pem")] + extensions)
        }
        var x5c: [String] = []
        for name in ["leaf", "inter", "root"] {
            try openssl(["x509", "-in", path("\(name).pem"), "-outform", "DER", "-out", path("\(name).der")])
            x5c.append(Data(try Paths.bytes(URL(fileURLWithPath: path("\(name).der")))).base64EncodedString())
        }
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "x5c": x5c])
        let payload = Data(#"{"transactionId":"1","originalTransactionId":"1","bundleId":"com.example","productId":"p","purchaseDate":1704067200000,"type":"Consumable","inAppOwnershipType":"PURCHASED","signedDate":1704067200000,"environment":"Sandbox","quantity":1}"#.utf8)
        let signingInput = Base64URL.encode([UInt8](header)) + "." + Base64URL.encode([UInt8](payload))
        try signingInput.write(toFile: path("input"), atomically: true, encoding: .utf8)
        try openssl(["dgst", "-sha256", "-sign", path("leaf.key"), "-out", path("signature.der"), path("input")])
        let signature = try #require(ES256Signature.raw(fromDER: try Paths.bytes(URL(fileURLWithPath: path("signature.der")))))
        try (signingInput + "." + Base64URL.encode(signature)).write(toFile: path("token.jws"), atomically: true, encoding: .utf8)
        return path("token.jws")
    }
}
