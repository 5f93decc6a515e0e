#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `verify --format json` written straight into bytes. The report has a fixed shape, so every
/// member is written in sorted key order here, with no `[String: Any]` in between (casts from `Any`
/// cost a first-use conformance scan per value type, which made the JSON report slower than the
/// text one on a single input).
extension VerificationJSON {
    /// `batchSource`: the batch line's `"source"` and `"line"`, as `BatchCheck.addSource` adds them.
    package static func streamed(_ report: VerificationReport, input: (name: String, size: Int), compact: Bool,
                         batchSource: ReceiptJSON.BatchSourceFields? = nil) -> [UInt8] {
        // Room for a notification's pretty report (55–67 KB) without growing; below glibc's 128 KB
        // mmap threshold, so a batch does not map and unmap a buffer per line.
        var w = JSONStreamWriter(compact: compact, capacity: compact ? 1 << 15 : 96 << 10)
        writeTop(report, input: input, batchSource: batchSource, into: &w)
        return w.finishLine()
    }

    /// The pretty document handed to `sink` 64 KB at a time as it is written: a history's report
    /// is about 50 KB a token, 500 MB for 10,000 of them, never held whole.
    /// `compact` and `batchSource`: a batch line too large to make whole (`BatchTurn`).
    public static func stream(_ report: VerificationReport, input: (name: String, size: Int), compact: Bool = false,
                              batchSource: ReceiptJSON.BatchSourceFields? = nil, bufferSize: Int = 1 << 16,
                              to sink: (UnsafeRawBufferPointer) -> Void) {
        withoutActuallyEscaping(sink) { sink in
            var w = JSONStreamWriter(compact: compact, capacity: bufferSize, sink: sink)
            writeTop(report, input: input, batchSource: batchSource, into: &w)
            w.finishStreamedLine()
        }
    }

    private static func writeTop(_ report: VerificationReport, input: (name: String, size: Int),
                                 batchSource: ReceiptJSON.BatchSourceFields?, into w: inout JSONStreamWriter) {
        write(report, into: &w) { w, key in
            switch key {
            case "input":
                w.key("input")
                w.openObject(); w.key("name"); w.string(input.name); w.key("size"); w.int(input.size); w.closeObject()
                if let line = batchSource?.line { w.key("line"); w.int(line) }
            case "schema_version":
                w.key("schema_version"); w.int(VerificationReport.schemaVersion)
                if let batchSource { w.key("source"); w.string(batchSource.file) }
            default: break
            }
        }
    }

    /// `object(_:)`; `extra` writes the top level's own members where `"input"` and
    /// `"schema_version"` sort (a nested report has neither).
    private static func write(_ r: VerificationReport, into w: inout JSONStreamWriter,
                              extra: (inout JSONStreamWriter, String) -> Void) {
        w.openObject()
        w.key("certificates"); w.openArray()
        for c in r.certificates { w.element(); write(c, into: &w) }
        w.closeArray()
        w.key("dates"); w.openObject()
        if let at = r.dates.at { w.key("at"); w.isoDate(at) }
        w.key("now"); w.isoDate(r.dates.now)
        if let signed = r.dates.signed { w.key("signed"); w.isoDate(signed) }
        w.closeObject()
        w.key("findings"); w.openArray()
        for f in r.findings {
            w.element(); w.openObject()
            w.key("code"); w.string(f.code)
            w.key("length"); w.int(f.length)
            w.key("message"); w.string(f.message)
            w.key("offset"); w.int(f.offset)
            w.key("severity"); w.string(f.severity)
            w.closeObject()
        }
        w.closeArray()
        extra(&w, "input")
        w.key("nested"); w.openArray()
        for n in r.nested { w.element(); write(n, into: &w) { _, _ in } }
        w.closeArray()
        if let receipt = r.receipt { w.key("receipt"); write(receipt, into: &w) }
        extra(&w, "schema_version")
        w.key("steps"); w.openArray()
        for s in r.steps { w.element(); write(s, into: &w) }
        w.closeArray()
        w.key("subject"); write(r.subject, into: &w)
        w.key("verdict"); w.openObject()
        w.key("outcome"); w.string(r.verdict.outcome)
        w.key("reasons"); w.openArray()
        for reason in r.verdict.reasons {
            w.element(); w.openObject()
            w.key("code"); w.string(reason.code.rawValue)
            w.key("message"); w.string(reason.message)
            if let step = reason.step { w.key("step"); w.string(step) }
            w.closeObject()
        }
        w.closeArray()
        w.key("summary"); w.string(r.verdict.summary)
        w.key("valid"); w.bool(r.verdict.valid)
        w.closeObject()
        w.closeObject()
    }

    private static func write(_ s: VerificationSubject, into w: inout JSONStreamWriter) {
        w.openObject()
        if let environment = s.environment { w.key("environment"); w.string(environment.rawValue) }
        if !s.headline.isEmpty {
            w.key("headline"); w.openArray()
            for field in s.headline {
                w.element(); w.openObject()
                w.key("path"); w.string(field.path)
                w.key("value"); w.string(field.value)
                w.closeObject()
            }
            w.closeArray()
        }
        w.key("kind"); w.string(s.kind)
        w.key("label"); w.string(s.label)
        w.key("note"); w.string(s.note)
        if let path = s.path { w.key("path"); w.string(path) }
        if let range = s.range { w.key("range"); write(range, into: &w) }
        w.closeObject()
    }

    private static func write(_ s: VerificationStep, into w: inout JSONStreamWriter) {
        w.openObject()
        if let status = s.appleStatus { w.key("apple_status"); w.string(status.rawValue) }
        w.key("certificates"); w.openArray()
        for c in s.certificates { w.element(); write(c, into: &w) }
        w.closeArray()
        w.key("decides"); w.bool(s.decides)
        w.key("details"); w.openArray()
        for line in s.details { w.element(); w.string(line) }
        w.closeArray()
        w.key("id"); w.string(s.id)
        if let at = s.judgedAt { w.key("judged_at"); w.isoDate(at) }
        w.key("message"); w.string(s.message)
        w.key("ranges"); w.openArray()
        for range in s.ranges { w.element(); write(range, into: &w) }
        w.closeArray()
        if let reason = s.reason { w.key("reason"); w.string(reason) }
        if let code = s.reasonCode { w.key("reason_code"); w.string(code.rawValue) }
        w.key("status"); w.string(s.status.rawValue)
        w.key("subject"); write(s.subject, into: &w)
        w.key("title"); w.string(s.title)
        w.closeObject()
    }

    private static func write(_ s: VerificationStepSubject, into w: inout JSONStreamWriter) {
        w.openObject()
        w.key("envelope"); w.string(s.envelope.rawValue)
        if let index = s.index { w.key("index"); w.int(index) }
        w.key("part"); w.string(s.part.rawValue)
        if let path = s.path { w.key("path"); w.string(path) }
        w.closeObject()
    }

    private static func write(_ r: VerificationRange, into w: inout JSONStreamWriter) {
        w.openObject()
        w.key("length"); w.int(r.length)
        w.key("offset"); w.int(r.offset)
        if let t = r.tokenOffset, let n = r.tokenLength {
            w.key("token_length"); w.int(n)
            w.key("token_offset"); w.int(t)
        }
        w.key("what"); w.string(r.what)
        w.closeObject()
    }

    private static func write(_ c: VerificationCertificate, into w: inout JSONStreamWriter) {
        w.openObject()
        if let a = c.anchor { w.key("anchor"); w.string(a) }
        if let i = c.index { w.key("index"); w.int(i) }
        w.key("issuer"); w.string(c.issuer)
        w.key("markers"); w.openArray()
        for marker in c.markers { w.element(); w.string(marker) }
        w.closeArray()
        if let d = c.notAfter { w.key("not_after"); w.isoDate(d) }
        if let d = c.notBefore { w.key("not_before"); w.isoDate(d) }
        w.key("role"); w.string(c.role)
        w.key("self_signed"); w.bool(c.selfSigned)
        w.key("sha256"); w.string(c.sha256)
        w.key("subject"); w.string(c.subject)
        w.closeObject()
    }

    private static func write(_ f: VerificationReceiptFacts, into w: inout JSONStreamWriter) {
        func purchase(_ p: VerificationReceiptFacts.Purchase, _ w: inout JSONStreamWriter) {
            w.openObject()
            if let v = p.cancellationDate { w.key("cancellation_date"); w.isoDate(v) }
            if let v = p.expiresDate { w.key("expires_date"); w.isoDate(v) }
            w.key("index"); w.int(p.index)
            if let v = p.originalTransactionID { w.key("original_transaction_id"); w.string(v) }
            if let v = p.productID { w.key("product_id"); w.string(v) }
            if let v = p.purchaseDate { w.key("purchase_date"); w.isoDate(v) }
            if let v = p.quantity { w.key("quantity"); w.int(Int(v)) }
            if let v = p.transactionID { w.key("transaction_id"); w.string(v) }
            w.closeObject()
        }
        func latest(_ map: [String: Date], _ w: inout JSONStreamWriter) {
            w.openObject()
            for key in map.keys.sorted() { w.key(escaping: key); w.isoDate(map[key]!) }
            w.closeObject()
        }
        w.openObject()
        if let v = f.appVersion { w.key("application_version"); w.string(v) }
        if let v = f.bundleID { w.key("bundle_id"); w.string(v) }
        if let v = f.creationDate { w.key("creation_date"); w.isoDate(v) }
        if let v = f.originalAppVersion { w.key("original_application_version"); w.string(v) }
        w.key("purchases"); w.openArray()
        f.forEachPurchase { p in w.element(); purchase(p, &w) }
        w.closeArray()
        if let v = f.receiptType { w.key("receipt_type"); w.string(v) }
        w.key("subscriptions"); w.openObject()
        w.key("active"); w.openArray()
        for i in f.active {
            guard let p = f.purchase(at: i) else { continue }
            w.element(); purchase(p, &w)
        }
        w.closeArray()
        w.key("at"); w.isoDate(f.at)
        w.key("latest_expiry_by_original_transaction"); latest(f.latestExpiryByOriginalTransaction, &w)
        w.key("latest_expiry_by_product"); latest(f.latestExpiryByProduct, &w)
        w.closeObject()
        w.closeObject()
    }
}
