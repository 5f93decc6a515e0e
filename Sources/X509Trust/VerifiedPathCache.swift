import ASN1Lenient
import Threads
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Path checks already made in this process, so that a batch of tokens or receipts signed by the
/// same chain verifies that chain once (Apple's libraries cache verified chains too). Only the path
/// check (`X509_verify_cert`: links, anchor, validity at one moment) is cached: each token's own
/// signature, dates and markers are still checked for every input.
///
/// The key is everything the result depends on: the exact DER of the leaf, of every untrusted
/// certificate and of every anchor, in order, the validity moment (whole seconds, as OpenSSL judges
/// it; nil = dates ignored) and whether a partial chain may end the path. Equal keys give equal
/// outcomes, so a hit is the verification itself, not an approximation.
///
/// Thread-safe: every stored property is read and written with `lock` held, and what goes in and
/// comes out (`Key`, `Outcome`) are Sendable values; that is what `@unchecked` asserts. Bounded:
/// when `capacity` distinct paths are held the cache starts again, so hostile input with a
/// different chain on every line cannot grow it without limit.
public final class VerifiedPathCache: @unchecked Sendable {
    public static let shared = VerifiedPathCache()

    struct Key: Hashable, Sendable {
        var leaf: [UInt8]
        var untrusted: [[UInt8]]
        var anchors: [[UInt8]]
        var time: Int64?
        var partialChain: Bool

        /// The bytes in bulk (see `DERKey`).
        func hash(into hasher: inout Hasher) {
            DERKey(leaf).hash(into: &hasher)
            hasher.combine(untrusted.count)
            untrusted.forEach { DERKey($0).hash(into: &hasher) }
            hasher.combine(anchors.count)
            anchors.forEach { DERKey($0).hash(into: &hasher) }
            hasher.combine(time)
            hasher.combine(partialChain)
        }

        /// Every byte compared in bulk (see `DERKey`), not element by element.
        static func == (a: Key, b: Key) -> Bool {
            func same(_ x: [[UInt8]], _ y: [[UInt8]]) -> Bool {
                x.count == y.count && zip(x, y).allSatisfy { DERKey($0) == DERKey($1) }
            }
            return a.time == b.time && a.partialChain == b.partialChain && DERKey(a.leaf) == DERKey(b.leaf)
                && same(a.untrusted, b.untrusted) && same(a.anchors, b.anchors)
        }
    }

    /// How many path checks ran (`verifications`) and how many were answered from the cache (`reused`).
    public struct Counts: Sendable, Equatable {
        public var verifications = 0
        public var reused = 0
    }

    private let lock = Lock()
    private var entries: [Key: X509PathVerification.Outcome] = [:]
    private var enabledFlag = true
    private var counted = Counts()
    let capacity: Int

    init(capacity: Int = 256) { self.capacity = capacity }

    /// Off: every path check runs (for tests that compare, and for measuring the saving).
    public var isEnabled: Bool {
        get { lock.withLock { enabledFlag } }
        set { lock.withLock { enabledFlag = newValue; if !newValue { entries.removeAll() } } }
    }

    public var counts: Counts { lock.withLock { counted } }

    /// Forgets every entry and zeroes the counts.
    public func reset() {
        lock.withLock {
            entries.removeAll()
            counted = Counts()
        }
    }

    /// The cached outcome for `key`, or `verify()`'s, stored. `verify` runs without the lock held,
    /// so threads verifying different chains do not wait for each other (two threads missing on the
    /// same key both verify once; the results are equal).
    func outcome(for key: Key, verify: () -> X509PathVerification.Outcome) -> X509PathVerification.Outcome {
        let known: X509PathVerification.Outcome? = lock.withLock {
            guard enabledFlag, let hit = entries[key] else { return nil }
            counted.reused += 1
            return hit
        }
        if let known { return known }
        let made = verify()
        lock.withLock {
            counted.verifications += 1
            guard enabledFlag, !made.setupFailed else { return }  // an out-of-memory is not a verdict
            if entries.count >= capacity { entries.removeAll() }
            entries[key] = made
        }
        return made
    }
}
