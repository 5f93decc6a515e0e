import ReceiptKit
import X509Trust
import DocumentCore

/// The mapping file `redact --mapping FILE` writes: every stand-in with the original it replaced
/// and where, so that whoever made the copies (and only they) can read answers about them.
public enum RedactMapping {
    static let note = "PRIVATE: maps the stand-ins in the redacted copies back to the original values. Do not share it with the copies."

    /// The file's bytes (pretty JSON, keys in byte order, as `ReceiptJSON.serialize` writes them).
    /// `files[i]`: the input's name and where its copy was written.
    public static func bytes(_ run: RedactRun, files: [(input: String, copy: String)]) -> [UInt8] {
        var w = JSONStreamWriter(compact: false, capacity: 1 << 16)
        write(run, files: files, into: &w)
        return w.finishLine()
    }

    /// The same bytes handed to `sink` 64 KB at a time as they are made, none of the file kept:
    /// the mapping of a 20,000-purchase receipt is 25 MB, and held whole (then copied into the
    /// file's `Data`) it was 50 MB at the command's peak (issue 32).
    public static func write(_ run: RedactRun, files: [(input: String, copy: String)],
                             to sink: (UnsafeRawBufferPointer) -> Void) {
        withoutActuallyEscaping(sink) { sink in
            var w = JSONStreamWriter(compact: false, capacity: 1 << 16, sink: sink)
            write(run, files: files, into: &w)
            w.finishStreamedLine()
        }
    }

    private static func write(_ run: RedactRun, files: [(input: String, copy: String)], into w: inout JSONStreamWriter) {
        w.openObject()
        w.key("entries")
        w.openArray()
        for (original, places) in run.occurrences.sorted(by: { $0.key < $1.key }) {
            guard let standIn = run.standIns[original] else { continue }
            let named = Set(places.filter { !$0.isMention }.map(\.field)).sorted().map(\.rawValue)
            let fields = named.isEmpty ? Array(Set(places.map(\.field.rawValue))).sorted() : named
            w.element()
            w.openObject()
            w.key("encoding")
            w.constant(isBytes(original) ? "hex" : "text")
            w.key("fields")
            w.openArray()
            for field in fields { w.element(); w.string(field) }
            w.closeArray()
            w.key("occurrences")
            w.openArray()
            for place in places {
                w.element()
                w.openObject()
                w.key("file"); w.string(files[place.file].input)
                w.key("layer"); w.string(place.layer)
                w.key("mention"); w.bool(place.isMention)
                w.key("offset"); w.int(place.offset)
                w.key("where"); w.string(place.place)
                w.closeObject()
            }
            w.closeArray()
            w.key("original"); w.string(text(original))
            w.key("stand_in"); w.string(text(standIn))
            w.closeObject()
        }
        w.closeArray()
        w.key("files")
        w.openArray()
        for file in files {
            w.element()
            w.openObject()
            w.key("copy"); w.string(file.copy)
            w.key("input"); w.string(file.input)
            w.closeObject()
        }
        w.closeArray()
        w.key("note"); w.string(note)
        w.closeObject()
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
