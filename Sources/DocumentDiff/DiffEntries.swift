/// A diff's semantic entries: runs of entries kept as they are, and runs made when read. A run made
/// when read is how two large receipts are compared within their memory bound: 162,897 purchase
/// entries kept whole, with their strings, were 86 MB beside the two documents (issue 32); made
/// when read, the run keeps 12 bytes an entry and the documents it reads them from.
public struct DiffEntries: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
    enum Run: Sendable {
        case kept([DiffEntry])
        /// `count` entries, the n-th made by `entry(n)`.
        case made(count: Int, entry: @Sendable (Int) -> DiffEntry)

        var count: Int {
            switch self {
            case .kept(let entries): entries.count
            case .made(let count, _): count
            }
        }
    }

    private var runs: [Run] = []
    /// Where each run starts, ascending.
    private var starts: [Int] = []
    public private(set) var count = 0

    public init() {}
    public init(_ entries: [DiffEntry]) { append(contentsOf: entries) }
    public init(arrayLiteral entries: DiffEntry...) { self.init(entries) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> DiffEntry {
        precondition(position >= 0 && position < count, "diff entry index out of range")
        // The last run starting at or before `position`: runs are few.
        var k = runs.count - 1
        while starts[k] > position { k -= 1 }
        switch runs[k] {
        case .kept(let entries): return entries[position - starts[k]]
        case .made(_, let entry): return entry(position - starts[k])
        }
    }

    public mutating func append(_ entry: DiffEntry) { append(contentsOf: [entry]) }

    public mutating func append(contentsOf entries: [DiffEntry]) {
        guard !entries.isEmpty else { return }
        if case .kept(var last)? = runs.last {
            runs[runs.count - 1] = .kept([])  // so that `last` is the only reference and grows in place
            last += entries
            runs[runs.count - 1] = .kept(last)
            count += entries.count
        } else {
            add(.kept(entries))
        }
    }

    /// `count` entries made when read: `entry(n)` is the n-th, the same every time it is asked.
    public mutating func append(count: Int, made entry: @escaping @Sendable (Int) -> DiffEntry) {
        guard count > 0 else { return }
        add(.made(count: count, entry: entry))
    }

    public static func += (list: inout DiffEntries, entries: [DiffEntry]) { list.append(contentsOf: entries) }

    private mutating func add(_ run: Run) {
        starts.append(count)
        count += run.count
        runs.append(run)
    }

    public static func == (x: DiffEntries, y: DiffEntries) -> Bool { x.count == y.count && x.elementsEqual(y) }
}
