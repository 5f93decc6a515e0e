import ASN1Lenient
import ByteText
import TextLoader

/// Finds the data in pasted text: every candidate (a token, a cut-off token, base64 of DER) in
/// every place it can hide (a JSON value at any key, JSON inside a JSON string, a form field, a
/// log line, quotes, a markdown fence, wrapped lines), the most specific first.
enum PasteFinder {
    struct Found {
        var candidate: PasteCandidate
    }

    /// The candidates in `text`, best first; the same data found twice (a JSON string and the
    /// text around it) is listed once, with its most specific location.
    static func find(in text: [UInt8]) -> [Found] {
        var candidates: [PasteCandidate] = []
        for view in views(of: text) {
            for run in PasteRuns.runs(in: view) {
                if let candidate = PasteCandidate.evaluate(run, view: view) { candidates.append(candidate) }
            }
        }
        candidates.sort { a, b in
            if a.score != b.score { return a.score > b.score }
            if a.bytes.count != b.bytes.count { return a.bytes.count > b.bytes.count }
            if (a.path != nil) != (b.path != nil) { return a.path != nil }
            return a.start < b.start
        }
        var seen = Set<Int>()
        return candidates.compactMap { candidate in
            guard seen.insert(candidate.start).inserted else { return nil }
            return Found(candidate: candidate)
        }
    }

    /// The text's structured parts when it is JSON or a form body; otherwise the text itself and
    /// each JSON log line's values.
    static func views(of text: [UInt8]) -> [PasteView] {
        let whole = PasteView(text: text)
        let inner = whole.innerViews()
        if !inner.isEmpty { return inner }
        var views: [PasteView] = [whole]
        var lineStart = 0
        while lineStart < text.count {
            let lineEnd = text[lineStart...].firstIndex(of: 0x0A) ?? text.count
            if let first = text[lineStart..<lineEnd].firstIndex(where: { !PasteRuns.isSpace($0) }), text[first] == UInt8(ascii: "{") {
                let line = PasteView(bytes: Array(text[lineStart..<lineEnd]), offsets: OffsetList(identity: lineStart..<lineEnd), path: nil, key: nil)
                views += line.innerViews()
            }
            lineStart = lineEnd + 1
        }
        return views
    }
}
