extension ParserMachine {
    /// Decides whether a primitive OCTET STRING / BIT STRING gets its content parsed as children:
    /// on purpose (the caller knows it is ASN.1) or as a guess that is undone at the first error.
    /// `clamped`: the element's length ran past what is there; only a caller who knows the content
    /// is ASN.1 gets it parsed then (to show what survives of a truncated receipt payload).
    /// `content`: the node's content octets.
    @inline(__always)
    mutating func considerEncapsulation(_ bytes: UnsafeBufferPointer<UInt8>, index: Int, bitString: Bool,
                                        clamped: Bool, content: Range<Int>) {
        let onPurpose = !self.onPurpose.isEmpty && self.onPurpose.contains(Int(nodes[index].offset))
        guard onPurpose || (guessEncapsulation && !clamped) else { return }
        var innerStart = content.lowerBound
        if bitString {
            // Only a BIT STRING with no unused bits can hold whole octets of ASN.1.
            guard !content.isEmpty, bytes[innerStart] == 0 else { return }
            innerStart += 1
        }
        let innerEnd = content.upperBound
        guard innerEnd > innerStart else { return }
        if !onPurpose && !looksLikeOneElement(bytes, from: innerStart, to: innerEnd) { return }
        guard openCount < maxDepth else {
            if onPurpose { reportEncapsulationTooDeep(index: index) }
            return
        }
        nodes.pointer(to: index).pointee.set(Node.Flag.encapsulated)
        openFrame(index: index, end: innerEnd, indefinite: false, speculative: !onPurpose, contentStart: innerStart)
        // Most guesses hold one primitive element (a receipt attribute's value): parse it and close
        // the guess now rather than in two more turns of the main loop.
        if fastPaths && !onPurpose && !parsingGuessInPlace && bytes[innerStart] & 0x20 == 0 {
            parseGuessInPlace(bytes, end: innerEnd)
        }
    }

    @inline(never)
    mutating func reportEncapsulationTooDeep(index: Int) {
        let node = nodes[index]
        report(.nestingTooDeep, at: Int(node.offset), length: node.headerLength, node: index,
               "nesting deeper than \(maxDepth) levels; the encapsulated content is not parsed")
    }

    /// Parses a guess's first element and closes the guess when the main loop's next turn would
    /// (nothing failed, no frame was opened, the content is used up); otherwise leaves it to the loop.
    /// Never nests: a guess inside the element goes through the frame stack.
    mutating func parseGuessInPlace(_ bytes: UnsafeBufferPointer<UInt8>, end: Int) {
        let openBefore = openCount
        parsingGuessInPlace = true
        parseElement(bytes, limit: end)
        parsingGuessInPlace = false
        if !abortGuess && !stoppedAtStructural && openCount == openBefore && position >= end {
            closeTop(bytes, contentEnd: end, endOfContents: false)
        }
    }

    /// A cheap pre-check so that most byte strings are never speculatively parsed: the content must
    /// start with a header whose definite length spans exactly the rest (or is indefinite), and not
    /// with an end-of-contents tag.
    @inline(__always)
    func looksLikeOneElement(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        end > start && bytes[start] != 0 && BERHeader.spansExactlyOneElement(bytes, from: start, to: end)
    }
}
