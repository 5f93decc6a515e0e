extension ParserMachine {
    /// Decides whether a primitive OCTET STRING / BIT STRING gets its content parsed as children:
    /// on purpose (the caller knows it is ASN.1) or as a guess that is undone at the first error.
    /// `clamped`: the element's length ran past what is there; only a caller who knows the content
    /// is ASN.1 gets it parsed then (to show what survives of a truncated receipt payload).
    mutating func considerEncapsulation(_ bytes: UnsafeBufferPointer<UInt8>, index: Int, bitString: Bool,
                                        clamped: Bool) {
        let node = nodes[index]
        let onPurpose = !self.onPurpose.isEmpty && self.onPurpose.contains(Int(node.offset))
        guard onPurpose || (guessEncapsulation && !clamped) else { return }
        var innerStart = node.contentStart
        if bitString {
            // Only a BIT STRING with no unused bits can hold whole octets of ASN.1.
            guard node.contentLength >= 1, bytes[innerStart] == 0 else { return }
            innerStart += 1
        }
        let innerEnd = node.contentEnd
        guard innerEnd > innerStart else { return }
        if !onPurpose && !looksLikeOneElement(bytes, from: innerStart, to: innerEnd) { return }
        guard openCount < maxDepth else {
            if onPurpose {
                report(.nestingTooDeep, at: Int(node.offset), length: node.headerLength, node: index,
                       "nesting deeper than \(maxDepth) levels; the encapsulated content is not parsed")
            }
            return
        }
        nodes[index].set(Node.Flag.encapsulated)
        openFrame(index: index, end: innerEnd, indefinite: false, speculative: !onPurpose, contentStart: innerStart)
    }

    /// A cheap pre-check so that most byte strings are never speculatively parsed: the content must
    /// start with a header whose definite length spans exactly the rest (or is indefinite).
    func looksLikeOneElement(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        guard end - start >= 2 else { return false }
        var p = start
        let first = bytes[p]
        if first == 0 { return false }
        p += 1
        if first & 0x1F == 0x1F {
            while p < end && bytes[p] & 0x80 != 0 { p += 1 }
            p += 1
        }
        guard p < end else { return false }
        let lengthOctet = bytes[p]
        p += 1
        if lengthOctet == 0x80 { return first & 0x20 != 0 }
        if lengthOctet < 0x80 { return p + Int(lengthOctet) == end }
        let octets = Int(lengthOctet & 0x7F)
        guard octets <= 8, p + octets <= end else { return false }
        var value = 0
        for i in 0..<octets { value = (value << 8) | Int(bytes[p + i]) }
        guard value >= 0 else { return false }
        // Compare against what remains instead of adding: `p + octets + value` overflows for a
        // claimed length near Int.max (found by the FuzzParse fuzzer; Fuzz/regressions/).
        return value == end - p - octets
    }
}
