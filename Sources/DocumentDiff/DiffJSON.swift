import DocumentCore

/// The `diff --format json` document, as plain dictionaries (the command serialises them with
/// sorted keys): {"comparison", "equivalent", "semantic", "structural", "structural_omitted",
/// "signatures"}; each side {"layer", "node", "range", "file_range", "value", "path"} with only the
/// keys it has.
public enum DiffJSON {
    public static func document(_ diff: DocumentDiff) -> [String: Any] {
        var doc: [String: Any] = [
            "comparison": diff.comparison.rawValue,
            "equivalent": diff.isEquivalent,
            // Made as written (`ReceiptJSON.stream`): the entries may be made when read (`DiffEntries`).
            "semantic": JSONLazyArray(count: diff.semantic.count) { entry(diff.semantic[$0]) },
            "structural": diff.structural.map(entry),
            "structural_omitted": diff.structuralOmitted,
            "structural_content_changes": diff.structuralContentChanges,
        ]
        if let s = diff.signatures {
            doc["signatures"] = [
                "same_signature": s.sameSignature,
                "same_certificates": s.sameCertificates,
                "certificates_a": s.certificatesA.map(certificate),
                "certificates_b": s.certificatesB.map(certificate),
            ] as [String: Any]
        }
        return doc
    }

    static func entry(_ e: DiffEntry) -> [String: Any] {
        var out: [String: Any] = ["kind": e.kind.rawValue, "subject": e.subject]
        if let key = e.key { out["key"] = key }
        if let note = e.note { out["note"] = note }
        if let a = e.a { out["a"] = side(a) }
        if let b = e.b { out["b"] = side(b) }
        if !e.fields.isEmpty { out["fields"] = e.fields.map(entry) }
        return out
    }

    static func side(_ s: DiffSide) -> [String: Any] {
        var out: [String: Any] = [:]
        if let node = s.node { out["node"] = node.index }
        if s.node != nil || s.layer != nil { out["layer"] = s.rangeLayer.index }
        if let r = s.range { out["range"] = [r.lowerBound, r.upperBound] }
        if let r = s.fileRange { out["file_range"] = [r.lowerBound, r.upperBound] }
        if let v = s.value { out["value"] = v }
        if let p = s.path { out["path"] = p }
        return out
    }

    static func certificate(_ c: DiffCertificate) -> [String: Any] {
        var out: [String: Any] = ["sha256": c.sha256, "subject": c.subject]
        if let node = c.node { out["node"] = node.index; out["layer"] = node.layer.index }
        return out
    }
}
