@testable import ASN1Lenient

/// A tiny DER encoder for building test inputs (tests must not depend on the parser to build them).
indirect enum TestElement: Equatable {
    case primitive(tag: UInt8, content: [UInt8])
    case constructed(tag: UInt8, children: [TestElement])

    var encoded: [UInt8] {
        switch self {
        case .primitive(let tag, let content):
            return [tag] + derLength(content.count) + content
        case .constructed(let tag, let children):
            let content = children.flatMap(\.encoded)
            return [tag] + derLength(content.count) + content
        }
    }

    var nodeCount: Int {
        switch self {
        case .primitive: 1
        case .constructed(_, let children): 1 + children.map(\.nodeCount).reduce(0, +)
        }
    }
}

func derLength(_ n: Int) -> [UInt8] {
    if n < 128 { return [UInt8(n)] }
    var octets: [UInt8] = []
    var v = n
    while v > 0 { octets.insert(UInt8(v & 0xFF), at: 0); v >>= 8 }
    return [0x80 | UInt8(octets.count)] + octets
}

/// A deterministic generator (SplitMix64) so failures reproduce.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random valid elements whose primitives never look like nested ASN.1 (so no encapsulation guess).
func randomElement(depth: Int, using rng: inout SeededRandom) -> TestElement {
    if depth > 0 && Int.random(in: 0..<3, using: &rng) > 0 {
        let count = Int.random(in: 0...4, using: &rng)
        let tag: UInt8 = [0x30, 0xA0, 0xA3, 0x61][Int.random(in: 0..<4, using: &rng)]
        return .constructed(tag: tag, children: (0..<count).map { _ in randomElement(depth: depth - 1, using: &rng) })
    }
    switch Int.random(in: 0..<4, using: &rng) {
    case 0: return .primitive(tag: 0x02, content: [UInt8.random(in: 1...0x7F, using: &rng)])
    case 1: return .primitive(tag: 0x05, content: [])
    case 2:
        let n = Int.random(in: 0...200, using: &rng)
        return .primitive(tag: 0x0C, content: (0..<n).map { _ in UInt8.random(in: 0x61...0x7A, using: &rng) })
    default:
        return .primitive(tag: 0x80, content: (0..<Int.random(in: 0...5, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
    }
}
