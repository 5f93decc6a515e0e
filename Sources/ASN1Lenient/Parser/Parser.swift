/// Parses BER/DER into a `Tree`, recording the byte range of every node and every defect.
///
/// The parser is iterative (an explicit stack of open constructed elements), never stops at the
/// first problem, and never sizes an allocation by a length read from the input.
public enum ASN1Parser {
    public static func parse(_ bytes: [UInt8], options: ParseOptions = ParseOptions()) -> Tree {
        guard bytes.count <= Int(UInt32.max) else {
            let code = ParserCode.inputTooLarge
            let diagnostic = Diagnostic(severity: code.severity, code: code.code,
                                        message: code.summary, offset: 0, length: 0, node: nil)
            return Tree(bytes: bytes, nodes: [], diagnostics: [diagnostic], roots: [])
        }
        var machine = ParserMachine(count: bytes.count, options: options)
        bytes.withUnsafeBufferPointer { machine.run($0) }
        machine.appendSuppressedSummaries()
        let nodes = NodeStore(storage: machine.finish(keeping: bytes))
        return Tree(bytes: bytes, nodes: nodes, diagnostics: machine.diagnostics, roots: machine.roots)
    }
}

/// One open element whose content is being parsed as children.
struct Frame {
    var node: Int
    /// Content end for a definite length; for an indefinite length, the limit inherited from the
    /// enclosing element (the end-of-contents marker must come before it).
    var end: Int
    var indefinite: Bool
    /// An encapsulation guess: undone, with everything parsed inside it, at the first error.
    var speculative: Bool
    /// A guess's (speculative) count of diagnostics when it opened, the undo point; not read for
    /// other frames (the common loop leaves it 0 there).
    var diagnosticMark: Int
}

struct ParserMachine {
    /// Appended through a pre-reserved pointer; becomes the tree's `NodeStore` in `finish()`.
    var nodes: NodeBuilder
    var diagnostics: [Diagnostic] = []
    var roots: [Int] = []
    /// The open elements, outermost first: `maxDepth + 2` slots reserved up front (nesting never
    /// exceeds `maxDepth + 1`), so a push or pop is a pointer store, with no uniqueness check.
    let frames: UnsafeMutablePointer<Frame>
    /// Number of open elements: the depth of the next node.
    var openCount = 0
    let maxDepth: Int
    let guessEncapsulation: Bool
    /// False only when a test asks for the general path alone (`ParseOptions.generalPathOnly`).
    let fastPaths: Bool
    /// Set while a guessed encapsulation's single element is parsed in place, so that a guess
    /// inside it goes through the frame stack (the parse stays iterative).
    var parsingGuessInPlace = false
    let onPurpose: OffsetSet
    let count: Int
    var position = 0
    /// Number of speculative frames on the stack.
    var speculationDepth = 0
    /// Set when an error is found inside a guess; the main loop then undoes the innermost guess.
    var abortGuess = false
    var reportedTrailing = false
    /// Set by `readsCleanly`: stop at the first structural problem (the answer is known then).
    var stopAtStructural = false
    var stoppedAtStructural = false
    let maxPerCode: Int
    /// Diagnostics recorded per code outside encapsulation guesses (those can be undone).
    var perCode: [ParserCode: Int] = [:]
    /// Per code over the cap: how many were dropped, and the first dropped one.
    var suppressed: [ParserCode: (count: Int, first: Diagnostic)] = [:]
    /// Most nodes this parse builds (`ParseOptions.maxNodes` or the budget the input's size gives).
    let nodeBudget: Int
    /// Set once the budget stopped node building: the rest becomes unparsed regions (`leaveRestUnparsed`).
    var budgetReached = false

    init(count: Int, options: ParseOptions) {
        self.count = count
        self.maxPerCode = max(1, options.maxDiagnosticsPerCode)
        // A node records its depth in 10 bits, and nesting reaches maxDepth + 1 (the unparsed
        // region inside the element that is too deep).
        self.maxDepth = max(0, min(options.maxDepth, Node.maxDepth - 1))
        self.guessEncapsulation = options.guessEncapsulation
        self.fastPaths = !options.generalPathOnly
        self.onPurpose = options.encapsulateOnPurpose
        nodeBudget = max(0, options.maxNodes ?? ParseOptions.nodeBudget(inputBytes: count))
        // Sized from the input, never from anything the input claims: an element takes 2 bytes
        // at least, so half the size (and the regions below) is room for every node, and the
        // buffer never regrows. Regrowing could copy it (a block from the heap, not mapped, is
        // moved by copying): old and new buffer both resident, twice the arena at the peak.
        // Never more than the budget, an unparsed region under an element too deep, and the
        // regions after the budget (one per open element and one after them). Pages reserved and
        // not written cost address space only.
        let most = nodeBudget + maxDepth + 4
        nodes = NodeBuilder(reserving: min(count / 2 + maxDepth + 4, most), atMost: most)
        frames = .allocate(capacity: maxDepth + 2)
    }

    /// Hands the nodes over, with `input`, the array `run` read, and frees the frame stack; the
    /// machine is not used afterwards.
    mutating func finish(keeping input: [UInt8]) -> NodeStorage {
        frames.deallocate()
        return nodes.finish(keeping: input)
    }

    /// Frees everything (a parse whose nodes are not kept).
    func discard() {
        frames.deallocate()
        nodes.discard()
    }

    /// The innermost open element.
    var current: Frame? {
        @inline(__always) get { openCount > 0 ? frames[openCount - 1] : nil }
    }

    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        nodes.input = bytes
        defer { nodes.input = UnsafeBufferPointer(start: nil, count: 0) }
        while true {
            if stoppedAtStructural { break }
            if abortGuess { undoInnermostGuess(); continue }
            if budgetReached { leaveRestUnparsed(); break }
            if fastPaths && openCount > 0 {
                runCommon(bytes)
                if abortGuess || stoppedAtStructural { continue }
            }
            let limit: Int
            if openCount > 0 {
                // Read the fields needed, not the whole frame.
                let top = (end: frames[openCount - 1].end, indefinite: frames[openCount - 1].indefinite,
                           node: frames[openCount - 1].node)
                if top.indefinite {
                    if position + 2 <= top.end && bytes[position] == 0 && bytes[position + 1] == 0 {
                        closeTop(bytes, contentEnd: position, endOfContents: true)
                        position += 2
                        continue
                    }
                    if position >= top.end {
                        reportMissingEOC(node: top.node, end: top.end)
                        closeTop(bytes, contentEnd: top.end, endOfContents: false)
                        continue
                    }
                } else if position >= top.end {
                    closeTop(bytes, contentEnd: top.end, endOfContents: false)
                    continue
                }
                limit = top.end
            } else {
                if position >= count { break }
                if !roots.isEmpty && !reportedTrailing && !reportTrailingData(bytes) { continue }
                limit = count
            }
            parseElement(bytes, limit: limit)
        }
    }

    /// Whether bytes parse as BER elements with sound headers and extents (value defects aside),
    /// without keeping the result.
    static func readsCleanly(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> Bool {
        var machine = ParserMachine(count: bytes.count, options: ParseOptions(maxDepth: maxDepth, guessEncapsulation: false))
        // No trailing-data check inside: it would call readsCleanly again for the rest after each
        // top-level element, recursing once per element (a stack overflow on 50,000 stray 00 00
        // pairs under ASan; millions of them overflow any stack) and re-parsing the tail each time.
        machine.reportedTrailing = true
        // Stop at the first structural problem: parsing the rest would only cost memory (100 MB of
        // zero bytes built 50 million nodes here just to answer "no").
        machine.stopAtStructural = true
        machine.run(bytes)
        defer { machine.discard() }
        return !machine.stoppedAtStructural && !machine.diagnostics.contains { $0.code.parserCode?.isStructural ?? true }
    }

    // MARK: - One element

    /// Reads the element at `position`: almost every element has a one-octet identifier and a
    /// minimal definite length of at most two octets that fits in `limit`, read without the general
    /// header result; anything else takes the general reader.
    @inline(__always)
    mutating func parseElement(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) {
        if budgetSpent { return reachBudget() }
        let start = position
        if fastPaths, let common = BERHeader.readCommon(bytes, at: start, limit: limit) {
            let first = bytes[start]
            addElement(bytes, limit: limit, start: start, first: first, tagNumber: UInt32(first & 0x1F),
                       tagOverflow: false, lengthStart: start &+ 1, contentStart: common.contentStart,
                       declared: common.length, indefinite: false, clamped: false, lengthIssue: .none, lengthValue: 0)
        } else {
            parseElementGenerally(bytes, limit: limit)
        }
    }

    @inline(never)
    mutating func parseElementGenerally(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) {
        let start = position
        let header: BERHeader
        switch BERHeader.read(bytes, at: start, limit: limit) {
        case .success(let read): header = read
        case .failure(let failure): return addUnreadableHeader(failure, from: start, limit: limit)
        }
        let lengthStart = header.lengthStart
        var declared = 0
        var lengthIssue = LengthIssue.none
        var lengthValue: UInt64 = 0
        var indefinite = false
        switch header.length {
        case .definite(let n, let longForm):
            declared = n
            lengthValue = UInt64(n)
            if longForm {
                if bytes[lengthStart + 1] == 0 {
                    lengthIssue = .leadingZero
                } else if header.contentStart - lengthStart == 2 && n < 128 {
                    lengthIssue = .shortFormWouldDo
                }
            }
        case .indefinite:
            indefinite = true
        case .unrepresentable(let value, let octets):
            lengthValue = value
            lengthIssue = octets > 8 ? .tooManyOctets : .overflow
        }
        let unrepresentable = lengthIssue == .tooManyOctets || lengthIssue == .overflow
        let clamped = !indefinite && (unrepresentable || declared > limit - header.contentStart)
        addElement(bytes, limit: limit, start: start, first: header.first, tagNumber: header.tagNumber,
                   tagOverflow: header.tagOverflow, lengthStart: lengthStart, contentStart: header.contentStart,
                   declared: declared, indefinite: indefinite, clamped: clamped, lengthIssue: lengthIssue,
                   lengthValue: lengthValue)
    }

    /// Appends the node for a read header, reports what the header and the value break, and opens
    /// the element's content (a frame) or moves past it. Positions are below `count <= UInt32.max`,
    /// so the arithmetic on them cannot overflow; `clamped`: the content is cut at `limit`.
    @inline(__always)
    mutating func addElement(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int, start: Int, first: UInt8,
                             tagNumber: UInt32, tagOverflow: Bool, lengthStart: Int, contentStart: Int,
                             declared: Int, indefinite: Bool, clamped: Bool, lengthIssue: LengthIssue,
                             lengthValue: UInt64) {
        let constructed = first & 0x20 != 0
        let identifierLength = lengthStart &- start
        let lengthLength = contentStart &- lengthStart
        let index = nodes.count
        let parentIndex = openCount > 0 ? frames[openCount &- 1].node : -1
        var node = Node(offset: start, classBits: first >> 6, constructed: constructed, tagNumber: tagNumber,
                        depth: openCount, identifierLength: identifierLength,
                        lengthLength: lengthLength)
        if indefinite {
            setIndefiniteExtent(&node, bytes, limit: limit)
        } else {
            node.contentLength = UInt32(truncatingIfNeeded: clamped ? limit &- contentStart : declared)
        }
        if !constructed { node.subtreeEnd = Int32(truncatingIfNeeded: index &+ 1) }
        nodes.append(node)
        if parentIndex < 0 { roots.append(index) }

        if identifierLength > 1 { reportLongTagProblems(bytes, index: index, overflow: tagOverflow) }
        if lengthIssue != .none {
            reportLength(lengthIssue, value: lengthValue, octets: lengthLength &- 1, at: lengthStart, node: index)
        }
        if clamped && lengthIssue != .tooManyOctets && lengthIssue != .overflow {
            reportClamped(declared: declared, limit: limit, lengthStart: lengthStart, contentStart: contentStart, node: index)
        }
        let universal = first < 0x40
        if universal {
            if tagNumber == 0 && !constructed { reportEndOfContentsAsElement(index: index, headerEnd: contentStart) }
            if StructureRules.hasFormRule(tagNumber, constructed: constructed) {
                checkConstructedForm(index: index, tagNumber: tagNumber, constructed: constructed)
            }
        }

        if indefinite { return openIndefinite(index: index, constructed: constructed, limit: limit, lengthStart: lengthStart) }
        let contentEnd = contentStart &+ Int(node.contentLength)
        if constructed {
            openFrame(index: index, end: contentEnd, indefinite: false, speculative: false, contentStart: contentStart)
            return
        }
        position = contentEnd
        if universal {
            checkPrimitiveValue(bytes, index: index, tagNumber: tagNumber, content: contentStart..<contentEnd)
            if (tagNumber == 4 || tagNumber == 3) && !abortGuess {
                considerEncapsulation(bytes, index: index, bitString: tagNumber == 3, clamped: clamped,
                                      content: contentStart..<contentEnd)
            }
        }
    }

    /// The content of an indefinite-length element: a constructed one's is found by its children
    /// (set when it closes); a primitive one's runs to the next 00 00, a BER reader's best recovery.
    @inline(never)
    func setIndefiniteExtent(_ node: inout Node, _ bytes: UnsafeBufferPointer<UInt8>, limit: Int) {
        node.set(Node.Flag.indefinite)
        guard !node.isConstructed else { return }
        let contentStart = node.contentStart
        var eoc = contentStart
        while eoc + 1 < limit && !(bytes[eoc] == 0 && bytes[eoc + 1] == 0) { eoc += 1 }
        let eocFound = eoc + 1 < limit
        node.contentLength = UInt32(eocFound ? eoc - contentStart : limit - contentStart)
        if eocFound { node.set(Node.Flag.hasEOC) }
    }

    @inline(never)
    mutating func openIndefinite(index: Int, constructed: Bool, limit: Int, lengthStart: Int) {
        if constructed {
            report(.indefiniteLength, at: lengthStart, length: 1, node: index,
                   "indefinite length (0x80): the content ends at an end-of-contents marker")
            openFrame(index: index, end: limit, indefinite: true, speculative: false, contentStart: lengthStart + 1)
        } else {
            report(.indefinitePrimitive, at: lengthStart, length: 1, node: index,
                   "a primitive element cannot use the indefinite length form")
            position = nodes[index].end
        }
    }

    /// Pushes a frame for a constructed element, or turns its content into an unparsed region when
    /// nesting is already at the limit.
    mutating func openFrame(index: Int, end: Int, indefinite: Bool, speculative: Bool, contentStart: Int) {
        if openCount + 1 > maxDepth { return openTooDeep(index: index, end: end, contentStart: contentStart) }
        if speculative { speculationDepth += 1 }
        push(Frame(node: index, end: end, indefinite: indefinite, speculative: speculative,
                   diagnosticMark: diagnostics.count))
        position = contentStart
    }

    /// At the nesting limit: the content becomes one unparsed region under the element.
    @inline(never)
    mutating func openTooDeep(index: Int, end: Int, contentStart: Int) {
        report(.nestingTooDeep, at: Int(nodes[index].offset), length: nodes[index].headerLength, node: index,
               "nesting deeper than \(maxDepth) levels; the content is not parsed")
        nodes[index].contentLength = UInt32(end - contentStart)
        push(Frame(node: index, end: end, indefinite: false, speculative: false,
                   diagnosticMark: diagnostics.count))
        if end > contentStart { appendUnparsedNode(from: contentStart, to: end) }
        position = end
    }

    @inline(__always)
    mutating func push(_ frame: Frame) {
        precondition(openCount <= maxDepth, "frame stack overflow")
        (frames + openCount).initialize(to: frame)
        openCount += 1
    }

    @inline(__always)
    mutating func closeTop(_ bytes: UnsafeBufferPointer<UInt8>, contentEnd: Int, endOfContents: Bool) {
        let frame = frames[openCount - 1]
        // A guess must be exactly one element filling the whole content: its first child's
        // subtree then ends where the arena ends.
        if frame.speculative && !(nodes.count > frame.node + 1 && Int(nodes[frame.node + 1].subtreeEnd) == nodes.count) {
            abortGuess = true
            return
        }
        openCount -= 1
        if frame.speculative { speculationDepth -= 1 }
        // Patched in place, field by field. A definite length's content already ends at
        // `frame.end`; an indefinite one's ends here (an encapsulating node is never indefinite).
        // The header lengths are read from the whole node (they may be in the escape table).
        if frame.indefinite { nodes[frame.node].contentLength = UInt32(contentEnd - nodes[frame.node].contentStart) }
        let packed = nodes.pointer(to: frame.node)
        if endOfContents { packed.pointee.set(Node.Flag.hasEOC) }
        packed.pointee.subtreeEnd = Int32(truncatingIfNeeded: nodes.count)
        if packed.pointee.isEncapsulated {
            position = nodes[frame.node].contentEnd
        } else if packed.pointee.isUniversal(17) {
            checkSetOrder(bytes, index: frame.node)
        }
    }

    /// Undoes the innermost encapsulation guess: the node becomes a plain byte string again and
    /// nothing found inside it remains.
    mutating func undoInnermostGuess() {
        abortGuess = false
        guard let k = (0..<openCount).last(where: { frames[$0].speculative }) else { return }
        let frame = frames[k]
        openCount = k
        speculationDepth -= 1
        nodes.removeAll(from: frame.node + 1)
        diagnostics.removeSubrange(frame.diagnosticMark...)
        nodes[frame.node].set(Node.Flag.encapsulated, false)
        nodes[frame.node].subtreeEnd = Int32(frame.node + 1)
        position = nodes[frame.node].contentEnd
    }
}
