import ReceiptKit
import X509Trust
import DocumentCore

/// The mapping file `redact --mapping FILE` writes: every stand-in with the original it replaced
/// and where, so that whoever made the copies (and only they) can read answers about them.
public enum RedactMapping {
    /// `files[i]`: the input's name and where its copy was written.
    public static func document(_ run: RedactRun, files: [(input: String, copy: String)]) -> [String: Any] {
        var entries: [[String: Any]] = []
        for (original, places) in run.occurrences.sorted(by: { $0.key < $1.key }) {
            guard let standIn = run.standIns[original] else { continue }
            let fields = Set(places.filter { !$0.isMention }.map(\.field)).sorted().map(\.rawValue)
            entries.append([
                "fields": fields.isEmpty ? Array(Set(places.map(\.field.rawValue))).sorted() : fields,
                "encoding": isBytes(original) ? "hex" : "text",
                "original": text(original),
                "stand_in": text(standIn),
                "occurrences": places.map { place -> [String: Any] in
                    ["file": files[place.file].input, "where": place.place, "layer": place.layer, "offset": place.offset,
                     "mention": place.isMention]
                },
            ])
        }
        return [
            "note": "PRIVATE: maps the stand-ins in the redacted copies back to the original values. Do not share it with the copies.",
            "files": files.map { ["input": $0.input, "copy": $0.copy] },
            "entries": entries,
        ]
    }

    static func isBytes(_ value: RedactedValue) -> Bool {
        if case .bytes = value { return true }
        return false
    }

    static func text(_ value: RedactedValue) -> String {
        switch value {
        case .text(let text): text
        case .bytes(let bytes): Digest.hex(bytes)
        }
    }
}
