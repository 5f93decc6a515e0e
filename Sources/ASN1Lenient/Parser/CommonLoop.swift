extension ParserMachine {
    /// The element loop for what almost every element is (git log -p docs/performance.md, "parse loop in
    /// locals"): inside definite-length content, a one-octet identifier and a minimal definite
    /// length that fits, nothing to report, an OCTET STRING whose guess is one plainly sound
    /// primitive element, and closes that report nothing (a guess that holds, a SET in order; see
    /// "parse at a hundred instructions per node"). Its state (cursor, depth, node count, the open
    /// element) stays in locals and is written back when it returns; it returns before touching
    /// anything at the first element or close that is not that, which the general turn in `run`
    /// then handles exactly as without it.
    /// Requires `!abortGuess && !stoppedAtStructural` (the general loop's state between turns).
    mutating func runCommon(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard openCount > 0, !frames[openCount &- 1].indefinite else { return }
        // Few locals, so that the loop's state stays in registers; what is needed rarely is read
        // from `self` where it is needed.
        var depth = openCount
        // The depth as a node records it, kept beside it: fewer values derived per element
        // (callgrind: ≈ 4 instructions per node fewer than deriving them from `depth`).
        var depthBits = PackedNode.depthBits(depth)
        var pos = position
        var count = nodes.count
        // Room for nodes: the buffer's, or less when the budget ends first (the general turn then
        // reports it). The nodes written here need no escape entry: each one's content length is
        // the minimal definite length its header declares (`PackedNode.definiteLength`).
        let capacity = min(nodes.capacity, nodeBudget &- nodes.escapes.count), base = nodes.base, frames = self.frames
        var topEnd = frames[depth &- 1].end, topNode = frames[depth &- 1].node
        let anyOnPurpose = !onPurpose.isEmpty
        defer {
            position = pos
            openCount = depth
            nodes.setCount(count)
        }
        while true {
            if pos >= topEnd {
                // A close, judged as `closeTop` would before anything is written: a guess holds when
                // its first child's subtree ends where the nodes end (exactly one element filling the
                // content, which ends here), a SET when its children are in DER order. A failed guess,
                // a SET out of order (both reported or undone by the general turn) and an on-purpose
                // encapsulation are left to the general turn.
                let node = base + topNode
                if frames[depth &- 1].speculative {
                    guard count > topNode &+ 1,
                          base[topNode &+ 1].subtreeEnd == Int32(truncatingIfNeeded: count) else { return }
                    speculationDepth -= 1
                } else if node.pointee.isEncapsulated {
                    return
                } else if node.pointee.isUniversal(17) {
                    guard Self.setChildrenAreInOrder(bytes, nodes: base, first: topNode &+ 1, end: count,
                                                     contentEnd: topEnd) else { return }
                }
                node.pointee.subtreeEnd = Int32(truncatingIfNeeded: count)
                depth &-= 1
                depthBits &-= 1 &<< UInt32(Node.Flag.depthShift)
                if depth == 0 { return }
                if frames[depth &- 1].indefinite { return }
                topEnd = frames[depth &- 1].end
                topNode = frames[depth &- 1].node
                continue
            }
            let room = topEnd &- pos
            guard count < capacity, room >= 2 else { return }
            let first = bytes[pos]
            let universal = first < 0x40
            // `readCommon`'s identifier check and "is this universal header reported?" (a stray
            // end-of-contents marker, a form X.690 forbids) as one test for universal octets.
            if universal ? StructureRules.universalFirstsNotTaken &>> UInt64(first) & 1 != 0 : first & 0x1F == 0x1F {
                return
            }
            guard let header = BERHeader.readCommonLength(bytes, at: pos, room: room) else { return }
            let tagNumber = UInt32(first & 0x1F)
            let constructed = first & 0x20 != 0
            let contentStart = header.contentStart, contentEnd = contentStart &+ header.length
            let index = count
            var node = PackedNode(offset: pos, first: first, depthBits: depthBits,
                            lengthLength: contentStart &- pos &- 1)
            if constructed {
                if depth >= maxDepth { return }
                (base + index).initialize(to: node)
                count = index &+ 1
                (frames + depth).initialize(to: Frame(node: index, end: contentEnd, indefinite: false,
                                                      speculative: false, diagnosticMark: 0))
                topEnd = contentEnd
                topNode = index
                depth &+= 1
                depthBits &+= 1 &<< UInt32(Node.Flag.depthShift)
                pos = contentStart
                continue
            }
            node.subtreeEnd = Int32(truncatingIfNeeded: index &+ 1)
            if universal && (tagNumber == 4 || tagNumber == 3) {
                if tagNumber == 3 || (anyOnPurpose && onPurpose.contains(pos)) { return }
                // `considerEncapsulation`'s decision, in its order; any header `readCommon` does not
                // take is left to it.
                if guessEncapsulation && header.length >= 2 && bytes[contentStart] != 0 && depth < maxDepth {
                    guard let inner = BERHeader.readCommon(bytes, at: contentStart, limit: contentEnd) else { return }
                    if inner.contentStart &+ inner.length == contentEnd {
                        let innerFirst = bytes[contentStart]
                        node.set(Node.Flag.encapsulated)
                        if innerFirst & 0x20 != 0 {
                            // A constructed guess: its content goes through the frame stack. (The
                            // frame opening is written out as above: a shared local function cost
                            // 5 % more instructions on the payload, callgrind.)
                            (base + index).initialize(to: node)
                            count = index &+ 1
                            speculationDepth += 1
                            (frames + depth).initialize(to: Frame(node: index, end: contentEnd, indefinite: false,
                                                                  speculative: true, diagnosticMark: diagnostics.count))
                            topEnd = contentEnd
                            topNode = index
                            depth &+= 1
                            depthBits &+= 1 &<< UInt32(Node.Flag.depthShift)
                            pos = contentStart
                            continue
                        }
                        // One primitive element filling the content, with nothing to report: the guess
                        // holds, so both nodes are written as the guess's frame would leave them.
                        let innerTag = UInt32(innerFirst & 0x1F)
                        let innerContent = Range(uncheckedBounds: (inner.contentStart, contentEnd))
                        // An INTEGER is checked without the per-type dispatch, as below.
                        let innerSound = innerFirst == 0x02
                            ? Self.valueIsPlainlySound(bytes, tagNumber: 2, content: innerContent)
                            : innerFirst >= 0x40 || !(innerTag == 4 || innerTag == 3
                                || StructureRules.headerIsReported(universalFirst: innerFirst))
                                && Self.valueIsPlainlySound(bytes, tagNumber: innerTag, content: innerContent)
                        if !innerSound { return }
                        if capacity &- count < 2 { return }
                        node.subtreeEnd = Int32(truncatingIfNeeded: index &+ 2)
                        (base + index).initialize(to: node)
                        var value = PackedNode(offset: contentStart, first: innerFirst,
                                         depthBits: depthBits &+ 1 &<< UInt32(Node.Flag.depthShift),
                                         lengthLength: inner.contentStart &- contentStart &- 1)
                        value.subtreeEnd = Int32(truncatingIfNeeded: index &+ 2)
                        (base + (index &+ 1)).initialize(to: value)
                        count = index &+ 2
                        pos = contentEnd
                        continue
                    }
                }
                (base + index).initialize(to: node)
                count = index &+ 1
                pos = contentEnd
                continue
            }
            (base + index).initialize(to: node)
            count = index &+ 1
            pos = contentEnd
            let content = Range(uncheckedBounds: (contentStart, contentEnd))
            // Most values are INTEGERs: their check is specialised on the identifier octet, so that
            // it runs without the per-type dispatch (the same function, given a constant tag).
            let soundValue = first == 0x02 ? Self.valueIsPlainlySound(bytes, tagNumber: 2, content: content)
                : !universal || Self.valueIsPlainlySound(bytes, tagNumber: tagNumber, content: content)
            if !soundValue {
                // Rare enough to pay the call; a defect inside a guess ends the loop (the guess is undone).
                checkPrimitiveValueInDetail(bytes, index: index, tagNumber: tagNumber, content: content)
                if abortGuess || stoppedAtStructural { return }
            }
        }
    }
}
