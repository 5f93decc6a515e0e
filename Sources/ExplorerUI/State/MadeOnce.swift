import ASN1Lenient
import Threads
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A value made on first use and shared by every copy of the state that holds the slot (search
/// indexes, the diagnostics' rows). The computation runs outside the lock because it can take
/// long; two racing computations give the same value, so the first store wins and the other is
/// dropped.
// @unchecked: `made` is read and written only with `lock` held, and the value it hands out is Sendable.
final class MadeOnce<Value: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    private var made: Value?

    func value(_ compute: () -> Value) -> Value {
        lock.lock()
        if let made { lock.unlock(); return made }
        lock.unlock()
        let value = compute()
        lock.lock()
        defer { lock.unlock() }
        if made == nil { made = value }
        return made!
    }

    /// Whether the value has been made (tests check when it is).
    var isMade: Bool {
        lock.lock()
        defer { lock.unlock() }
        return made != nil
    }
}
