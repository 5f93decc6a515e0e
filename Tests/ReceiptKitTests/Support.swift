import Foundation
import Testing
import ASN1Lenient
@testable import ReceiptKit

/// The package root, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
/// The shared corpus of real receipts beside the project; absent for people who only cloned it.
let corpusDirectory = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
let receiptsDirectory = corpusDirectory.appendingPathComponent("receipts")
let samplesDirectory = packageRoot.appendingPathComponent("samples")

var corpusAvailable: Bool { FileManager.default.fileExists(atPath: receiptsDirectory.path) }
var samplesAvailable: Bool { FileManager.default.fileExists(atPath: samplesDirectory.appendingPathComponent("manifest.json").path) }

func corpusBytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: receiptsDirectory.appendingPathComponent(name)))
}

func sampleBytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: samplesDirectory.appendingPathComponent(name)))
}

func certificateBytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter(\.isHexDigit))
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}

func hexString(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

/// Epoch milliseconds of an ISO 8601 UTC date, via Foundation (an independent check of ReceiptDate).
func epochMS(_ iso: String) -> Int64 {
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let d = f.date(from: iso) { return Int64((d.timeIntervalSince1970 * 1000).rounded()) }
    f.formatOptions = [.withInternetDateTime]
    return Int64((f.date(from: iso)!.timeIntervalSince1970 * 1000).rounded())
}

/// Decode-only analysis (no OpenSSL).
func decode(_ bytes: [UInt8]) -> ReceiptAnalysis {
    ReceiptAnalyzer.analyze(bytes: bytes, options: AnalysisOptions(validate: false))
}

// MARK: - DER builders for hand-made receipts

func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
    var out = [tag]
    let n = content.count
    if n < 0x80 { out.append(UInt8(n)) }
    else if n < 0x100 { out += [0x81, UInt8(n)] }
    else { out += [0x82, UInt8(n >> 8), UInt8(n & 0xFF)] }
    return out + content
}

func derInteger(_ v: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    var x = v
    repeat { bytes.insert(UInt8(x & 0xFF), at: 0); x >>= 8 } while x > 0
    if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
    return tlv(0x02, bytes)
}

func utf8(_ s: String) -> [UInt8] { tlv(0x0C, Array(s.utf8)) }
func ia5(_ s: String) -> [UInt8] { tlv(0x16, Array(s.utf8)) }

func attribute(_ type: Int, _ value: [UInt8], version: Int = 1) -> [UInt8] {
    tlv(0x30, derInteger(type) + derInteger(version) + tlv(0x04, value))
}

/// A SignedData ContentInfo around a payload, without certificates or signer infos (decoding only).
func container(payload: [UInt8]) -> [UInt8] {
    let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    let dataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
    let eci = tlv(0x30, dataOID + tlv(0xA0, tlv(0x04, payload)))
    let sd = tlv(0x30, derInteger(1) + tlv(0x31, []) + eci + tlv(0x31, []))
    return tlv(0x30, signedDataOID + tlv(0xA0, sd))
}

/// The required app attributes, plus `extra`, as a SET.
func minimalPayload(_ extra: [[UInt8]] = [], bundle: [UInt8]? = nil) -> [UInt8] {
    tlv(0x31, minimalAttributes(extra, bundle: bundle))
}

/// The required app attributes, plus `extra`, concatenated (no SET header).
func minimalAttributes(_ extra: [[UInt8]] = [], bundle: [UInt8]? = nil) -> [UInt8] {
    var attrs = [
        attribute(0, utf8("ProductionSandbox")),
        attribute(2, bundle ?? utf8("com.example.app")),
        attribute(3, utf8("1.0")),
        attribute(4, [1, 2, 3, 4, 5, 6, 7, 8], version: 2),
        attribute(5, [UInt8](repeating: 0xAB, count: 20)),
        attribute(12, ia5("2024-03-01T12:00:00Z")),
    ]
    attrs += extra
    return attrs.flatMap { $0 }
}

