import Platform

// NSLock, NSCondition and Thread are full Foundation's, which the tool does not load (FoundationEssentials
// only: no ICU at start-up), and Synchronization's Mutex needs macOS 15. These are the same pthread
// primitives Foundation wraps, with the methods the tool used from it.

/// A mutual-exclusion lock (NSLock's `lock`, `unlock` and `withLock`).
public final class Lock: @unchecked Sendable {
    // @unchecked: the mutex lives at a fixed address for the object's life and pthread locks it.
    fileprivate let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    public func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A lock with condition variables (NSCondition's `lock`, `unlock`, `wait`, `signal`, `broadcast`).
/// `channels` condition variables share the one lock, so that a thread can wake only the threads
/// that wait for what it changed (a batch worker's result wakes the writer, not the other workers).
public final class Condition: @unchecked Sendable {
    // @unchecked: as `Lock`; the condition variables are only used with their own mutex held.
    private let mutex = Lock()
    private let conditions: UnsafeMutablePointer<pthread_cond_t>
    private let channels: Int

    public init(channels: Int = 1) {
        self.channels = max(channels, 1)
        conditions = .allocate(capacity: self.channels)
        for i in 0..<self.channels {
            (conditions + i).initialize(to: pthread_cond_t())
            pthread_cond_init(conditions + i, nil)
        }
    }

    deinit {
        for i in 0..<channels { pthread_cond_destroy(conditions + i) }
        conditions.deallocate()
    }

    public func lock() { mutex.lock() }
    public func unlock() { mutex.unlock() }
    /// Call with the lock held; it is held again on return.
    public func wait(_ channel: Int = 0) { pthread_cond_wait(conditions + channel, mutex.mutex) }
    public func signal(_ channel: Int = 0) { pthread_cond_signal(conditions + channel) }
    public func broadcast(_ channel: Int = 0) { pthread_cond_broadcast(conditions + channel) }
}

/// Starts `body` on a new detached thread with the given stack size (Foundation's `Thread`, its
/// `stackSize` and `start()`); the thread ends when `body` returns.
public func startThread(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
    startDetachedThread(stackSize: stackSize, body)
}
