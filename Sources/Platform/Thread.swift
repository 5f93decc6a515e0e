/// Starts `body` on a new detached thread with the given stack size; the thread ends when `body`
/// returns. pthread_create's types differ: Darwin's `pthread_t` is an optional pointer and its start
/// routine takes a non-optional argument; Glibc's `pthread_t` is an integer and the argument optional.
public func startDetachedThread(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
    final class Box { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t? = nil
    #else
    var thread = pthread_t()
    #endif
    let result = pthread_create(&thread, &attributes, { raw in
        #if canImport(Darwin)
        let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
        #else
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        #endif
        box.body()
        return nil
    }, context)
    precondition(result == 0, "pthread_create failed: \(result)")
}
