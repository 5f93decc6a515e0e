import ASN1Lenient
import Threads
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TextOutput

/// Memoises the per-node work a frame may need more than once: the `Explainer` lines of the
/// selected node (which count a node's children, O(width) for a SET of 333,333 elements). Keyed by
/// node index and shared by copies of one `AppState` (same tree), so `render` stays a pure function
/// of the state as far as anyone can observe, while a key that re-selects a wide node costs O(1).
// @unchecked: `explanations` and `order` are read and written only with `lock` held.
public final class RenderCache: @unchecked Sendable {
    private let lock = Lock()
    private var explanations: [Int: [ExplanationLine]] = [:]
    private var order: [Int] = []
    static let capacity = 16

    init() {}


    func explanation(for node: Int, compute: () -> [ExplanationLine]) -> [ExplanationLine] {
        lock.lock()
        if let hit = explanations[node] { lock.unlock(); return hit }
        lock.unlock()
        let lines = compute()
        lock.lock()
        if explanations[node] == nil {
            explanations[node] = lines
            order.append(node)
            if order.count > RenderCache.capacity { explanations[order.removeFirst()] = nil }
        }
        lock.unlock()
        return lines
    }
}
