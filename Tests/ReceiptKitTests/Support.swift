import Foundation
import Testing
import TestSupport
import ASN1Lenient
@testable import ReceiptKit

func certificateBytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
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

func attribute(_ type: Int, _ value: [UInt8], version: Int = 1) -> [UInt8] {
    DER.tlv(0x30, DER.int(type) + DER.int(version) + DER.tlv(0x04, value))
}

/// A SignedData ContentInfo around a payload, without certificates or signer infos (decoding only).
func container(payload: [UInt8]) -> [UInt8] { DER.unsignedReceipt(payload: payload) }

/// The required app attributes, plus `extra`, as a SET.
func minimalPayload(_ extra: [[UInt8]] = [], bundle: [UInt8]? = nil) -> [UInt8] {
    DER.tlv(0x31, minimalAttributes(extra, bundle: bundle))
}

/// The required app attributes, plus `extra`, concatenated (no SET header).
func minimalAttributes(_ extra: [[UInt8]] = [], bundle: [UInt8]? = nil) -> [UInt8] {
    var attrs = [
        attribute(0, DER.utf8("ProductionSandbox")),
        attribute(2, bundle ?? DER.utf8("com.example.app")),
        attribute(3, DER.utf8("1.0")),
        attribute(4, [1, 2, 3, 4, 5, 6, 7, 8], version: 2),
        attribute(5, [UInt8](repeating: 0xAB, count: 20)),
        attribute(12, DER.ia5("2024-03-01T12:00:00Z")),
    ]
    attrs += extra
    return attrs.flatMap { $0 }
}

