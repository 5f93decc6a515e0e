/// Parses BER/DER into a `Tree`, recording the byte range of every node and every defect.
///
/// The parser is iterative (an explicit stack of open constructed elements), never stops at the
/// first problem, and never sizes an allocation by a length read from the input.
public enum ASN1Parser {
    public static func parse(_ bytes: [UInt8], options: ParseOptions = ParseOptions()) -> Tree {
        guard bytes.count <= Int(UInt32.max) else {
            let code = ParserCode.inputTooLarge
            let diagnostic = Diagnostic(severity: code.severity, code: code.rawValue,
                                        message: code.summary, offset: 0, length: 0, node: nil)
            return Tree(bytes: bytes, nodes: [], diagnostics: [diagnostic], roots: [])
        }
        var machine = ParserMachine(count: bytes.count, options: options)
        bytes.withUnsafeBufferPointer { machine.run($0) }
        return Tree(bytes: bytes, nodes: machine.nodes, diagnostics: machine.diagnostics, roots: machine.roots)
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
    var nodeMark: Int
    var diagnosticMark: Int
    var childCount: Int
}

struct ParserMachine {
    var nodes: [Node] = []
    var diagnostics: [Diagnostic] = []
    var roots: [Int] = []
    var stack: [Frame] = []
    let options: ParseOptions
    let count: Int
    var position = 0
    /// Number of speculative frames on the stack.
    var speculationDepth = 0
    /// Set when an error is found inside a guess; the main loop then undoes the innermost guess.
    var abortGuess = false
    var reportedTrailing = false

    init(count: Int, options: ParseOptions) {
        self.count = count
        self.options = options
        // Every node takes at least two bytes, so this bounds the reservation by the input, not by
        // anything the input claims.
        nodes.reserveCapacity(min(count / 4 + 16, 1 << 22))
        stack.reserveCapacity(32)
    }

    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        while true {
            if abortGuess { undoInnermostGuess(); continue }
            let limit: Int
            if let top = stack.last {
                if top.indefinite {
                    if position + 2 <= top.end && bytes[position] == 0 && bytes[position + 1] == 0 {
                        closeTop(bytes, contentEnd: position, endOfContents: true)
                        position += 2
                        continue
                    }
                    if position >= top.end {
                        let node = nodes[top.node]
                        report(.missingEOC, at: node.lengthRange.lowerBound, length: 1, node: top.node,
                               "indefinite length opened at offset \(node.offset) is never closed by an end-of-contents marker (00 00) before offset \(top.end)")
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
                if !roots.isEmpty && !reportedTrailing {
                    reportedTrailing = true
                    report(.trailingData, at: position, length: count - position, node: nil,
                           "\(count - position) byte(s) follow the top-level element, which ends at offset \(position)")
                }
                limit = count
            }
            parseElement(bytes, limit: limit)
        }
    }

    // MARK: - One element

    mutating func parseElement(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) {
        let start = position
        var p = start
        let first = bytes[p]
        p += 1
        let tagClass = TagClass(rawValue: first >> 6)!
        let constructed = first & 0x20 != 0
        var tagNumber = UInt32(first & 0x1F)
        var tagProblems: [(ParserCode, String)] = []

        if tagNumber == 31 {
            var value: UInt64 = 0
            var octets = 0
            while true {
                guard p < limit else {
                    addUnparsed(from: start, to: limit, cause: .truncatedIdentifier,
                                "the identifier's long-form tag number runs to offset \(limit) without a final octet")
                    return
                }
                let octet = bytes[p]
                p += 1
                if octets == 0 && octet == 0x80 {
                    tagProblems.append((.tagLeadingZero, "the long-form tag number starts with 0x80, a padding octet"))
                }
                if value <= UInt64(UInt32.max) { value = (value << 7) | UInt64(octet & 0x7F) }
                octets += 1
                if octet & 0x80 == 0 { break }
            }
            if value > UInt64(UInt32.max) {
                tagProblems.append((.tagTooLarge, "the tag number needs more than 32 bits"))
                tagNumber = UInt32.max
            } else {
                tagNumber = UInt32(value)
                if value < 31 {
                    tagProblems.append((.tagNotMinimal, "tag number \(value) must use the one-octet form"))
                }
            }
        }
        let identifierLength = p - start

        guard p < limit else {
            addUnparsed(from: start, to: limit, cause: .truncatedLength,
                        "the element at offset \(start) has no length octets before offset \(limit)")
            return
        }
        let lengthStart = p
        let lengthOctet = bytes[p]
        p += 1
        var declared = 0
        var indefinite = false
        var lengthProblem: (ParserCode, String)?
        var unrepresentable = false
        if lengthOctet < 0x80 {
            declared = Int(lengthOctet)
        } else if lengthOctet == 0x80 {
            indefinite = true
        } else if lengthOctet == 0xFF {
            addUnparsed(from: start, to: limit, cause: .lengthReserved, causeAt: lengthStart, causeLength: 1,
                        "length octet 0xFF is reserved; the element's extent is unknown")
            return
        } else {
            let octets = Int(lengthOctet & 0x7F)
            guard octets <= limit - p else {
                addUnparsed(from: start, to: limit, cause: .truncatedLength,
                            "the length announces \(octets) length octets but only \(limit - p) byte(s) remain before offset \(limit)")
                return
            }
            var value: UInt64 = 0
            var overflow = false
            for i in 0..<octets {
                if value > UInt64.max >> 8 { overflow = true }
                value = (value << 8) | UInt64(bytes[p + i])
            }
            p += octets
            if octets > 8 {
                lengthProblem = (.lengthTooManyOctets, "\(octets) length octets; at most 8 can be represented")
                unrepresentable = true
            } else if overflow || value > UInt64(Int.max) {
                lengthProblem = (.lengthOverflow, "a length of \(value) is beyond any addressable size")
                unrepresentable = true
            } else {
                declared = Int(value)
                if bytes[lengthStart + 1] == 0 {
                    lengthProblem = (.lengthNotMinimal, "the length \(value) has a leading 0x00 length octet")
                } else if octets == 1 && value < 128 {
                    lengthProblem = (.lengthNotMinimal, "the length \(value) fits the short form but uses the long form")
                }
            }
        }

        let parentIndex = stack.last?.node ?? -1
        let index = nodes.count
        var node = Node(offset: start, tagClass: tagClass, constructed: constructed, tagNumber: tagNumber,
                        parent: parentIndex, depth: stack.count, identifierLength: identifierLength,
                        lengthLength: p - lengthStart)
        let contentStart = p
        let available = limit - contentStart
        nodes.append(node)
        noteChild()
        if parentIndex < 0 { roots.append(index) }

        for (code, message) in tagProblems {
            report(code, at: start, length: identifierLength, node: index, message)
        }
        if let (code, message) = lengthProblem {
            report(code, at: lengthStart, length: p - lengthStart, node: index, message)
        }
        let isUniversal = tagClass == .universal
        if isUniversal && tagNumber == 0 && !constructed {
            if stack.last?.indefinite == true {
                report(.eocNonZeroLength, at: start, length: p - start, node: index,
                       "an end-of-contents marker must be 00 00; this one has a non-zero length")
            } else {
                report(.strayEOC, at: start, length: p - start, node: index,
                       "an end-of-contents marker outside any indefinite-length element")
            }
        }
        if isUniversal { checkConstructedForm(index: index, tagNumber: tagNumber, constructed: constructed) }

        if indefinite {
            node.set(Node.Flag.indefinite)
            if !constructed {
                report(.indefinitePrimitive, at: lengthStart, length: 1, node: index,
                       "a primitive element cannot use the indefinite length form")
                // Recover the way a BER reader would: the content runs to the next 00 00.
                var eoc = contentStart
                while eoc + 1 < limit && !(bytes[eoc] == 0 && bytes[eoc + 1] == 0) { eoc += 1 }
                if eoc + 1 < limit {
                    node.contentLength = UInt32(eoc - contentStart)
                    node.set(Node.Flag.hasEOC)
                } else {
                    node.contentLength = UInt32(available)
                }
                node.subtreeEnd = Int32(index + 1)
                nodes[index] = node
                position = node.end
                return
            }
            report(.indefiniteLength, at: lengthStart, length: 1, node: index,
                   "indefinite length (0x80): the content ends at an end-of-contents marker")
            nodes[index] = node
            openFrame(index: index, end: limit, indefinite: true, speculative: false, contentStart: contentStart)
            return
        }

        var length = declared
        let clamped = unrepresentable || declared > available
        if unrepresentable {
            length = available  // already reported: the length cannot be represented
        } else if declared > available {
            if limit == count {
                report(.truncatedContent, at: lengthStart, length: p - lengthStart, node: index,
                       "the length claims \(declared) content octets but the input ends after \(available)")
            } else {
                report(.lengthExceedsParent, at: lengthStart, length: p - lengthStart, node: index,
                       "the length claims \(declared) content octets but only \(available) remain before the enclosing element ends at offset \(limit)")
            }
            length = available
        }
        node.contentLength = UInt32(length)
        nodes[index] = node

        if constructed {
            openFrame(index: index, end: contentStart + length, indefinite: false, speculative: false,
                      contentStart: contentStart)
            return
        }
        nodes[index].subtreeEnd = Int32(index + 1)
        position = contentStart + length
        if isUniversal {
            checkPrimitiveValue(bytes, index: index, tagNumber: tagNumber, content: contentStart..<position)
            if !abortGuess && (tagNumber == 4 || tagNumber == 3) {
                considerEncapsulation(bytes, index: index, bitString: tagNumber == 3, clamped: clamped)
            }
        }
    }

    /// Pushes a frame for a constructed element, or turns its content into an unparsed region when
    /// nesting is already at the limit.
    mutating func openFrame(index: Int, end: Int, indefinite: Bool, speculative: Bool, contentStart: Int) {
        if stack.count + 1 > options.maxDepth {
            report(.nestingTooDeep, at: Int(nodes[index].offset), length: nodes[index].headerLength, node: index,
                   "nesting deeper than \(options.maxDepth) levels; the content is not parsed")
            nodes[index].contentLength = UInt32(end - contentStart)
            position = contentStart
            stack.append(Frame(node: index, end: end, indefinite: false, speculative: false,
                               nodeMark: nodes.count, diagnosticMark: diagnostics.count, childCount: 0))
            if end > contentStart { appendUnparsedNode(from: contentStart, to: end) }
            position = end
            return
        }
        if speculative { speculationDepth += 1 }
        stack.append(Frame(node: index, end: end, indefinite: indefinite, speculative: speculative,
                           nodeMark: nodes.count, diagnosticMark: diagnostics.count, childCount: 0))
        position = contentStart
    }

    mutating func noteChild() {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].childCount += 1
        // A guess must be exactly one element filling the whole content.
        if stack[stack.count - 1].speculative && stack[stack.count - 1].childCount > 1 { abortGuess = true }
    }

    mutating func closeTop(_ bytes: UnsafeBufferPointer<UInt8>, contentEnd: Int, endOfContents: Bool) {
        let frame = stack[stack.count - 1]
        if frame.speculative && frame.childCount != 1 {
            abortGuess = true
            return
        }
        stack.removeLast()
        if frame.speculative { speculationDepth -= 1 }
        var node = nodes[frame.node]
        if !node.isEncapsulated {
            node.contentLength = UInt32(contentEnd - node.contentStart)
        }
        if endOfContents { node.set(Node.Flag.hasEOC) }
        node.subtreeEnd = Int32(nodes.count)
        nodes[frame.node] = node
        if node.isUniversal(17) && node.isConstructed {
            checkSetOrder(bytes, index: frame.node)
        }
        if node.isEncapsulated { position = node.contentEnd }
    }

    /// Undoes the innermost encapsulation guess: the node becomes a plain byte string again and
    /// nothing found inside it remains.
    mutating func undoInnermostGuess() {
        abortGuess = false
        guard let k = stack.lastIndex(where: { $0.speculative }) else { return }
        let frame = stack[k]
        stack.removeSubrange(k...)
        speculationDepth -= 1
        nodes.removeSubrange(frame.nodeMark...)
        diagnostics.removeSubrange(frame.diagnosticMark...)
        nodes[frame.node].set(Node.Flag.encapsulated, false)
        nodes[frame.node].subtreeEnd = Int32(frame.node + 1)
        position = nodes[frame.node].contentEnd
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
        let parentIndex = stack.last?.node ?? -1
        var node = Node(offset: start, tagClass: .universal, constructed: false, tagNumber: 0,
                        parent: parentIndex, depth: stack.count, identifierLength: 0, lengthLength: 0)
        node.set(Node.Flag.unparsed)
        node.contentLength = UInt32(end - start)
        let index = nodes.count
        node.subtreeEnd = Int32(index + 1)
        nodes.append(node)
        noteChild()
        if parentIndex < 0 { roots.append(index) }
        return index
    }

    mutating func report(_ code: ParserCode, at offset: Int, length: Int, node: Int?, _ message: String) {
        if speculationDepth > 0 && code.severity == .error {
            abortGuess = true
            return
        }
        diagnostics.append(Diagnostic(severity: code.severity, code: code.rawValue, message: message,
                                      offset: offset, length: length, node: node))
    }

}
