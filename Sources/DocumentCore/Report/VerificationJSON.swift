#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ASN1Lenient
import ByteText
import ReceiptKit

/// `verify --format json`: the whole report as one object following docs/verify-schema.json,
/// written straight into bytes (VerificationJSONStream.swift; one writer, no dictionaries: see
/// docs/performance.md "Batch json"). Keys are snake_case and sorted; absent values are omitted
/// (never null), dates are ISO 8601 UTC with milliseconds. VerificationJSONTests hold the exact bytes.
public enum VerificationJSON {
    /// The pretty document `verify --format json` prints.
    public static func text(_ report: VerificationReport, input: (name: String, size: Int)) -> String {
        String(decoding: bytes(report, input: input), as: UTF8.self)
    }

    /// `text` as UTF-8 bytes, for writing straight out.
    public static func bytes(_ report: VerificationReport, input: (name: String, size: Int)) -> [UInt8] {
        streamed(report, input: input, compact: false)
    }

    /// A batch line: the compact document with `"source"` and `"line"`.
    public static func batchLine(_ report: VerificationReport, input: (name: String, size: Int),
                                 source: ReceiptJSON.BatchSourceFields) -> String {
        String(decoding: streamed(report, input: input, compact: true, batchSource: source), as: UTF8.self)
    }

    /// "2024-03-01T12:00:00.000Z" (milliseconds rounded down; a year outside 0000-9999 as
    /// ISO8601DateFormatter wrote it before the tool dropped full Foundation).
    public static func date(_ d: Date) -> String {
        ISO8601Text.string(epochMilliseconds: ReceiptDate(d).epochMilliseconds, fraction: .always, farYears: .julianEra)
    }
}
