import ASN1Lenient
import ByteText
import TextOutput
import DocumentCore

/// Self-checks about a node's own bytes, computed from the tree: every number in a question and
/// its choices is read from the document, and each choice says why it is right or wrong.
extension TourLessons {
    func n(_ i: Int) -> Node { tree.nodes[i] }

    /// The lesson sections a check on `focus` would give away.
    package static func withheld(for focus: TourFocus) -> Set<ExplanationLine.Section> {
        switch focus {
        case .identifier: [.identifier]
        case .length: [.length]
        case .content: [.content]
        case .whole: [.identifier, .length, .content]
        }
    }

    package func hex(_ range: Range<Int>) -> String { Hex.string(tree.bytes[range], .upper, separator: " ") }

    /// Long form: how many content octets do the length octets announce?
    package func lengthValueCheck(_ node: Int) -> SelfCheck? {
        let x = n(node)
        guard x.kind == .tlv, x.lengthLength > 1, !x.isIndefinite else { return nil }
        let octets = Array(tree.bytes[x.lengthRange])
        let first = octets[0]
        let value = Int(x.contentLength)
        let rest = octets.dropFirst()
        let littleEndian = rest.reversed().reduce(0) { $0 << 8 | Int($1) }
        var wrong: [(String, String)] = [
            (NumberText.grouped(Int(first)), "\(Int(first)) is 0x\(Hex.byte(first, .upper)) itself; with bit 8 set it only says how many length octets follow (\(rest.count))"),
        ]
        if littleEndian != value {
            wrong.append((NumberText.grouped(littleEndian), "that reads \(Hex.string(rest, .upper, separator: " ")) backwards: lengths are big-endian, the first octet is the most significant"))
        }
        wrong.append((NumberText.grouped(value + x.headerLength), "that is the whole element; the length counts only the content octets, not the \(x.headerLength) identifier and length octets"))
        return SelfCheck("The length octets are \(hex(x.lengthRange)): how many content octets follow?",
                         right: (NumberText.grouped(value), "0x\(Hex.byte(first, .upper)) has bit 8 set, so its low 7 bits (\(rest.count)) count the length octets; \(Hex.string(rest, .upper, separator: " ")) big-endian is \(NumberText.grouped(value))"),
                         wrong: wrong, seed: Int(x.offset) + 1)
    }

    /// Long form: how many length octets follow the first one?
    package func lengthCountCheck(_ node: Int) -> SelfCheck? {
        let x = n(node)
        guard x.kind == .tlv, x.lengthLength > 1 else { return nil }
        let first = tree.bytes[x.lengthRange.lowerBound]
        let count = Int(first & 0x7F)
        return SelfCheck("How many length octets follow 0x\(Hex.byte(first, .upper))?",
                         right: ("\(count)", "bit 8 of 0x\(Hex.byte(first, .upper)) says long form, and its low 7 bits say \(count) length octets follow"),
                         wrong: [("\(count == 1 ? 2 : 1)", "the low 7 bits of 0x\(Hex.byte(first, .upper)) count the octets that follow, and they say \(count)"),
                                 ("\(first)", "\(first) is the whole octet; with bit 8 set, it is not a length but a count of length octets (\(count))")],
                         seed: Int(x.offset))
    }

    /// Short form: the octet is the length.
    package func shortLengthCheck(_ node: Int) -> SelfCheck? {
        let x = n(node)
        guard x.kind == .tlv, x.lengthLength == 1, !x.isIndefinite else { return nil }
        let octet = tree.bytes[x.lengthRange.lowerBound]
        let value = Int(octet)
        var wrong: [(String, String)] = []
        if let asDecimal = Int(Hex.byte(octet, .upper)), asDecimal != value {
            wrong.append(("\(asDecimal)", "that reads the hex digits 0x\(Hex.byte(octet, .upper)) as decimal; 0x\(Hex.byte(octet, .upper)) is \(value)"))
        }
        wrong.append(("\(value + x.headerLength)", "that counts the identifier and length octets too; the length counts only the content"))
        wrong.append(("\(value * 8)", "that would count bits; ASN.1 lengths count octets"))
        return SelfCheck("The length octet is 0x\(Hex.byte(octet, .upper)): how many content octets follow?",
                         right: ("\(value)", "bit 8 is clear, so this is the short form: the octet is the length itself, 0x\(Hex.byte(octet, .upper)) = \(value)"),
                         wrong: wrong, seed: Int(x.offset) + 2)
    }

    /// Indefinite form: 0x80 alone.
    package func indefiniteCheck(_ node: Int) -> SelfCheck? {
        let x = n(node)
        guard x.kind == .tlv, x.isIndefinite else { return nil }
        return SelfCheck("The length octet is 0x80 and no length octets follow: how long is the content?",
                         right: ("up to the end-of-contents octets 00 00", "0x80 alone is the indefinite form (BER only): here \(NumberText.grouped(Int(x.contentLength))) content octets, then 00 00 at offset \(NumberText.grouped(x.contentEnd))"),
                         wrong: [("128 octets", "a short-form length has bit 8 clear, so it stops at 127; 0x80 is the long-form marker with zero length octets, which means indefinite"),
                                 ("0 octets", "an empty content is written 0x00; 0x80 alone means the content runs to 00 00")],
                         seed: Int(x.offset) + 1)
    }

    /// The length check that fits the node's length form.
    package func lengthCheck(_ node: Int) -> SelfCheck? {
        lengthValueCheck(node) ?? indefiniteCheck(node) ?? shortLengthCheck(node)
    }

    /// The identifier octet: class, form and tag number.
    package func identifierCheck(_ node: Int) -> SelfCheck? {
        let x = n(node)
        guard x.kind == .tlv, x.identifierLength == 1 else { return nil }
        let octet = tree.bytes[x.identifierRange.lowerBound]
        func describe(_ tagClass: TagClass, constructed: Bool) -> String {
            let tag = tagClass == .universal ? UniversalTag.name(x.tagNumber) : (tagClass == .contextSpecific ? "[\(x.tagNumber)]" : "tag \(x.tagNumber)")
            return "\(tagClass.name.lowercased()), \(constructed ? "constructed" : "primitive"), \(tag)"
        }
        let bits = String(octet >> 6, radix: 2)
        let classBits = String(repeating: "0", count: 2 - bits.count) + bits
        let otherClass: TagClass = x.tagClass == .universal ? .contextSpecific : (x.tagNumber == 0 ? .application : .universal)
        return SelfCheck("The identifier octet is 0x\(Hex.byte(octet, .upper)): what does it say?",
                         right: (describe(x.tagClass, constructed: x.isConstructed),
                                 "bits 8-7 are \(classBits) (\(x.tagClass.name)), bit 6 is \(x.isConstructed ? 1 : 0) (\(x.isConstructed ? "constructed: the content is more TLVs" : "primitive: the content is the value")), bits 5-1 are \(x.tagNumber)"),
                         wrong: [(describe(x.tagClass, constructed: !x.isConstructed), "bit 6 (0x20) is \(x.isConstructed ? "set" : "clear") in 0x\(Hex.byte(octet, .upper)), so the element is \(x.isConstructed ? "constructed" : "primitive")"),
                                 (describe(otherClass, constructed: x.isConstructed), "the class is in bits 8-7, and here they are \(classBits): \(x.tagClass.name)")],
                         seed: Int(x.offset))
    }

    /// An OBJECT IDENTIFIER: how many octets its longest arc takes (or, when every arc fits one
    /// octet, which two arcs the first octet packs). Returns the arc to hide from the lesson.
    package func oidCheck(_ node: Int) -> (check: SelfCheck, hiddenArc: Int)? {
        let x = n(node)
        guard x.kind == .tlv, x.isUniversal(6) else { return nil }
        var arcs: [(octets: Int, value: UInt64)] = []
        var group: [UInt8] = []
        for octet in tree.content(of: node) {
            group.append(octet)
            guard octet & 0x80 == 0 else { continue }
            var value: UInt64 = 0
            for g in group where value <= UInt64.max >> 7 { value = (value << 7) | UInt64(g & 0x7F) }
            arcs.append((group.count, value))
            group = []
        }
        guard !arcs.isEmpty else { return nil }
        if let longest = arcs.indices.dropFirst().max(by: { arcs[$0].octets < arcs[$1].octets }), arcs[longest].octets > 1 {
            let (count, value) = arcs[longest]
            let bits = 64 - value.leadingZeroBitCount
            let check = SelfCheck("The arc \(value) needs \(bits) bits; base 128 puts 7 bits in each octet: how many octets does it take?",
                                  right: ("\(count)", "\(bits) bits in groups of 7 make \(count) octets, bit 8 set on all but the last"),
                                  wrong: [("\(count - 1)", "\(count - 1) octets hold only \(7 * (count - 1)) bits, at most \(NumberText.grouped((1 << (7 * (count - 1))) - 1))"),
                                          ("\(count + 1)", "\(count) octets already hold \(7 * count) bits; a longer form would start with 0x80, which DER and BER forbid")],
                                  seed: Int(x.offset) + count)
            return check.map { ($0, longest) }
        }
        let first = arcs[0].value
        let top: UInt64 = first < 40 ? 0 : (first < 80 ? 1 : 2)
        let check = SelfCheck("The first octet's value is \(first) = 40 × X + Y: which two arcs does it pack?",
                              right: ("\(top).\(first - 40 * top)", "X is 0, 1 or 2 and Y is below 40 unless X is 2: \(first) = 40 × \(top) + \(first - 40 * top)"),
                              wrong: [("0.\(first)", top == 0 ? "" : "Y is below 40 when X is 0 or 1: \(first) = 40 × \(top) + \(first - 40 * top)"),
                                      ("\(first / 10).\(first % 10)", "the octet is one number, \(first), not two decimal digits")],
                              seed: Int(x.offset))
        return check.map { ($0, 0) }
    }

    /// A string's tag: which universal type?
    func stringTypeCheck(_ node: Int) -> SelfCheck? {
        let x = n(node)
        guard x.kind == .tlv, x.tagClass == .universal, !x.isConstructed, x.identifierLength == 1 else { return nil }
        let others: [UInt32] = [12, 22, 19, 4].filter { $0 != x.tagNumber }
        return SelfCheck("Its identifier octet is 0x\(Hex.byte(tree.bytes[Int(x.offset)], .upper)): which type is the value?",
                         right: (UniversalTag.name(x.tagNumber), "universal tag \(x.tagNumber) (the low 5 bits of 0x\(Hex.byte(tree.bytes[Int(x.offset)], .upper))) is \(UniversalTag.name(x.tagNumber))"),
                         wrong: others.prefix(2).map { (UniversalTag.name($0), "\(UniversalTag.name($0)) is universal tag \($0), written 0x\(Hex.byte(UInt8($0), .upper))") },
                         seed: Int(x.offset))
    }

    /// How many members a constructed node holds.
    package func memberCountCheck(_ node: Int, _ question: String, what: String) -> SelfCheck? {
        let count = tree.childCount(of: node)
        guard count > 0 else { return nil }
        let bytes = Int(n(node).contentLength)
        return SelfCheck(question,
                         right: ("\(count)", "its content is \(count) TLVs back to back (\(NumberText.grouped(bytes)) octets): \(count) \(what)"),
                         wrong: [("\(count + 1)", "count the TLVs in the content: the element's own header is not a member"),
                                 ("\(bytes)", "\(NumberText.grouped(bytes)) is the number of content octets, not of members")],
                         seed: Int(n(node).offset) + count)
    }
}
