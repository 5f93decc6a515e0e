import ByteText
import DocumentDiff

/// The diff overlay's rows: each semantic entry, its changed fields indented under it, then the
/// structural entries. From the engine's diff they are made when read: the diff keeps what its
/// entries are made from (`DiffEntries`), the list where each entry's rows start, and a row is
/// made when the overlay draws it. Made up front, two 50 MB receipts' 162,947 rows were 166 MiB
/// beside the two documents (issue 32). A list given whole (a test's engine) is kept.
public struct DiffList: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
    private enum Source: Sendable {
        case kept([DiffListEntry])
        /// Every entry is one row but those listed (an entry with fields, in order).
        case made(DocumentDiff, tall: [TallEntry])
    }

    /// An entry of more than one row: where it starts and how many rows it has (32 bits: an
    /// entry is read whole to make any of its rows).
    struct TallEntry: Sendable {
        var entry: Int32
        var firstRow: Int32
        var rows: Int32
    }

    private let source: Source
    public let count: Int

    public init(_ rows: [DiffListEntry]) {
        source = .kept(rows)
        count = rows.count
    }

    public init(arrayLiteral rows: DiffListEntry...) { self.init(rows) }

    /// The rows of `diff`: each entry is read once here, to count its rows.
    public init(_ diff: DocumentDiff) {
        var tall: [TallEntry] = []
        var rows = 0
        for e in 0..<(diff.semantic.count + diff.structural.count) {
            let n = DiffListEntry.rowCount(Self.entry(e, of: diff))
            if n > 1 { tall.append(TallEntry(entry: Int32(clamping: e), firstRow: Int32(clamping: rows), rows: Int32(clamping: n))) }
            rows += n
        }
        source = .made(diff, tall: tall)
        count = rows
    }

    static func entry(_ e: Int, of diff: DocumentDiff) -> DiffEntry {
        e < diff.semantic.count ? diff.semantic[e] : diff.structural[e - diff.semantic.count]
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(row: Int) -> DiffListEntry {
        switch source {
        case .kept(let rows):
            return rows[row]
        case .made(let diff, let tall):
            precondition(row >= 0 && row < count, "diff row out of range")
            // The last tall entry starting at or before `row`: the row is in it, or in one of the
            // one-row entries after it.
            let j = SortedSearch.partition(tall.count) { Int(tall[$0].firstRow) <= row } - 1
            var (e, offset) = (row, 0)
            if j >= 0 {
                let t = tall[j], end = Int(t.firstRow) + Int(t.rows)
                (e, offset) = row < end ? (Int(t.entry), row - Int(t.firstRow)) : (Int(t.entry) + 1 + row - end, 0)
            }
            let entry = Self.entry(e, of: diff)
            guard offset > 0 else { return DiffListEntry.row(entry, indent: "") }
            var rows: [DiffListEntry] = []
            DiffListEntry.add(entry, indent: "", into: &rows)
            return rows[offset]
        }
    }

    public static func == (x: DiffList, y: DiffList) -> Bool { x.count == y.count && x.elementsEqual(y) }
}
