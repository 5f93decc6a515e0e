import Platform
import Testing
@testable import TextLoader

/// `ByteClass`: the branch-free scan the loader's text test and the compact-JWS shape use, against
/// the plain per-byte reading, with a member at every place around its 4 KB blocks.
@Suite struct ByteClassTests {
    @Test func findsAMemberAtEveryPlaceAroundTheBlocks() {
        let controls = ByteClass { $0 < 0x20 }
        let length = 4096 * 2 + 3
        #expect(!controls.occurs(in: [UInt8](repeating: 0x41, count: length)))
        #expect(!controls.occurs(in: []))
        // Each place of an eight-byte step and of the tail after the last step, at each block's edge.
        for place in [0, 1, 2, 3, 4, 5, 6, 7, 8, 4088, 4094, 4095, 4096, 4097, 8191, 8192, length - 3, length - 2, length - 1] {
            var bytes = [UInt8](repeating: 0x41, count: length)
            bytes[place] = 0x1B
            #expect(controls.occurs(in: bytes), "escape at \(place)")
        }
    }

    /// Buffers shorter than a step and lengths around it: the tail loop alone, or after steps.
    @Test func findsAMemberInShortBuffersAtEveryPlace() {
        let controls = ByteClass { $0 < 0x20 }
        for length in 1...19 {
            #expect(!controls.occurs(in: [UInt8](repeating: 0x41, count: length)), "length \(length)")
            for place in 0..<length {
                var bytes = [UInt8](repeating: 0x41, count: length)
                bytes[place] = 0x00
                #expect(controls.occurs(in: bytes), "NUL at \(place) of \(length)")
            }
        }
    }

    @Test func membersAreThePredicate() {
        let controls = ByteClass { $0 < 0x20 || $0 == 0x7F }
        for value in UInt8.min...UInt8.max {
            #expect(controls.contains(value) == (value < 0x20 || value == 0x7F), "byte \(value)")
            #expect(controls.occurs(in: [0x41, value, 0x42]) == (value < 0x20 || value == 0x7F), "byte \(value)")
        }
    }

    @Test func textLikeIsNoControlButWhitespace() {
        #expect(InputLoader.isTextLike(Array("a\tb\r\nc d".utf8)))
        #expect(!InputLoader.isTextLike(Array("a\u{7F}b".utf8)))
        #expect(!InputLoader.isTextLike([0x30, 0x82, 0x00]))
        #expect(InputLoader.isTextLike(Array("é ✓".utf8)), "bytes over 0x7F are text-like")
    }
}
