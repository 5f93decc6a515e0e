import Threads

/// Chains checked once per process instead of once per document, for batch runs: a day of tokens
/// carries a handful of x5c chains, and checking one again (its certificates looked up, their
/// names compared, the path check's cache asked) was 0.07 M instructions of every line. A
/// `JWSChainCheck` is a pure function of the x5c bytes and the root files' bytes (the path is
/// built without a date; validity at a date is judged per token, from the chain's facts), so a
/// chain with the same bytes, judged against the same roots, gets the same check back.
///
/// Off unless a batch run switches the shared pool on (`isEnabled`, beside `DecodedCertificatePool`'s):
/// a single document still checks, and counts, its own chain. Tests make pools of their own
/// (`alwaysOn`), so that no other suite's documents see them. Thread-safe: every stored property is read and written with
/// `lock` held; a check handed out is an immutable value whose certificates may be used by several
/// threads at once (`DecodedCertificate`). Bounded: at `capacity` distinct chains it starts again.
public final class JWSChainPool: @unchecked Sendable {
    public static let shared = JWSChainPool()

    private let alwaysOn: Bool
    private let lock = Lock()
    private var enabled = false
    private var entries: [JWSVerificationSession.ChainKey: JWSChainCheck] = [:]
    /// Checks handed out from the pool, for tests.
    private var hits = 0
    let capacity = 64

    init(alwaysOn: Bool = false) { self.alwaysOn = alwaysOn }

    /// Whether documents share chains (a batch run); switching it off forgets them.
    public var isEnabled: Bool {
        get { lock.withLock { alwaysOn || enabled } }
        set { lock.withLock { enabled = newValue; if !newValue { entries.removeAll() } } }
    }

    /// The check for `key`: the pooled one, or `make()`'s, kept for later documents while the pool is on.
    func chain(_ key: JWSVerificationSession.ChainKey, make: () -> JWSChainCheck) -> JWSChainCheck {
        let (on, known) = lock.withLock { () -> (Bool, JWSChainCheck?) in
            guard alwaysOn || enabled else { return (false, nil) }
            let known = entries[key]
            if known != nil { hits += 1 }
            return (true, known)
        }
        if let known { return known }
        // Made outside the lock: a second thread may make the same check at once; both are equal.
        let made = make()
        if on {
            lock.withLock {
                if entries.count >= capacity { entries.removeAll() }
                entries[key] = made
            }
        }
        return made
    }

    var hitCount: Int { lock.withLock { hits } }
}
