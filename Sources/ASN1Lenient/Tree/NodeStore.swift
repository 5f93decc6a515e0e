import Platform
import Threads

/// A tree's nodes in pre-order (`Tree.nodes`): one manually managed buffer, written by the parser
/// and immutable afterwards, so a read is a bounds check and a load (no uniqueness check, no
/// copy-on-write) and copies of a tree share the buffer.
///
/// Indices are `0..<count`, as with the `[Node]` it replaces; it is a `RandomAccessCollection`, so
/// iteration, `indices`, `map`, `allSatisfy` and slicing work as before.
public struct NodeStore: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
    /// Owns the memory; read through it so that it stays alive for the whole access.
    @usableFromInline let storage: NodeStorage

    @usableFromInline init(storage: NodeStorage) { self.storage = storage }

    public init() { self.init(storage: NodeStorage.empty) }

    /// The nodes of a tree of `input` (the bytes their offsets point into; without them every
    /// node keeps its content length in the escape table).
    public init<S: Sequence>(_ nodes: S, input: [UInt8] = []) where S.Element == Node {
        var builder = NodeBuilder(reserving: nodes.underestimatedCount)
        input.withUnsafeBufferPointer { pointer in
            builder.input = pointer
            for node in nodes { builder.append(node) }
        }
        builder.input = UnsafeBufferPointer(start: nil, count: 0)
        self.init(storage: builder.finish(keeping: input))
    }

    public init(arrayLiteral nodes: Node...) { self.init(nodes) }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { storage.count }
    @inlinable public var count: Int { storage.count }
    /// Nodes the buffer holds room for (the parser trims it to `count` when it finishes).
    public var capacity: Int { storage.capacity }
    /// Bytes the buffer takes per node (`PackedNode`), escape table aside.
    public static var bytesPerNode: Int { MemoryLayout<PackedNode>.stride }
    /// Bytes of the escape table (the values of nodes whose extent, tag number or header lengths
    /// do not fit in the 12-byte node; nothing for almost every tree).
    public var escapeTableBytes: Int { storage.escapes.count * MemoryLayout<NodeEscape>.stride }

    @inlinable @inline(__always)
    public subscript(index: Int) -> Node {
        precondition(index >= 0 && index < storage.count, "node index out of range")
        let packed = storage.base[index]
        if packed.isEscaped { return NodeEscape.node(packed, at: index, in: storage.escapes) }
        return storage.input.withUnsafeBufferPointer { packed.unpacked($0.baseAddress.unsafelyUnwrapped) }
    }

    /// The nodes, read without the store's bounds check and reference counting; valid only inside `body`.
    @inlinable
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeNodeBuffer) throws -> R) rethrows -> R {
        try storage.input.withUnsafeBufferPointer { input in
            try withExtendedLifetime(storage) {
                try body(UnsafeNodeBuffer(base: UnsafePointer(storage.base), count: storage.count, escapes: storage.escapes,
                                          input: input.baseAddress))
            }
        }
    }

    /// Index of the node's parent, or -1 for a top-level node. Not stored in the node (4 more bytes
    /// a node): in pre-order the parent is the nearest node before with one less depth. It is looked
    /// for a few nodes back and back to the start of the node's block of `parentBlock` nodes; past
    /// that, every node from the block's first on is deeper, so the parent is an ancestor of that
    /// first node, whose parent a table of one entry a block (made on first need) gives.
    public func parentIndex(_ index: Int) -> Int {
        let depth = self[index].depth
        if depth == 0 { return -1 }
        let blockStart = index & ~(NodeStorage.parentBlock - 1)
        var candidate = index - 1
        let stop = Swift.max(Swift.min(blockStart, index - 32), 0)
        while candidate >= stop {
            if storage.base[candidate].depth < depth { return candidate }
            candidate -= 1
        }
        var ancestor = Int(storage.blockParents()[blockStart / NodeStorage.parentBlock])
        while ancestor >= 0 && storage.base[ancestor].depth >= depth { ancestor = parentIndex(ancestor) }
        return ancestor
    }

    public static func == (a: NodeStore, b: NodeStore) -> Bool {
        a.storage === b.storage || a.elementsEqual(b)
    }
}

/// The nodes of a `NodeStore` as its `withUnsafeBufferPointer` lends them: a packed node is
/// unpacked where it is read, an escaped one with its values from the escape table.
public struct UnsafeNodeBuffer: RandomAccessCollection {
    @usableFromInline let base: UnsafePointer<PackedNode>
    public let count: Int
    @usableFromInline let escapes: UnsafeBufferPointer<NodeEscape>
    /// The tree's input, where packed nodes' content lengths are read (nil only with no packed node).
    @usableFromInline let input: UnsafePointer<UInt8>?

    @inlinable
    init(base: UnsafePointer<PackedNode>, count: Int, escapes: UnsafeBufferPointer<NodeEscape>,
         input: UnsafePointer<UInt8>?) {
        self.base = base
        self.count = count
        self.escapes = escapes
        self.input = input
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    /// Checked in debug builds only, as `UnsafeBufferPointer`'s subscript is.
    @inlinable @inline(__always)
    public subscript(index: Int) -> Node {
        assert(index >= 0 && index < count, "node index out of range")
        let packed = base[index]
        if packed.isEscaped { return NodeEscape.node(packed, at: index, in: escapes) }
        return packed.unpacked(input.unsafelyUnwrapped)
    }
}

/// The buffer behind a `NodeStore`: `malloc`ed, so that it can grow and be trimmed with `realloc`
/// (which moves pages instead of copying them for large blocks), and freed with its owner.
@usableFromInline
// @unchecked: `NodeBuilder` writes the buffer before this object exists; it is only read after, so threads
// may share it; the one mutable field, the parent table, is read and written under `parentTableLock`.
final class NodeStorage: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<PackedNode>
    @usableFromInline let count: Int
    let capacity: Int
    /// The values of the escaped nodes, in index order (empty, and not allocated, for almost every
    /// tree). Owned like `base`, so that a reader borrows it without a closure.
    @usableFromInline let escapes: UnsafeBufferPointer<NodeEscape>
    /// The tree's input (shared with it, not copied): packed nodes' content lengths are read from
    /// their length octets there.
    @usableFromInline let input: [UInt8]

    /// Shared by every empty store (a tree with no nodes allocates nothing).
    static let empty = NodeStorage(base: NodeBuilder.allocate(1), count: 0, capacity: 0, escapes: [], input: [])

    init(base: UnsafeMutablePointer<PackedNode>, count: Int, capacity: Int, escapes: [NodeEscape], input: [UInt8]) {
        self.base = base
        self.count = count
        self.capacity = capacity
        self.input = input
        if escapes.isEmpty {
            self.escapes = UnsafeBufferPointer(start: nil, count: 0)
        } else {
            let copy = UnsafeMutablePointer<NodeEscape>.allocate(capacity: escapes.count)
            copy.initialize(from: escapes, count: escapes.count)
            self.escapes = UnsafeBufferPointer(start: copy, count: escapes.count)
        }
    }


    /// Nodes per block of `parentIndex`'s search (a power of two).
    static let parentBlock = 256
    /// `parentIndex`'s table, made on first need, only for the stores that ask: the parent of each
    /// block's first node (a 5 MB flat SEQUENCE's whole parent table was 6.7 MB; this one is 26 KB).
    private var blockParentTable: [Int32]?
    private static let parentTableLock = Lock()

    func blockParents() -> [Int32] {
        Self.parentTableLock.withLock {
            if let blockParentTable { return blockParentTable }
            // The last node seen at each depth: the ancestors of the node being read.
            var open = [Int32](repeating: -1, count: Node.maxDepth + 1)
            var table = [Int32](repeating: -1, count: (count + Self.parentBlock - 1) / Self.parentBlock)
            for index in 0..<count {
                let depth = Int(base[index].depth)
                open[depth] = Int32(truncatingIfNeeded: index)
                if index & (Self.parentBlock - 1) == 0, depth > 0 { table[index / Self.parentBlock] = open[depth - 1] }
            }
            blockParentTable = table
            return table
        }
    }

    deinit {
        free(base)
        escapes.baseAddress.map { UnsafeMutablePointer(mutating: $0).deallocate() }
    }
}

/// The parser's side of the store: appends through a pre-reserved pointer (no uniqueness check per
/// node), reads and patches nodes while their subtrees are open, and hands the buffer to a
/// `NodeStorage` when the parse ends. A value type, so the hot loop pays no exclusivity checks; it
/// owns its memory until `finish()` or `discard()`, which every path must call exactly once.
struct NodeBuilder {
    private(set) var base: UnsafeMutablePointer<PackedNode>
    private(set) var count = 0
    private(set) var capacity: Int
    /// The escaped nodes' values, in index order.
    private(set) var escapes: [NodeEscape] = []
    /// The input the nodes are parsed from, valid while they are built (set by the owner): packing
    /// a node reads its length octets to tell whether its content length needs the escape table.
    var input = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    /// The most nodes the owner appends (the parser's node budget and the regions after it): the
    /// buffer grows by doubling up to it, never past it.
    let maxCapacity: Int

    init(reserving capacity: Int, atMost maxCapacity: Int = .max) {
        self.maxCapacity = maxCapacity
        self.capacity = max(min(capacity, maxCapacity), 1)
        base = Self.allocate(self.capacity)
    }

    static func allocate(_ capacity: Int) -> UnsafeMutablePointer<PackedNode> {
        let size = capacity * MemoryLayout<PackedNode>.stride
        guard let raw = malloc(size) else { fatalError("out of memory for \(capacity) nodes") }
        adviseHugePages(raw, size: size)
        return raw.bindMemory(to: PackedNode.self, capacity: capacity)
    }

    /// A large parse writes tens of megabytes of nodes once, front to back: with 2 MB pages the
    /// first writes fault once per 2 MB instead of once per 4 KB, and the TLB covers them (Linux,
    /// where transparent huge pages are often `madvise` only; git log -p docs/performance.md, 2026-11-23).
    /// Only a hint: the pages the block shares with its neighbours are not harmed by it.
    static func adviseHugePages(_ raw: UnsafeMutableRawPointer, size: Int) {
        guard let advice = MemoryAdvice.hugePages else { return }
        let hugePage = 2 << 20
        guard size >= 4 * hugePage else { return }
        let start = UInt(bitPattern: raw) & ~UInt(4095)
        let end = UInt(bitPattern: raw) + UInt(size)
        _ = madvise(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), advice)
    }

    subscript(index: Int) -> Node {
        @inline(__always) get {
            precondition(index >= 0 && index < count, "node index out of range")
            let packed = base[index]
            if packed.isEscaped { return escapes.withUnsafeBufferPointer { NodeEscape.node(packed, at: index, in: $0) } }
            return packed.unpacked(input.baseAddress.unsafelyUnwrapped)
        }
        @inline(__always) set {
            precondition(index >= 0 && index < count, "node index out of range")
            let packed = PackedNode(newValue, input: input)
            if packed.isEscaped || base[index].isEscaped { setEscape(packed.isEscaped ? newValue : nil, at: index) }
            base[index] = packed
        }
    }

    /// The node at `index`, to patch its subtree end or flags without copying the node out and back
    /// (its content length, tag number and header lengths may be in the escape table; the content
    /// length is set through the subscript).
    @inline(__always)
    func pointer(to index: Int) -> UnsafeMutablePointer<PackedNode> {
        precondition(index >= 0 && index < count, "node index out of range")
        return base + index
    }

    @inline(__always)
    mutating func append(_ node: Node) {
        if count == capacity { resize(to: max(min(capacity * 2, maxCapacity), capacity + 1)) }
        let packed = PackedNode(node, input: input)
        if packed.isEscaped { escapes.append(NodeEscape(index: count, node)) }
        (base + count).initialize(to: packed)
        count += 1
    }

    /// Records, replaces or (`node` nil) drops the escape entry of the node at `index`.
    @inline(never)
    private mutating func setEscape(_ node: Node?, at index: Int) {
        let position = escapes.withUnsafeBufferPointer { NodeEscape.position(of: index, in: $0) }
        switch (node, position) {
        case (let node?, let position?): escapes[position] = NodeEscape(index: index, node)
        case (let node?, nil):
            let insertion = escapes.firstIndex { Int($0.index) > index } ?? escapes.endIndex
            escapes.insert(NodeEscape(index: index, node), at: insertion)
        case (nil, let position?): escapes.remove(at: position)
        case (nil, nil): break
        }
    }

    /// Takes in the nodes a caller initialised itself at `base[count..<newCount]` (the parser's
    /// common-element loop keeps its cursor in a register and writes the count back once).
    @inline(__always)
    mutating func setCount(_ newCount: Int) {
        precondition(newCount >= count && newCount <= capacity, "node count out of range")
        count = newCount
    }

    /// Drops the nodes from `index` on (an undone encapsulation guess).
    mutating func removeAll(from index: Int) {
        precondition(index >= 0 && index <= count, "node index out of range")
        count = index
        while let last = escapes.last, Int(last.index) >= index { escapes.removeLast() }
    }

    private mutating func resize(to newCapacity: Int) {
        guard let raw = realloc(base, newCapacity * MemoryLayout<PackedNode>.stride) else {
            fatalError("out of memory for \(newCapacity) nodes")
        }
        base = raw.bindMemory(to: PackedNode.self, capacity: newCapacity)
        capacity = newCapacity
    }

    /// Trims the buffer to the nodes written and gives it to a storage object, with `input`: the
    /// array `self.input` pointed into, kept alive with the nodes.
    mutating func finish(keeping input: [UInt8]) -> NodeStorage {
        if count == 0 {
            free(base)
            return NodeStorage.empty
        }
        if capacity > count { resize(to: count) }
        return NodeStorage(base: base, count: count, capacity: capacity, escapes: escapes, input: input)
    }

    /// Frees the buffer without keeping the nodes.
    func discard() { free(base) }
}
