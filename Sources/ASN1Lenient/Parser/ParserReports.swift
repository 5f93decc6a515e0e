/// How the parser words what it finds: header problems, unparsed regions, and the per-code cap
/// on diagnostics (kept apart from the element walk in Parser.swift).
extension ParserMachine {
    enum LengthIssue { case none, tooManyOctets, overflow, leadingZero, shortFormWouldDo }

    mutating func reportLength(_ issue: LengthIssue, value: UInt64, octets: Int, at offset: Int, node: Int) {
        switch issue {
        case .none: return
        case .tooManyOctets:
            report(.lengthTooManyOctets, at: offset, length: octets + 1, node: node,
                   "\(octets) length octets; at most 8 can be represented")
        case .overflow:
            report(.lengthOverflow, at: offset, length: octets + 1, node: node,
                   "a length of \(value) is beyond any addressable size")
        case .leadingZero:
            report(.lengthNotMinimal, at: offset, length: octets + 1, node: node,
                   "the length \(value) has a leading 0x00 length octet")
        case .shortFormWouldDo:
            report(.lengthNotMinimal, at: offset, length: octets + 1, node: node,
                   "the length \(value) fits the short form but uses the long form")
        }
    }

    /// Records a header that cannot be read as an unparsed region running to `limit`.
    mutating func addUnreadableHeader(_ failure: BERHeader.Failure, from start: Int, limit: Int) {
        switch failure {
        case .truncatedIdentifier:
            addUnparsed(from: start, to: limit, cause: .truncatedIdentifier,
                        "the identifier's long-form tag number runs to offset \(limit) without a final octet")
        case .identifierTooLong:
            addUnparsed(from: start, to: limit, cause: .tagTooLarge,
                        "the identifier runs past \(BERHeader.maxIdentifierLength) octets; the element's extent is unknown")
        case .missingLength:
            addUnparsed(from: start, to: limit, cause: .truncatedLength,
                        "the element at offset \(start) has no length octets before offset \(limit)")
        case .reservedLength(let lengthStart):
            addUnparsed(from: start, to: limit, cause: .lengthReserved, causeAt: lengthStart, causeLength: 1,
                        "length octet 0xFF is reserved; the element's extent is unknown")
        case .truncatedLength(_, let octets, let available):
            addUnparsed(from: start, to: limit, cause: .truncatedLength,
                        "the length announces \(octets) length octets but only \(available) byte(s) remain before offset \(limit)")
        }
    }

    /// Junk after the element (a common copy-paste accident) is one region under one warning;
    /// only bytes that read cleanly as further elements are shown as such. False when the rest
    /// became that region (nothing is left to parse).
    @inline(never)
    mutating func reportTrailingData(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        reportedTrailing = true
        let readable = Self.readsCleanly(UnsafeBufferPointer(rebasing: bytes[position...]), maxDepth: maxDepth)
        report(.trailingData, at: position, length: count - position, node: nil,
               "\(count - position) byte(s) follow the top-level element, which ends at offset \(position)"
               + (readable ? "" : "; they do not read as ASN.1"))
        if readable { return true }
        appendUnparsedNode(from: position, to: count)
        position = count
        return false
    }

    @inline(never)
    mutating func reportMissingEOC(node index: Int, end: Int) {
        let node = nodes[index]
        report(.missingEOC, at: node.lengthRange.lowerBound, length: 1, node: index,
               "indefinite length opened at offset \(node.offset) is never closed by an end-of-contents marker (00 00) before offset \(end)")
    }

    @inline(never)
    mutating func reportClamped(declared: Int, limit: Int, lengthStart: Int, contentStart: Int, node index: Int) {
        let available = limit - contentStart
        if limit == count {
            report(.truncatedContent, at: lengthStart, length: contentStart - lengthStart, node: index,
                   "the length claims \(declared) content octets but the input ends after \(available)")
        } else {
            report(.lengthExceedsParent, at: lengthStart, length: contentStart - lengthStart, node: index,
                   "the length claims \(declared) content octets but only \(available) remain before the enclosing element ends at offset \(limit)")
        }
    }

    mutating func reportLongTagProblems(_ bytes: UnsafeBufferPointer<UInt8>, index: Int, overflow: Bool) {
        let node = nodes[index]
        let start = Int(node.offset), length = Int(node.identifierLength)
        if bytes[start + 1] == 0x80 {
            report(.tagLeadingZero, at: start, length: length, node: index,
                   "the long-form tag number starts with 0x80, a padding octet")
        }
        if overflow {
            report(.tagTooLarge, at: start, length: length, node: index, "the tag number needs more than 32 bits")
        } else if node.tagNumber < 31 {
            report(.tagNotMinimal, at: start, length: length, node: index,
                   "tag number \(node.tagNumber) must use the one-octet form")
        }
    }

    mutating func reportEndOfContentsAsElement(index: Int, headerEnd: Int) {
        let start = Int(nodes[index].offset)
        if current?.indefinite == true {
            report(.eocNonZeroLength, at: start, length: headerEnd - start, node: index,
                   "an end-of-contents marker must be 00 00; this one has a non-zero length")
        } else {
            report(.strayEOC, at: start, length: headerEnd - start, node: index,
                   "an end-of-contents marker outside any indefinite-length element")
        }
    }

    // MARK: - Regions and reports

    /// Records bytes that cannot be read as TLVs and moves past them.
    mutating func addUnparsed(from start: Int, to end: Int, cause: ParserCode, causeAt: Int? = nil,
                              causeLength: Int? = nil, _ message: String) {
        let index = appendUnparsedNode(from: start, to: end)
        report(cause, at: causeAt ?? start, length: causeLength ?? (end - start), node: index, message)
        position = end
    }

    @discardableResult
    mutating func appendUnparsedNode(from start: Int, to end: Int) -> Int {
        let parentIndex = current?.node ?? -1
        var node = Node(offset: start, classBits: 0, constructed: false, tagNumber: 0,
                        depth: openCount, identifierLength: 0, lengthLength: 0)
        node.contentLength = UInt32(end - start)
        let index = nodes.count
        node.subtreeEnd = Int32(index + 1)
        nodes.append(node)
        if parentIndex < 0 { roots.append(index) }
        return index
    }

    @inline(never)  // rare: kept out of the element loop's code
    mutating func report(_ code: ParserCode, at offset: Int, length: Int, node: Int?, _ message: String) {
        if stopAtStructural && code.isStructural { stoppedAtStructural = true }
        if speculationDepth > 0 && code.severity == .error {
            abortGuess = true
            return
        }
        if speculationDepth == 0 {
            let seen = perCode[code, default: 0]
            if seen >= maxPerCode {
                if let previous = suppressed[code] {
                    suppressed[code] = (previous.count + 1, previous.first)
                } else {
                    suppressed[code] = (1, code.diagnostic(message, offset..<(offset + length), node: node.map(NodeIndex.init)))
                }
                return
            }
            perCode[code] = seen + 1
        }
        diagnostics.append(code.diagnostic(message, offset..<(offset + length), node: node.map(NodeIndex.init)))
    }

    /// One diagnostic per capped code, after all others, pinned to the first one left out.
    mutating func appendSuppressedSummaries() {
        for code in ParserCode.allCases {
            guard let (count, first) = suppressed[code] else { continue }
            diagnostics.append(DiagnosticCap.summary(of: first, more: count, maxPerCode: maxPerCode))
        }
    }

}
