#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ASN1Lenient
import ByteText
import ReceiptKit

/// `verify --format json`: the whole report as one object following docs/verify-schema.json.
/// Keys are snake_case and sorted; absent values are omitted (never null), dates are ISO 8601 UTC
/// with milliseconds.
public enum VerificationJSON {
    public static func document(_ report: VerificationReport, input: (name: String, size: Int)) -> [String: Any] {
        var doc = object(report)
        doc["schema_version"] = VerificationReport.schemaVersion
        doc["input"] = ["name": input.name, "size": input.size] as [String: Any]
        return doc
    }

    /// Written by `streamed` (VerificationJSONStream.swift): the same bytes as `serialize(document(…))`.
    public static func text(_ report: VerificationReport, input: (name: String, size: Int)) -> String {
        String(decoding: bytes(report, input: input), as: UTF8.self)
    }

    /// `text` as UTF-8 bytes, for writing straight out.
    public static func bytes(_ report: VerificationReport, input: (name: String, size: Int)) -> [UInt8] {
        streamed(report, input: input, compact: false)
    }

    static func object(_ r: VerificationReport) -> [String: Any] {
        var subject: [String: Any] = ["kind": r.subject.kind, "label": r.subject.label, "note": r.subject.note]
        if let path = r.subject.path { subject["path"] = path }
        if let environment = r.subject.environment { subject["environment"] = environment.rawValue }
        if let range = r.subject.range { subject["range"] = object(range) }
        if !r.subject.headline.isEmpty {
            subject["headline"] = r.subject.headline.map { ["path": $0.path, "value": $0.value] as [String: Any] }
        }
        var dates: [String: Any] = ["now": date(r.dates.now)]
        if let signed = r.dates.signed { dates["signed"] = date(signed) }
        if let at = r.dates.at { dates["at"] = date(at) }
        let verdict: [String: Any] = [
            "valid": r.verdict.valid, "outcome": r.verdict.outcome, "summary": r.verdict.summary,
            "reasons": r.verdict.reasons.map { reason -> [String: Any] in
                var o: [String: Any] = ["code": reason.code.rawValue, "message": reason.message]
                if let step = reason.step { o["step"] = step }
                return o
            },
        ]
        var o: [String: Any] = [
            "subject": subject,
            "steps": r.steps.map(object),
            "certificates": r.certificates.map(object),
            "dates": dates,
            "findings": r.findings.map { f -> [String: Any] in
                ["severity": f.severity, "code": f.code, "message": f.message, "offset": f.offset, "length": f.length]
            },
            "nested": r.nested.map(object),
            "verdict": verdict,
        ]
        if let receipt = r.receipt { o["receipt"] = object(receipt) }
        return o
    }

    static func object(_ s: VerificationStep) -> [String: Any] {
        var o: [String: Any] = ["id": s.id, "title": s.title, "status": s.status.rawValue, "message": s.message,
                                "decides": s.decides, "details": s.details, "ranges": s.ranges.map(object),
                                "certificates": s.certificates.map(object)]
        if let code = s.reasonCode { o["reason_code"] = code.rawValue }
        if let reason = s.reason { o["reason"] = reason }
        if let at = s.judgedAt { o["judged_at"] = date(at) }
        if let status = s.appleStatus { o["apple_status"] = status.rawValue }
        return o
    }

    static func object(_ r: VerificationRange) -> [String: Any] {
        var o: [String: Any] = ["what": r.what, "offset": r.offset, "length": r.length]
        if let t = r.tokenOffset, let n = r.tokenLength {
            o["token_offset"] = t
            o["token_length"] = n
        }
        return o
    }

    static func object(_ c: VerificationCertificate) -> [String: Any] {
        var o: [String: Any] = ["role": c.role, "subject": c.subject, "issuer": c.issuer, "sha256": c.sha256,
                                "markers": c.markers, "self_signed": c.selfSigned]
        if let i = c.index { o["index"] = i }
        if let d = c.notBefore { o["not_before"] = date(d) }
        if let d = c.notAfter { o["not_after"] = date(d) }
        if let a = c.anchor { o["anchor"] = a }
        return o
    }

    /// "2024-03-01T12:00:00.000Z" (milliseconds rounded down; a year outside 0000-9999 as
    /// ISO8601DateFormatter wrote it before the tool dropped full Foundation).
    public static func date(_ d: Date) -> String {
        ISO8601Text.string(epochMilliseconds: ReceiptDate(d).epochMilliseconds, fraction: .always, farYears: .julianEra)
    }
}
