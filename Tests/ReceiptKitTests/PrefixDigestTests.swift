import COpenSSL
import Foundation
import Platform
import Testing
@testable import X509Trust

/// A message's SHA-256 going on from the kept state after its first part (a JWS's header) is the
/// digest of the whole message, whichever messages came before, on any thread.
@Suite struct PrefixDigestTests {
    static func random(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    nonisolated(unsafe) static let sha256MD: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)

    /// The digest of `prefix` + `rest` through `states`, as `DigestVerification.sha256(_:sharedPrefix:)` makes it.
    static func digest(_ states: PrefixDigestStates, _ prefix: [UInt8], _ rest: [UInt8]) -> [UInt8]? {
        guard let md = sha256MD, let context = states.context(after: prefix[...], md: md) else { return nil }
        defer { EVP_MD_CTX_free(context) }
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard rest.withUnsafeBufferPointer({ EVP_DigestUpdate(context, $0.baseAddress, $0.count) }) == 1,
              EVP_DigestFinal_ex(context, &out, &length) == 1, length == 32 else { return nil }
        return out
    }

    @Test func everySplitGivesTheDigestOfTheWholeMessage() {
        let header = Self.random(4_411)
        for prefix in [0, 1, 511, 512, 513, 4_095, 4_096, 4_411] {
            for restCount in [0, 1, 63, 64, 539, 14_151] {
                let message = Array(header[..<prefix]) + Self.random(restCount)
                // Twice: the first makes the state, the second goes on from it.
                for _ in 0..<2 {
                    #expect(DigestVerification.sha256(message[...], sharedPrefix: prefix) == SHA256.hash(message), "prefix \(prefix), rest \(restCount)")
                }
            }
        }
        // A slice of a larger array (a token inside a log line): its own indices, not the array's.
        let line = Self.random(100) + header + [UInt8(ascii: ".")] + Self.random(600) + Self.random(50)
        let token = line[100..<(100 + 4_411 + 1 + 600)]
        #expect(DigestVerification.sha256(token, sharedPrefix: 4_412) == SHA256.hash(Array(token)))
        // A first part longer than the message is no first part.
        #expect(DigestVerification.sha256(token, sharedPrefix: token.count + 1) == SHA256.hash(Array(token)))
    }

    @Test func aStateServesOnlyTheSameBytes() {
        let states = PrefixDigestStates()
        let first = Self.random(4_411)
        var second = first
        second[2_000] ^= 1  // one bit apart, in the middle
        let rest = Self.random(600)
        #expect(Self.digest(states, first, rest) == SHA256.hash(first + rest))
        #expect(Self.digest(states, second, rest) == SHA256.hash(second + rest))
        #expect(Self.digest(states, first, rest) == SHA256.hash(first + rest))
        #expect(Self.digest(states, Array(first.dropLast()), rest) == SHA256.hash(Array(first.dropLast()) + rest))  // a shorter first part
        #expect(states.count == 3)
    }

    @Test func theOldestStateGoesBeyondTheCapacity() {
        let states = PrefixDigestStates()
        let prefixes = (0..<(PrefixDigestStates.capacity + 3)).map { _ in Self.random(1_000) }
        let rest = Self.random(64)
        for prefix in prefixes { #expect(Self.digest(states, prefix, rest) == SHA256.hash(prefix + rest)) }
        #expect(states.count == PrefixDigestStates.capacity)
        // The first went; it is made again, right.
        #expect(Self.digest(states, prefixes[0], rest) == SHA256.hash(prefixes[0] + rest))
        #expect(states.count == PrefixDigestStates.capacity)
    }

    @Test func threadsSharingStatesGetTheirOwnDigests() {
        let states = PrefixDigestStates()
        let prefixes = (0..<3).map { _ in Self.random(4_411) }
        let rests = (0..<64).map { _ in Self.random(Int.random(in: 0...2_000)) }
        let wrong = Counter()
        DispatchQueue.concurrentPerform(iterations: 256) { i in
            let prefix = prefixes[i % 3], rest = rests[i % 64]
            if Self.digest(states, prefix, rest) != SHA256.hash(prefix + rest) { wrong.add() }
        }
        #expect(wrong.value == 0)
        #expect(states.count == 3)
    }

    @Test func byteSearchReadsASliceByItsOwnIndices() {
        let bytes: [UInt8] = Array("xx.header.payload".utf8)
        let slice = bytes[3...]
        #expect(ByteSearch.firstIndex(of: UInt8(ascii: "."), in: slice) == 9)
        #expect(ByteSearch.firstIndex(of: UInt8(ascii: "."), in: slice, from: 10) == nil)
        #expect(ByteSearch.firstIndex(of: UInt8(ascii: "."), in: bytes[...], from: 0) == 2)
        #expect(ByteSearch.firstIndex(of: UInt8(ascii: "."), in: bytes[3..<3]) == nil)
        #expect(ByteSearch.same(Array("header".utf8), slice.prefix(6)))
        #expect(!ByteSearch.same(Array("header".utf8), slice.prefix(5)))
        #expect(ByteSearch.same([], bytes[0..<0]))
    }
}

/// A count several threads add to.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
